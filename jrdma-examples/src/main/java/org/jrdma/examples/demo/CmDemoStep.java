package org.jrdma.examples.demo;

import java.nio.file.Path;
import java.time.Duration;
import org.jrdma.examples.cm.EchoClient;
import org.jrdma.examples.cm.EchoServer;
import org.jrdma.examples.cm.Rping;
import org.jrdma.testkit.vm.SoftRoceVm;
import org.jrdma.testkit.vm.VmResult;

/**
 * The demo's connection manager step: in the soft-RoCE VM (with {@code rdma_ucm} loaded), C
 * {@code rping -s} serves and the example {@link Rping} is the client over {@code org.jrdma.cm}
 * ({@code -c -v -V}): it resolves the server's IP address and route, makes its queue pair with
 * {@code rdma_create_qp}, connects, and runs rping's protocol (the server RDMA-reads the client's
 * buffer and RDMA-writes it back), validating each ping's data. Then, in the same boot, the
 * endpoint API: {@link EchoServer} and {@link EchoClient} {@code -z}, whose messages are written
 * into send buffers the endpoint lends and read where they arrive, with no copy, followed by an
 * RDMA write into the server's buffer and a read back.
 */
public final class CmDemoStep {
    private static final String HOST = "10.0.0.1";
    private static final int PORT = 7174;
    private static final int COUNT = 3;
    private static final int ECHO_PORT = 7175;

    private CmDemoStep() {
    }

    /** Boots the VM and runs C {@code rping -s} against the Java client; prints both sides' output. */
    static void run() {
        System.out.println();
        String title = "Connections over rdma_cm: Java rping client against C rping -s; endpoints in lent buffers";
        System.out.println("=== " + title + " " + "=".repeat(Math.max(0, 96 - title.length())));
        if (!SoftRoceVm.isAvailable()) {
            System.out.println("skipped: " + SoftRoceVm.unavailabilityCause());
            return;
        }
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        String classPath = "'" + System.getProperty("java.class.path") + "'";
        String args = "-v -a " + HOST + " -p " + PORT + " -S 64 -C " + COUNT;
        String javaRun = java + " --enable-native-access=ALL-UNNAMED -cp " + classPath + " ";
        String serveArgs = " -C 1 -p " + ECHO_PORT;
        String echoArgs = " -z -v -C " + COUNT + " -a " + HOST + " -p " + ECHO_PORT;
        VmResult result = SoftRoceVm.builder().module("rdma_ucm").build().run(String.join("\n",
                "echo '$ rping -s " + args + " &'",
                "rping -s " + args + " >/tmp/rping-s.out 2>&1 &",
                "for i in $(seq 100); do rdma resource show cm_id | grep -q ' state LISTEN ' && break; sleep 0.1; done",
                "echo '$ java " + Rping.class.getSimpleName() + " -c -V " + args + "'",
                javaRun + Rping.class.getName() + " -c -V " + args,
                "status=$?",
                "wait",
                "echo \"(rping -s said; it stops at the client's disconnect, state 10 being DISCONNECTED:)\"",
                "cat /tmp/rping-s.out",
                "echo '$ java " + EchoServer.class.getSimpleName() + serveArgs + " &'",
                javaRun + EchoServer.class.getName() + serveArgs + " >/tmp/echo-s.out 2>&1 &",
                "for i in $(seq 300); do rdma resource show cm_id | grep -q ' state LISTEN ' && break; sleep 0.1; done",
                "echo '$ java " + EchoClient.class.getSimpleName() + echoArgs + "'",
                javaRun + EchoClient.class.getName() + echoArgs,
                "status=$((status | $?))",
                "wait",
                "echo '(EchoServer said:)'",
                "cat /tmp/echo-s.out",
                "exit $status"), Duration.ofMinutes(5));
        System.out.print(result.output());
        System.out.printf("(VM run took %d ms, exit status %d)%n", result.elapsed().toMillis(), result.exitCode());
    }
}
