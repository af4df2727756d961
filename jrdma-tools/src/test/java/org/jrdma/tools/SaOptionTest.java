package org.jrdma.tools;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import org.jrdma.testkit.fabric.Fabric;
import org.jrdma.testkit.fabric.ToolResult;
import org.jrdma.testkit.junit.SimulatedFabric;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * {@code --sa}: {@code ibtool smpquery --sa} and {@code ibroute --sa} read the attributes from
 * OpenSM's SA records (through {@link org.jrdma.mad.SaTransactor}), and {@code ibnetdiscover},
 * {@code ibhosts}, {@code ibswitches} and {@code ibnodes} discover the subnet from them
 * ({@link org.jrdma.subnet.SubnetDiscovery#fromSa}); each prints what the C tool prints when it asks
 * the nodes themselves, on the fat tree.
 *
 * <p>One field legitimately differs: NodeInfo:LocalPortNum, and a switch's PortInfo:LocalPortNum
 * for port 0, say which port the SMP came in by. The SA's copy is what OpenSM read from its own
 * port, so a node reached by another way (a directed route from node01, or a switch OpenSM reaches
 * through another port) reports another number; those cases compare with that line masked.
 */
@SimulatedFabric(topology = "fat-tree")
class SaOptionTest {
    private static final String AT = "node01 HCA-1";

    @ParameterizedTest
    @ValueSource(strings = {"smpquery nodeinfo 4", "smpquery nodeinfo 1", "smpquery nodeinfo 13", "smpquery nodedesc 1",
            "smpquery nodedesc 13", "smpquery -D nodedesc 0,1,5,4,1", "smpquery portinfo 4 1", "smpquery portinfo 4",
            "smpquery portinfo 1 3", "smpquery portinfo 1", "smpquery switchinfo 1", "smpquery switchinfo 6",
            "ibroute 1", "ibroute 3", "ibroute 7 4 14", "ibroute -M 1", "ibroute -D 0,1"})
    void printsWhatTheCToolPrintsAskingTheNodes(String command, Fabric fabric) {
        Outputs outputs = Outputs.of(command, fabric);
        assertEquals(outputs.c(), outputs.ours());
    }

    @ParameterizedTest
    @ValueSource(strings = {"smpquery -D nodeinfo 0,1", "smpquery -D portinfo 0,1,5 0", "smpquery portinfo 3 0", "smpquery portinfo 7 2"})
    void printsWhatTheCToolPrintsButTheEntryPortOfSwitchesReachedAnotherWay(String command, Fabric fabric) {
        Outputs outputs = Outputs.of(command, fabric);
        assertEquals(withoutLocalPort(outputs.c()), withoutLocalPort(outputs.ours()));
    }

    /** What the C tool printed asking the nodes, and what ibtool printed with {@code --sa}, both attached at {@link #AT}. */
    private record Outputs(String c, String ours) {
        static Outputs of(String command, Fabric fabric) {
            String[] words = command.split(" ");
            ToolResult c = fabric.runAt(AT, words).orThrow();
            List<String> args = new ArrayList<>(List.of(words[0], "--sim", fabric.socketName(), "--sim-node", AT, "--sa"));
            args.addAll(List.of(words).subList(1, words.length));
            IbtoolRun ours = IbtoolRun.of(args.toArray(String[]::new));
            assertEquals(0, ours.exitCode(), ours.err());
            return new Outputs(c.stdout(), ours.out());
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"ibnetdiscover", "ibhosts", "ibswitches", "ibnodes"})
    void discoveryFromTheSaPrintsWhatTheCToolDiscoversByDirectedRoute(String tool, Fabric fabric) {
        for (String node : List.of(AT, "spine1", "leaf3")) {
            ToolResult c = fabric.runAt(node, tool).orThrow();
            IbtoolRun ours = IbtoolRun.of(tool, "--sim", fabric.socketName(), "--sim-node", node, "--sa");
            assertEquals(0, ours.exitCode(), ours.err());
            assertEquals(IbtoolRun.withoutDate(c.stdout()), IbtoolRun.withoutDate(ours.out()), tool + " at " + node);
        }
    }

    @Test
    void tablesTheSaDoesNotKeepForEveryoneAreUsageErrors(Fabric fabric) {
        for (String op : List.of("pkeys", "sl2vl", "vlarb")) {
            IbtoolRun run = IbtoolRun.of("smpquery", "--sim", fabric.socketName(), "--sa", op, "4", "1");
            assertEquals(ExitCodes.USAGE, run.exitCode(), op);
            assertTrue(run.err().contains("--sa answers nodeinfo"), run.err());
        }
    }

    private static String withoutLocalPort(String text) {
        return text.replaceAll("(?m)^(LocalPort:\\.+).*$", "$1<port>");
    }
}
