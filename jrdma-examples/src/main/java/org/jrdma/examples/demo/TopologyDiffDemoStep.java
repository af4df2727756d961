package org.jrdma.examples.demo;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.jrdma.subnet.Node;
import org.jrdma.subnet.SubnetCache;
import org.jrdma.testkit.fabric.Fabric;

/**
 * The demo's step for comparing a saved topology with the fabric (issue 12, the compat set):
 * the C ibnetdiscover caches the fabric, an HCA other than the demo's is unplugged through ibsim's
 * console, and python-rdma's {@code subnet_diff}, as {@code ibtool subnet_diff}, reports the end
 * port, node, link and LID the fabric lost; the HCA is plugged back.
 */
final class TopologyDiffDemoStep {
    private TopologyDiffDemoStep() {
    }

    static void run(Fabric fabric, String node) {
        try {
            Path reference = Files.createTempFile("jrdma-demo-", ".cache");
            try {
                fabric.runAt(node, Duration.ofSeconds(60), List.of("ibnetdiscover", "--cache", reference.toString())).orThrow();
                List<Node> hcas = SubnetCache.read(reference).channelAdapters().stream()
                        .filter(n -> !n.description().equals(node)).toList();
                String unplugged = hcas.getLast().description();
                System.out.println("Topology differences: C ibnetdiscover cached the fabric; " + unplugged
                        + " unplugged through ibsim's console, then python-rdma's subnet_diff against that cache");
                fabric.unlink(unplugged);
                try {
                    InProcessIbtool.run("subnet_diff", "--sim", fabric.socketName(), "--sim-node", node, reference.toString());
                } finally {
                    fabric.relink(unplugged);
                }
                System.out.println();
            } finally {
                Files.deleteIfExists(reference);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
