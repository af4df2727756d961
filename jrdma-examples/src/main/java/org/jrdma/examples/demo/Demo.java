package org.jrdma.examples.demo;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.jrdma.examples.Examples;
import org.jrdma.testkit.fabric.Fabric;
import org.jrdma.testkit.fabric.ToolResult;
import org.jrdma.testkit.fabric.Topology;
import org.jrdma.testkit.vm.SoftRoceVm;
import org.jrdma.testkit.vm.VmResult;
import org.jrdma.tools.Ibtool;

/**
 * The README's main job: brings up jrdma's two real peers and shows jrdma working on them. First a
 * simulated InfiniBand fabric (the bundled fat tree: ibsim plus OpenSM), discovered and queried by
 * {@code ibtool} next to the C diagnostics (directed-route and SA discovery, queries, ibstat); then
 * the soft-RoCE VM with the example programs: the libibverbs tutorial's RC flow, and the Java
 * ping-pong against C {@code ibv_rc_pingpong}.
 * Each later capability of jrdma adds its own step here.
 *
 * <p>Run it through {@code bin/jrdma-demo}; the argument, if any, is a topology name or file. The
 * example programs run in the VM with this JVM's class path ({@code examples.jar}).
 */
public final class Demo {
    /** What the last {@link #ibtool} command printed on standard output. */
    private String lastIbtoolOutput = "";
    /** What the last {@link #ibtool} command printed on standard error. */
    private String lastIbtoolErr = "";

    private Demo() {
    }

    public static void main(String[] args) {
        String topologyName = args.length > 0 ? args[0] : "fat-tree";
        Demo demo = new Demo();
        demo.fabric(Topology.load(topologyName));
        softRoce();
        ExtendedVerbsDemoStep.run();
        CmDemoStep.run();
    }

    private void fabric(Topology topology) {
        heading("Simulated InfiniBand fabric: " + topology.source() + " (" + topology.nodes().size() + " nodes)");
        long start = System.nanoTime();
        try (Fabric fabric = Fabric.start(topology)) {
            System.out.printf("ibsim and OpenSM up, subnet swept, SA answering after %d ms (sockets @%s:*)%n",
                    Duration.ofNanos(System.nanoTime() - start).toMillis(), fabric.socketName());
            // Attached at a channel adapter, as a host is (ibsim's default node is the file's first, a switch).
            String node = topology.nodes(Topology.NodeType.CA).getFirst().name();
            System.out.println("ibtool and the C tools attached at \"" + node + "\"");
            ibtool("ibnetdiscover", "--sim", fabric.socketName(), "--sim-node", node);
            String directed = withoutDate(lastIbtoolOutput);
            long c = System.nanoTime();
            ToolResult cOut = fabric.runAt(node, Duration.ofSeconds(60), List.of("ibnetdiscover"));
            System.out.printf("(C ibnetdiscover on the same fabric: %d ms, output %s)%n%n",
                    Duration.ofNanos(System.nanoTime() - c).toMillis(),
                    withoutDate(cOut.stdout()).equals(directed) ? "identical" : "DIFFERENT");
            ibtoolAndC(fabric, node, "smpquery", "nodeinfo", "1");
            ibtoolAndC(fabric, node, "saquery", "NR", "2");
            ibtoolAndC(fabric, node, "perfquery", "1", "1");
            ibtool("ibnetdiscover", "--sa", "--sim", fabric.socketName(), "--sim-node", node);
            System.out.printf("(the same topology from the SA's records, without a single SMP: %s)%n%n",
                    withoutDate(lastIbtoolOutput).equals(directed) ? "identical to the directed-route discovery" : "DIFFERENT");
            ibtool("ibstat", "--sim", fabric.socketName(), "--sim-node", node);
            onTheUmadTransport(fabric, node);
            failuresAsTheCTools(fabric, node);
            withALinkDown(fabric, node);
            errorCounters(fabric, node);
            DiagsDemoStep.run(fabric, node);
            TrapsDemoStep.run(fabric, node);
            TopologyDiffDemoStep.run(fabric, node);
            PyRdmaDemoStep.run(fabric, node);
            MonitorDemoStep.run(fabric, node);
        }
    }

    /** Error counters set through ibsim's console, found by ibqueryerrors (nodes read in parallel) as the C tool finds them. */
    private void errorCounters(Fabric fabric, String node) {
        System.out.println("Error counters set through ibsim's console: leaf2 port 1 SymbolErrorCounter 42, LinkDownedCounter 3");
        fabric.performanceSet("leaf2", 1, "PortCounters", "SymbolErrorCounter", 42);
        fabric.performanceSet("leaf2", 1, "PortCounters", "LinkDownedCounter", 3);
        ibtoolAndC(fabric, node, "ibqueryerrors");
    }

