package org.jrdma.subnet;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.HashSet;
import java.util.HexFormat;
import java.util.Set;
import org.jrdma.testkit.fabric.Fabric;
import org.jrdma.testkit.fabric.Topology;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The bytes {@link SubnetCache} writes for a discovered subnet against the file infiniband-diags'
 * {@code ibnetdiscover --cache} writes for the same fabric from the same node: the same header
 * (counts, start node, most hops), the same node records in the same order, and the same port
 * records (libibnetdisc writes those in its hash table's order, so they are compared as a set).
 */
class SubnetCacheFormatTest {
    private static final int HEADER = 28;
    private static final int PORT_RECORD = 95;

    @BeforeEach
    void requireFabric() {
        org.jrdma.testkit.junit.Peers.require(Fabric.isAvailable(), Fabric.unavailabilityCause().orElse(""));
    }

    @Test
    void sameBytesAsTheCToolFromASwitchAndFromAChannelAdapter(@TempDir Path dir) throws IOException {
        try (Fabric fabric = Fabric.start(Topology.bundled("fat-tree"))) {
            for (String node : Arrays.asList(null, "node05 HCA-1")) {
                Path c = dir.resolve("c.cache");
                fabric.runAt(node, "ibnetdiscover", "--cache", c.toString()).orThrow();
                byte[] ours = SubnetCache.toBytes(SubnetDiscoveryTest.discover(fabric, node, 8).subnet());
                Records expected = Records.of(Files.readAllBytes(c));
                Records actual = Records.of(ours);

                assertArrayEquals(expected.header(), actual.header(), "header, attached at " + node);
                assertArrayEquals(expected.nodes(), actual.nodes(), "node records, attached at " + node);
                assertEquals(expected.ports(), actual.ports(), "port records, attached at " + node);
            }
        }
    }

    /** A cache cut into its header, its node records (with their port keys) and its port records. */
    private record Records(byte[] header, byte[] nodes, Set<String> ports) {
        static Records of(byte[] cache) {
            int at = SubnetCacheTest.portsStart(cache);
            Set<String> ports = new HashSet<>();
            for (int p = at; p < cache.length; p += PORT_RECORD) {
                ports.add(HexFormat.of().formatHex(cache, p, p + PORT_RECORD));
            }
            assertEquals(ByteBuffer.wrap(cache).order(ByteOrder.LITTLE_ENDIAN).getInt(12), ports.size(), "distinct port records");
            return new Records(Arrays.copyOf(cache, HEADER), Arrays.copyOfRange(cache, HEADER, at), ports);
        }
    }
}
