package org.jrdma.vtools;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.fail;

import java.net.URISyntaxException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.stream.Stream;
import org.jrdma.iba.Gid;
import org.jrdma.testkit.Peers;
import org.jrdma.testkit.vm.SoftRoceVm;
import org.jrdma.testkit.vm.VmResult;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

/**
 * Runs {@link VtoolsInVm} in one boot of the soft-RoCE VM against {@code rxe0}, with real traffic
 * between queue pairs set up from paths, and reports each of its checks as a test of its own.
 */
class VtoolsInVmTest {
    /** Every check {@link VtoolsInVm} makes, in its order. */
    private static final List<String> CHECKS = List.of(
            "get verbs for an end port",
            "fill path",
            "no-CM exchange over TCP and establish",
            "rc send/recv with buffer pools",
            "rc rdma write both ways",
            "cq poller sleeps on the channel and wakes",
            "cq poller timeout",
            "cq poller count and stream",
            "cq poller raises an async error (cq overrun)",
            "ud establish and cached address handles",
            "buffer pool bookkeeping",
            "steady-state allocation (poller and pool)",
            "no kernel objects left");

    @TestFactory
    Stream<DynamicTest> vtoolsOnSoftRoce() throws URISyntaxException {
        Peers.require(SoftRoceVm.isAvailable(), SoftRoceVm.unavailabilityCause());
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        String classPath = String.join(":", location(BufferPool.class), location(Gid.class), location(VtoolsInVm.class));
        VmResult result = SoftRoceVm.create().run("'" + java + "' --enable-native-access=ALL-UNNAMED -cp '"
                + classPath + "' " + VtoolsInVm.class.getName(), Duration.ofMinutes(5));
        String output = result.output();
        System.out.println("VtoolsInVm in the soft-RoCE VM (" + result.elapsed().toMillis() + " ms):\n" + output);
        List<String> lines = output.lines().toList();
        Stream<DynamicTest> checks = CHECKS.stream().map(name -> DynamicTest.dynamicTest(name, () -> {
            if (lines.stream().anyMatch(l -> l.startsWith("PASS " + name + " ("))) {
                return;
            }
            String failure = lines.stream().filter(l -> l.startsWith("FAIL " + name + ":")).findFirst()
                    .orElse("no PASS or FAIL line for it");
            fail(failure + "\n--- VM output ---\n" + output);
        }));
        Stream<DynamicTest> complete = Stream.of(DynamicTest.dynamicTest("every check ran and passed", () -> {
            assertEquals(CHECKS, lines.stream().filter(l -> l.startsWith("PASS ") || l.startsWith("FAIL "))
                    .map(l -> l.substring(5).replaceFirst("(: .*| \\(\\d+ ms\\))$", "")).toList(), "checks run");
            assertEquals(0, result.exitCode(), output);
        }));
        return Stream.concat(checks, complete);
    }

    /** The class folder or jar {@code type} was loaded from. */
    private static String location(Class<?> type) throws URISyntaxException {
        return Path.of(type.getProtectionDomain().getCodeSource().getLocation().toURI()).toString();
    }
}
