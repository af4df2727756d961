package org.jrdma.tools;

import java.time.Duration;
import java.util.List;
import org.jrdma.testkit.fabric.Fabric;
import org.jrdma.testkit.fabric.ToolResult;
import org.jrdma.testkit.fabric.Topology;
import org.jrdma.testkit.vm.SoftRoceVm;
import org.jrdma.testkit.vm.VmResult;

/**
 * The README's main job: brings up jrdma's two real peers and shows jrdma working on them. First a
 * simulated InfiniBand fabric (the bundled fat tree: ibsim plus OpenSM), discovered and queried by
 * {@code ibtool} next to the C diagnostics; then the soft-RoCE VM with an RC ping-pong on rxe0.
 * Each later capability of jrdma adds its own step here.
 *
 * <p>Run it through {@code bin/jrdma-demo}; the argument, if any, is a topology name or file.
 */
public final class Demo {
    private Demo() {
    }

    public static void main(String[] args) {
        String topologyName = args.length > 0 ? args[0] : "fat-tree";
        fabric(Topology.load(topologyName));
        softRoce();
    }

    private static void fabric(Topology topology) {
        heading("Simulated InfiniBand fabric: " + topology.source() + " (" + topology.nodes().size() + " nodes)");
        long start = System.nanoTime();
        try (Fabric fabric = Fabric.start(topology)) {
            System.out.printf("ibsim and OpenSM up, subnet swept, SA answering after %d ms (sockets @%s:*)%n",
                    Duration.ofNanos(System.nanoTime() - start).toMillis(), fabric.socketName());
            ibtool("ibnetdiscover", "--sim", fabric.socketName());
            long c = System.nanoTime();
            ToolResult cOut = fabric.runAt(null, Duration.ofSeconds(60), List.of("ibnetdiscover"));
            System.out.printf("(C ibnetdiscover on the same fabric: %d ms, output %s)%n%n",
                    Duration.ofNanos(System.nanoTime() - c).toMillis(),
                    withoutDate(cOut.stdout()).equals(withoutDate(lastIbtoolOutput)) ? "identical" : "DIFFERENT");
            show(fabric, "smpquery", "nodeinfo", "1");
            show(fabric, "saquery", "NR", "2");
            show(fabric, "perfquery", "1", "1");
        }
    }

    private static void softRoce() {
        heading("Soft-RoCE (rdma_rxe) in a VM running Debian's kernel");
        if (!SoftRoceVm.isAvailable()) {
            System.out.println("skipped: " + SoftRoceVm.unavailabilityCause());
            return;
        }
        VmResult result = SoftRoceVm.create().run("""
                echo '$ ibv_devices'; ibv_devices
                echo '$ ibv_devinfo -d rxe0'; ibv_devinfo -d rxe0
                echo '$ ibv_rc_pingpong -d rxe0 -g 0 -n 1000 (server and client)'
                ibv_rc_pingpong -d rxe0 -g 0 -n 1000 >/tmp/server.log 2>&1 &
                for _ in $(seq 100); do ss -Hltn 'sport = :18515' | grep -q . && break; sleep 0.1; done
                ibv_rc_pingpong -d rxe0 -g 0 -n 1000 127.0.0.1; wait; echo '--- server side'; cat /tmp/server.log
                """, Duration.ofMinutes(3));
        System.out.print(result.output());
        System.out.printf("(VM run took %d ms, exit status %d)%n", result.elapsed().toMillis(), result.exitCode());
    }

    private static String lastIbtoolOutput = "";

    /** Runs an ibtool command in this JVM and prints what it printed. */
    private static void ibtool(String... args) {
        System.out.println("$ ibtool " + String.join(" ", args));
        java.io.StringWriter out = new java.io.StringWriter();
        long start = System.nanoTime();
        picocli.CommandLine cl = Ibtool.commandLine();
        cl.setOut(new java.io.PrintWriter(out, true));
        int status = cl.execute(args);
        lastIbtoolOutput = out.toString();
        System.out.print(lastIbtoolOutput);
        System.out.printf("(ibtool: exit %d, %d ms)%n", status, Duration.ofNanos(System.nanoTime() - start).toMillis());
    }

    private static String withoutDate(String topology) {
        return topology.replaceAll("(?m)^# Topology file: generated on .*$", "");
    }

    private static void show(Fabric fabric, String... command) {
        System.out.println("$ " + String.join(" ", command));
        ToolResult result = fabric.runAt(null, Duration.ofSeconds(60), List.of(command));
        System.out.print(result.stdout());
        if (!result.succeeded()) {
            System.out.println("(exit status " + result.exitCode() + ")\n" + result.stderr());
        }
        System.out.println();
    }

    private static void heading(String title) {
        System.out.println();
        System.out.println("=== " + title + " " + "=".repeat(Math.max(0, 96 - title.length())));
    }
}
