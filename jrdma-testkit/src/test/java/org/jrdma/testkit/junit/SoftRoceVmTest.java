package org.jrdma.testkit.junit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Comparator;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import org.jrdma.testkit.vm.SoftRoceVm;
import org.jrdma.testkit.vm.VmException;
import org.jrdma.testkit.vm.VmResult;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Tests of {@link SoftRoceVm} against the real thing: Debian's kernel booted under qemu with
 * rdma_rxe. Each boot costs about 10 s, so the verbs checks share one boot.
 */
class SoftRoceVmTest {
    /**
     * One boot for the verbs checks, writing into the share folder {@code %1$s}: ibv_devices, then
     * ibv_rc_pingpong between a server and a client process on rxe0 (the client connects over TCP
     * to 127.0.0.1 to exchange addresses), each side's output in its own file.
     */
    private static final String VERBS_COMMAND = """
            cd '%1$s'
            ibv_devices >devices.txt 2>&1
            timeout 60 ibv_rc_pingpong -d rxe0 -g 0 -n 1000 >server.log 2>&1 &
            server=$!
            for _ in $(seq 100); do
                ss -Hltn 'sport = :18515' | grep -q . && break
                sleep 0.1
            done
            timeout 60 ibv_rc_pingpong -d rxe0 -g 0 -n 1000 127.0.0.1 >client.log 2>&1
            echo "client-exit: $?"
            wait "$server"
            echo "server-exit: $?"
            """;

    /** What the verbs boot left: its result and the files it wrote into the share. */
    private record VerbsRun(VmResult result, String devices, String server, String client) {
        @Override
        public String toString() {
            return result.output() + "--- ibv_devices\n" + devices + "--- server\n" + server + "--- client\n" + client;
        }
    }

    private static VerbsRun verbsRun;

    @BeforeEach
    void requireVm() {
        Peers.require(SoftRoceVm.isAvailable(), SoftRoceVm.unavailabilityCause());
    }

    /** The verbs boot, done once for the tests that look at it; also shows the share works. */
    private static synchronized VerbsRun verbsRun() throws IOException {
        if (verbsRun == null) {
            Path share = Files.createTempDirectory("rxe-vm-share-");
            try {
                VmResult result = SoftRoceVm.builder().share(share).build()
                        .run(VERBS_COMMAND.formatted(share), Duration.ofMinutes(3));
                System.out.println("verbs VM run took " + result.elapsed().toMillis() + " ms");
                verbsRun = new VerbsRun(result, read(share.resolve("devices.txt")),
                        read(share.resolve("server.log")), read(share.resolve("client.log")));
            } finally {
                deleteTree(share);
            }
        }
        return verbsRun;
    }

    @Test
    void ibvDevicesListsRxe0() throws IOException {
        VerbsRun run = verbsRun();
        assertEquals(0, run.result().exitCode(), run.toString());
        assertTrue(Pattern.compile("(?m)^\\s+rxe0\\s+\\p{XDigit}{16}$").matcher(run.devices()).find(), run.toString());
    }

    @Test
    void rcPingpongRunsThousandIterationsBetweenTwoProcesses() throws IOException {
        VerbsRun run = verbsRun();
        assertTrue(run.result().output().contains("client-exit: 0"), run.toString());
        assertTrue(run.result().output().contains("server-exit: 0"), run.toString());
        Pattern thousand = Pattern.compile("(?m)^1000 iters in [0-9.]+ seconds");
        assertTrue(thousand.matcher(run.server()).find(), "server did not complete 1000 iterations:\n" + run);
        assertTrue(thousand.matcher(run.client()).find(), "client did not complete 1000 iterations:\n" + run);
    }

    @Test
    void runsJava25MainOnTheDebianKernel() throws IOException, URISyntaxException {
        Path classes = Path.of(HelloFromVm.class.getProtectionDomain().getCodeSource().getLocation().toURI());
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        VmResult result = SoftRoceVm.create().run(
                "'" + java + "' -cp '" + classes + "' " + HelloFromVm.class.getName() + " 7", Duration.ofMinutes(3));
        System.out.println("java VM run took " + result.elapsed().toMillis() + " ms");

        String output = result.output();
        assertEquals(7, result.exitCode(), output);
        String kernel = line(output, "kernel");
        String hostKernel = Files.readString(Path.of("/proc/sys/kernel/osrelease")).strip();
        assertNotEquals(hostKernel, kernel, "the command ran on the host kernel");
        assertTrue(Files.exists(Path.of("/boot/vmlinuz-" + kernel)), "VM kernel " + kernel + " is not from /boot");
        assertTrue(Files.isDirectory(Path.of("/lib/modules", kernel)), "no /lib/modules/" + kernel);
        assertNotEquals(Long.toString(ProcessHandle.current().pid()), line(output, "pid"));
        assertEquals("25", line(output, "java"));
        assertEquals("333833500", line(output, "sum"));
    }

    @Test
    void timeoutKillsTheVmQuicklyWithAClearMessage() {
        long start = System.nanoTime();
        VmException e = assertThrows(VmException.class,
                () -> SoftRoceVm.create().run("sleep 600", Duration.ofSeconds(3)));
        Duration took = Duration.ofNanos(System.nanoTime() - start);

        assertTrue(e.getMessage().contains("did not finish within 3 s"), e.getMessage());
        assertTrue(e.getMessage().contains("last lines of the VM console"), e.getMessage());
        assertTrue(took.compareTo(Duration.ofSeconds(20)) < 0, "took " + took);
    }

    @Test
    void missingKernelModuleFailsClearlyWithoutBooting() {
        long start = System.nanoTime();
        VmException e = assertThrows(VmException.class,
                () -> SoftRoceVm.builder().module("jrdma_no_such_module").build().run("true", Duration.ofMinutes(1)));
        Duration took = Duration.ofNanos(System.nanoTime() - start);

        assertTrue(e.getMessage().contains("kernel module jrdma_no_such_module not found"), e.getMessage());
        assertTrue(took.compareTo(Duration.ofSeconds(5)) < 0, "took " + took);
    }

    /** The value of the {@code key=value} line of a HelloFromVm output. */
    private static String line(String output, String key) {
        return output.lines().filter(l -> l.startsWith(key + "="))
                .map(l -> l.substring(key.length() + 1)).findFirst()
                .orElseThrow(() -> new AssertionError("no " + key + "= line in:\n" + output));
    }

    private static String read(Path file) throws IOException {
        return Files.exists(file) ? Files.readString(file) : "(" + file.getFileName() + " not written)\n";
    }

    private static void deleteTree(Path root) throws IOException {
        try (Stream<Path> paths = Files.walk(root)) {
            for (Path path : paths.sorted(Comparator.reverseOrder()).toList()) {
                Files.delete(path);
            }
        }
    }
}
