package org.jrdma.testkit.demo;

import java.time.Duration;
import java.util.List;
import org.jrdma.testkit.fabric.Fabric;
import org.jrdma.testkit.fabric.ToolResult;
import org.jrdma.testkit.fabric.Topology;
import org.jrdma.testkit.vm.SoftRoceVm;
import org.jrdma.testkit.vm.VmResult;

/**
 * The README's main job: brings up jrdma's two real peers and shows them working. First a
 * simulated InfiniBand fabric (the bundled fat tree: ibsim plus OpenSM), queried with the C
 * diagnostics; then the soft-RoCE VM with an RC ping-pong on rxe0. Each later capability of jrdma
 * adds its own step here.
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
            show(fabric, "ibnetdiscover");
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
