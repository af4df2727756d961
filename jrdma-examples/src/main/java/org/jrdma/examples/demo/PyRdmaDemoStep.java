package org.jrdma.examples.demo;

import java.time.Duration;
import java.util.List;
import java.util.stream.Stream;
import org.jrdma.testkit.fabric.Fabric;
import org.jrdma.testkit.fabric.ToolResult;

/**
 * The demo's step for python-rdma's own ibtool commands (issue 12): {@code query}, a Get of any
 * attribute jrdma describes (here the local port's NodeInfo by SubnGet), and python-rdma's
 * addresses where the diags take a LID: {@code smpquery nodeinfo IBPath(DLID=1)} next to C
 * {@code smpquery nodeinfo 1}.
 */
final class PyRdmaDemoStep {
    private PyRdmaDemoStep() {
    }

    static void run(Fabric fabric, String node) {
        System.out.println("python-rdma's own commands: query, and IBPath(...)/GID addresses where the diags take a LID");
        List<String> at = List.of("--sim", fabric.socketName(), "--sim-node", node);
        InProcessIbtool.run(with(List.of("query", "SubnGet", "SMPNodeInfo"), at));
        System.out.println();
        InProcessIbtool ours = InProcessIbtool.run(with(List.of("smpquery", "nodeinfo", "IBPath(DLID=1)"), at));
        ToolResult c = fabric.runAt(node, Duration.ofSeconds(60), List.of("smpquery", "nodeinfo", "1"));
        System.out.printf("(C smpquery nodeinfo 1 at the same node: %s)%n%n",
                c.stdout().equals(ours.out()) && c.exitCode() == ours.status() ? "identical output and exit status" : "DIFFERENT:\n" + c.stdout());
    }

    private static String[] with(List<String> command, List<String> at) {
        return Stream.concat(command.stream(), at.stream()).toArray(String[]::new);
    }
}
