package org.jrdma.tools;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.URISyntaxException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.stream.Collectors;
import org.jrdma.devices.RdmaDevice;
import org.jrdma.iba.Gid;
import org.jrdma.testkit.fabric.Fabric;
import org.jrdma.testkit.junit.Peers;
import org.jrdma.testkit.junit.SimulatedFabric;
import org.jrdma.testkit.vm.SoftRoceVm;
import org.jrdma.testkit.vm.VmResult;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import picocli.CommandLine;

/**
 * {@code ibtool ibstat} against infiniband-diags' ibstat: on simulated nodes of the fat tree (a
 * switch and an HCA, the C tool under libumad2sim, ibtool with {@code --sim}), and on the real
 * kernel's {@code rxe0} in the soft-RoCE VM, where both read the same sysfs.
 */
@SimulatedFabric(topology = "fat-tree")
class IbstatCommandTest {
    /**
     * Runs ibtool's ibstat (C1 only: under the VM's emulation C2's compilations made each run take
     * about 25 s), then the C ibstat, with the same arguments, separated by a marker line.
     */
    private static final String BOTH = """
            '%s' --enable-native-access=ALL-UNNAMED -XX:TieredStopAtLevel=1 -cp '%s' %s ibstat %s
            echo "=== ibtool exit=$?"
            ibstat %s
            echo "=== C exit=$?"
            """;

    @ParameterizedTest
    @ValueSource(strings = {"", "-l", "-s", "-p", "ibsim0", "ibsim0 1", "ibsim0 0", "-s ibsim0 1", "-p ibsim0",
            "-l ibsim0", "ibsim0 0x1", "ibsim0 2", "mlx4_0"})
    void printsWhatTheCToolPrints(String args, Fabric fabric) {
        String[] words = args.isEmpty() ? new String[0] : args.split(" ");
        for (String node : List.of("spine1", "node03 HCA-1")) {
            AgainstC run = AgainstC.runAt(fabric, node, "ibstat", words).assertSame();
            // ibstat's failures are ibpanic lines on standard error: "ibpanic: [pid] main: <message>: <errno text>".
            for (String line : run.c().stderr().lines().filter(l -> l.startsWith("ibpanic:") || l.startsWith("ibwarn: [")
                    && l.contains("ca_stat")).toList()) {
                String message = line.replaceFirst("^\\w+: \\[\\d+\\] \\w+: ", "").replaceFirst(": [A-Z][a-z ]+$", "");
                assertTrue(run.ours().err().contains(message), "ibtool should say " + message + "; said " + run.ours().err());
            }
        }
    }

    @Test
    void aBadPortIsAUsageError() {
        IbtoolRun run = IbtoolRun.of("ibstat", "--sim", "x", "ibsim0", "one");
        assertEquals(ExitCodes.USAGE, run.exitCode());
        assertTrue(run.err().contains("bad port number \"one\""), run.err());
    }

    @Test
    void printsWhatTheCToolPrintsForRxe0InTheVm() {
        Peers.require(SoftRoceVm.isAvailable(), SoftRoceVm.unavailabilityCause());
        String classPath = List.of(Ibtool.class, RdmaDevice.class, Gid.class, CommandLine.class).stream()
                .map(IbstatCommandTest::location).distinct().collect(Collectors.joining(":"));
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        StringBuilder script = new StringBuilder();
        for (String args : List.of("", "-l", "-s", "-p", "rxe0 1")) {
            script.append("echo '=== ibstat ").append(args).append("'\n")
                    .append(BOTH.formatted(java, classPath, Ibtool.class.getName(), args, args));
        }
        VmResult vm = SoftRoceVm.create().run(script.toString(), Duration.ofMinutes(6));
        String output = vm.output();
        for (String args : List.of("", "-l", "-s", "-p", "rxe0 1")) {
            String title = "=== ibstat " + args + "\n";
            assertTrue(output.contains(title), output);
            String section = output.substring(output.indexOf(title) + title.length());
            int oursEnd = section.indexOf("=== ibtool exit=");
            int cStart = section.indexOf('\n', oursEnd) + 1;
            assertTrue(section.startsWith("0\n", oursEnd + "=== ibtool exit=".length()), "ibtool ibstat " + args + " failed:\n" + output);
            assertTrue(section.startsWith("0\n", section.indexOf("=== C exit=") + "=== C exit=".length()), "ibstat " + args + " failed:\n" + output);
            assertEquals(section.substring(cStart, section.indexOf("=== C exit=")), section.substring(0, oursEnd), "ibstat " + args + ":\n" + output);
        }
        assertTrue(output.contains("CA 'rxe0'") && output.contains("Link layer: Ethernet"), output);
    }

    private static String location(Class<?> type) {
        try {
            return Path.of(type.getProtectionDomain().getCodeSource().getLocation().toURI()).toString();
        } catch (URISyntaxException e) {
            throw new IllegalStateException(e);
        }
    }
}
