package org.jrdma.tools;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.jrdma.testkit.fabric.Fabric;
import org.jrdma.testkit.fabric.ToolResult;
import org.jrdma.testkit.junit.SimulatedFabric;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * ibtool without {@code --sim}, on the kernel umad transport of the port {@code -C}/{@code -P} or
 * libibumad's defaults choose, against the C tool of the same name: both run at the same node of
 * a simulated fabric under libumad2sim ({@link IbtoolProcess}), which gives each process a fake
 * {@code /dev/infiniband/umad0} and sysfs tree for that node ({@code ibsim0}). Standard output and
 * exit status compare as {@link AgainstC} compares them; what moves between two runs (the
 * discovery date, traffic counters, the SM's activity count) is masked.
 */
@SimulatedFabric(topology = "two-switch")
class UmadTransportAgainstCTest {
    private static final String HCA = "node01 HCA-1";
    private static final String SWITCH = "sw1";

    @ParameterizedTest
    @ValueSource(strings = {"ibstat", "ibstat -l", "ibstat -p", "ibstat -s", "ibstat ibsim0 1", "ibaddr", "ibaddr 3",
            "sminfo", "smpquery nodeinfo 3", "smpquery portinfo 3 1", "smpquery -D nodeinfo 0,1,7", "perfquery", "perfquery 3 1",
            "saquery NR 3", "saquery PR --slid 3 --dlid 5", "ibroute 1", "ibroute -D 0,1", "ibnetdiscover", "ibtracert 3 5"})
    void sameAsTheCToolAtAChannelAdapter(String command, Fabric fabric) {
        compare(fabric, HCA, command);
    }

    /** A switch's end port is port 0, which libibumad picks for any switch, as ibtool does. */
    @ParameterizedTest
    @ValueSource(strings = {"ibstat", "ibaddr", "perfquery", "smpquery portinfo 3 1", "ibroute 1"})
    void sameAsTheCToolAtASwitch(String command, Fabric fabric) {
        compare(fabric, SWITCH, command);
    }

    /** {@code -C}/{@code -P}: a port given, a device given, and a device or port that is not there (both tools fail). */
    @ParameterizedTest
    @ValueSource(strings = {"ibaddr -C ibsim0", "ibaddr -P 1", "ibaddr -C ibsim0 -P 1", "ibaddr -C mlx5_0", "ibaddr -C mlx5_0 -P 1",
            "ibaddr -C ibsim0 -P 2", "smpquery -C ibsim0 -P 1 nodeinfo 3"})
    void portSelectionAsTheCTool(String command, Fabric fabric) {
        AgainstC run = compare(fabric, HCA, command);
        if (command.contains("mlx5_0") || command.endsWith("-P 2")) {
            assertEquals(ExitCodes.FAILED, run.ours().exitCode(), run.ours().err());
        }
    }

    @Test
    void aSwitchHasNoPortOne(Fabric fabric) {
        AgainstC run = compare(fabric, SWITCH, "ibaddr -C ibsim0 -P 1");
        assertEquals("ibaddr: iberror: failed: Failed to open 'ibsim0' port '1'\n", run.ours().out(), run.ours().err());
        assertEquals(ExitCodes.FAILED, run.ours().exitCode(), run.ours().err());
    }

    /** {@code --sa} on the umad transport: the SA's records print as the C tool prints what it asks the nodes. */
    @ParameterizedTest
    @ValueSource(strings = {"smpquery nodeinfo 3", "smpquery portinfo 3 1", "ibroute 1"})
    void saPathOnTheUmadTransport(String command, Fabric fabric) {
        String[] words = command.split(" ");
        ToolResult c = fabric.runAt(HCA, words).orThrow();
        String[] ours = new String[words.length + 1];
        ours[0] = words[0];
        ours[1] = "--sa";
        System.arraycopy(words, 1, ours, 2, words.length - 1);
        IbtoolRun run = IbtoolProcess.runAt(fabric, HCA, ours);
        assertEquals(0, run.exitCode(), run.err());
        assertEquals(c.stdout(), run.out());
    }

    private static AgainstC compare(Fabric fabric, String node, String command) {
        List<String> words = List.of(command.split(" "));
        return IbtoolProcess.againstC(fabric, node, words.getFirst(), words.subList(1, words.size()).toArray(String[]::new))
                .assertSame(UmadTransportAgainstCTest::mask);
    }

    private static String mask(String out) {
        return IbtoolRun.withoutDate(out)
                .replaceAll("activity count \\d+", "activity count <n>")
                .replaceAll("(?m)^((?:Port(?:Xmit|Rcv|Unicast(?:Xmit|Rcv)|Multicast(?:Xmit|Rcv))(?:Data|Pkts)):\\.+)\\d+$", "$1<n>");
    }
}