    /**
     * ibtool as it runs on a host, without {@code --sim}: a JVM of its own opening the kernel umad
     * port the C tools would choose, here libumad2sim's, next to the C tool at the same node.
     */
    private static void onTheUmadTransport(Fabric fabric, String node) {
        System.out.println("ibtool on the kernel umad transport, no --sim (libumad2sim plays the kernel, as for the C tools):");
        List<String> command = List.of("smpquery", "nodeinfo", "1");
        List<String> java = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "--enable-native-access=ALL-UNNAMED", "-cp", System.getProperty("java.class.path"), Ibtool.class.getName()));
        java.addAll(command);
        System.out.println("$ ibtool " + String.join(" ", command));
        ToolResult ours = fabric.runAt(node, Duration.ofSeconds(60), java);
        System.out.print(ours.stdout());
        ToolResult c = fabric.runAt(node, Duration.ofSeconds(60), command);
        System.out.printf("(ibtool: exit %d; C smpquery at the same node: %s)%n%n", ours.exitCode(),
                c.stdout().equals(ours.stdout()) && c.exitCode() == ours.exitCode() ? "identical output and exit status" : "DIFFERENT:\n" + c.stdout());
    }

    /** A query of a LID nobody has: ibtool fails as the C tool does, on the same streams with the same status. */
    private void failuresAsTheCTools(Fabric fabric, String node) {
        String[] command = {"smpquery", "nodeinfo", "99"};
        List<String> args = new ArrayList<>(List.of(command));
        args.addAll(List.of("--sim", fabric.socketName(), "--sim-node", node, "-t", "200"));
        int status = ibtool(args.toArray(String[]::new));
        ToolResult c = fabric.runAt(node, Duration.ofSeconds(60), List.of("smpquery", "-t", "200", "nodeinfo", "99"));
        boolean sameErr = withoutPids(lastIbtoolErr).startsWith(withoutPids(c.stderr()));
        System.out.printf("(C smpquery: exit %d; standard output %s, standard error %s)%n%n", c.exitCode(),
                c.stdout().equals(lastIbtoolOutput) ? "identical" : "DIFFERENT", sameErr ? "begins alike" : "DIFFERENT:\n" + c.stderr());
        if (status != c.exitCode()) {
            System.out.println("(exit statuses DIFFER)");
        }
    }

    /** ibsim's console takes a link down; both tools see it the same way; the link comes back. */
    private void withALinkDown(Fabric fabric, String node) {
        System.out.println("Fault injection through ibsim's console: spine1 port 1 (to leaf1) unlinked");
        fabric.unlink("spine1", 1);
        ibtoolAndC(fabric, node, "iblinkinfo", "--switches-only");
        fabric.relink("spine1", 1);
        System.out.println("(relinked)");
    }

    /** Runs an ibtool command, then the C tool of the same name, both at {@code node}, and says whether they printed the same. */
    private void ibtoolAndC(Fabric fabric, String node, String... command) {
        List<String> args = new ArrayList<>(List.of(command));
        args.addAll(List.of("--sim", fabric.socketName(), "--sim-node", node));
        ibtool(args.toArray(String[]::new));
        ToolResult c = fabric.runAt(node, Duration.ofSeconds(60), List.of(command));
        System.out.printf("(C %s on the same fabric: %s)%n%n", command[0], c.stdout().equals(lastIbtoolOutput) ? "identical output"
                : command[0].equals("perfquery") ? "its counters moved between the two runs" : "DIFFERENT:\n" + c.stdout());
    }

    private static void softRoce() {
        heading("Soft-RoCE (rdma_rxe) in a VM running Debian's kernel");
        if (!SoftRoceVm.isAvailable()) {
            System.out.println("skipped: " + SoftRoceVm.unavailabilityCause());
            return;
        }
        String examples = "'" + System.getProperty("java.class.path") + "'";
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        String runExamples = String.join("\n",
                "echo '$ Examples rc-flow   (the libibverbs tutorial: RDMA write, read, send, both atomics)'",
                java + " -cp " + examples + " " + Examples.class.getName() + " rc-flow",
                "echo '$ Examples rc-pingpong   (Java server, C ibv_rc_pingpong client)'",
                java + " -cp " + examples + " " + Examples.class.getName() + " rc-pingpong");
        VmResult result = SoftRoceVm.create().run("""
                echo '$ ibv_devices'; ibv_devices
                echo '$ ibv_devinfo -d rxe0'; ibv_devinfo -d rxe0
                """ + runExamples, Duration.ofMinutes(10));
        System.out.print(result.output());
        System.out.printf("(VM run took %d ms, exit status %d)%n", result.elapsed().toMillis(), result.exitCode());
    }

    /**
     * Runs an ibtool command in this JVM ({@link InProcessIbtool}) and keeps what it printed as
     * {@link #lastIbtoolOutput} and {@link #lastIbtoolErr}; returns its exit status.
     */
    private int ibtool(String... args) {
        InProcessIbtool run = InProcessIbtool.run(args);
        lastIbtoolOutput = run.out();
        lastIbtoolErr = run.err();
        return run.status();
    }

    /** The C tools' {@code ibwarn: [pid]} with the process id masked. */
    private static String withoutPids(String text) {
        return text.replaceAll("\\[\\d+\\]", "[pid]");
    }

    private static String withoutDate(String topology) {
        return topology.replaceAll("(?m)^# Topology file: generated on .*$", "");
    }

    private static void heading(String title) {
        System.out.println();
        System.out.println("=== " + title + " " + "=".repeat(Math.max(0, 96 - title.length())));
    }
}
