package org.jrdma.verbs;

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
 * Runs {@link VerbsInVm} in one boot of the soft-RoCE VM against {@code rxe0}, with real traffic
 * between queue pairs of one process, and reports each of its checks as a test of its own.
 */
class VerbsInVmTest {
    /** Every check {@link VerbsInVm} makes, in its order. */
    private static final List<String> CHECKS = List.of(
            "availability",
            "devices",
            "open unknown device",
            "query device",
            "query port",
            "query gid and pkey",
            "errno convention NULL+errno (ibv_create_cq)",
            "errno convention -1+errno (ibv_query_gid)",
            "errno convention returned errno (ibv_modify_qp RESET->RTS)",
            "connect RC loopback",
            "send/recv",
            "send with immediate",
            "rdma write",
            "rdma write with immediate",
            "rdma read",
            "atomic compare and swap",
            "atomic fetch and add",
            "lists of work requests and gather",
            "inline, solicited and fenced sends",
            "post_send bad index from provider",
            "post_send too many sges",
            "completion channel wakeup",
            "direct byte buffer registration",
            "resize cq",
            "uc send and rdma write",
            "concurrent posting from 4 threads",
            "remote access violation (wrong rkey)",
            "rnr retry exceeded",
            "srq and srq limit event",
            "ud with address handle",
            "multicast attach/detach",
            "steady-state allocation",
            "use after close",
            "double close and parent closes children",
            "no kernel objects left");

    @TestFactory
    Stream<DynamicTest> verbsOnSoftRoce() throws URISyntaxException {
        Peers.require(SoftRoceVm.isAvailable(), SoftRoceVm.unavailabilityCause());
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        String classPath = String.join(":", location(Verbs.class), location(Gid.class), location(VerbsInVm.class));
        VmResult result = SoftRoceVm.create().run("'" + java + "' --enable-native-access=ALL-UNNAMED -cp '"
                + classPath + "' " + VerbsInVm.class.getName() + " rxe0", Duration.ofMinutes(5));
        String output = result.output();
        System.out.println("VerbsInVm in the soft-RoCE VM (" + result.elapsed().toMillis() + " ms):\n" + output);
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
