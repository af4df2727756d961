package org.jrdma.subnet;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Path;
import java.time.ZonedDateTime;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.IntRange;
import org.jrdma.iba.Guid;
import org.jrdma.iba.smp.SmpNodeInfo;
import org.jrdma.iba.smp.SmpPortInfo;
import org.jrdma.iba.smp.SmpSwitchInfo;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link SubnetCache} without a fabric: a subnet written and read back is the same subnet, and
 * cache bytes are untrusted input, so truncated, corrupted or hostile bytes fail with a
 * {@link SubnetCacheException} that says why, never another exception and never a large
 * allocation. (Compatibility with the C tool's files is tested against infiniband-diags'
 * ibnetdiscover in jrdma-tools' IbnetdiscoverCacheTest.)
 */
class SubnetCacheTest {
    private static final ZonedDateTime WHEN = ZonedDateTime.parse("2026-01-02T03:04:05Z");
    private static final int HEADER = 28;
    private static final int NODE_RECORD = 207;

    /**
     * Two 8-port switches joined by ports 7, a CA on port 1 of each and an unlinked port 2 on the
     * first, discovered from the first switch: switches GUID 0x..a01/a02, CAs 0x..1010/1020.
     */
    static Subnet twoSwitches() {
        Node sw1 = node(2, 0xa01, 0xa01, 8, "sw1", 0);
        Node sw2 = node(2, 0xa02, 0xa02, 8, "sw2", 7);
        Node ca1 = node(1, 0x1010, 0x1011, 2, "node01 HCA-1", 1);
        Node ca2 = node(1, 0x1020, 0x1021, 2, "node02 HCA-1", 1);
        port(sw1, 0, 1);
        port(sw2, 0, 2);
        port(sw1, 2, 0);
        port(sw1, 1, 0).linkTo(port(ca1, 1, 3));
        port(sw1, 7, 0).linkTo(port(sw2, 7, 0));
        port(sw2, 1, 0).linkTo(port(ca2, 1, 4));
        return new Subnet(List.of(sw1, sw2, ca1, ca2), sw1, AttributeSource.smp(null));
    }

    private static Node node(int type, long guid, long portGuid, int ports, String description, int arrival) {
        SmpNodeInfo info = new SmpNodeInfo().baseVersion(1).classVersion(1).nodeType(type).numPorts(ports)
                .systemImageGuid(new Guid(guid)).nodeGuid(new Guid(guid)).portGuid(new Guid(portGuid)).localPortNum(arrival)
                .vendorId(0x2c9).deviceId(0xb924);
        return new Node(info, description, null, type == 2 ? new SmpSwitchInfo().enhancedPort0(1) : null);
    }

    private static Port port(Node node, int number, int lid) {
        SmpPortInfo info = new SmpPortInfo().lid(lid).lmc(0).localPortNum(number).linkWidthActive(2).linkSpeedActive(1)
                .portState(4).portPhysicalState(5);
        Port port = new Port(node, number, node.info().portGuid().value() == node.guid().value() ? node.guid()
                : new Guid(node.guid().value() + number), info);
        node.addPort(port);
        return port;
    }

    @Test
    void aSubnetReadBackPrintsAndCachesTheSame() {
        Subnet subnet = twoSwitches();
        byte[] bytes = SubnetCache.toBytes(subnet);
        Subnet back = SubnetCache.read(bytes);

        assertEquals(TopologyWriter.write(subnet, WHEN), TopologyWriter.write(back, WHEN));
        assertArrayEquals(bytes, SubnetCache.toBytes(back));
        assertEquals("", SubnetDiff.write(subnet, back, Set.of(SubnetDiff.Check.values())));
        assertEquals(subnet.nodes().stream().map(Node::guid).toList(), back.nodes().stream().map(Node::guid).toList());
        assertEquals(3, back.linkCount());
        assertNull(back.from().target(), "a cached node has no target");
        assertThrows(IllegalStateException.class, () -> back.switches().getFirst().linearForwardingTable());
    }

    @Test
    void theHeaderIsLibibnetdiscs() {
        ByteBuffer header = ByteBuffer.wrap(SubnetCache.toBytes(twoSwitches())).order(ByteOrder.LITTLE_ENDIAN);
        assertEquals(0x8FE7832B, header.getInt());
        assertEquals(1, header.getInt());
        assertEquals(4, header.getInt(), "nodes");
        assertEquals(2 + 6 + 1, header.getInt(), "ports: two port 0s, three links' six ends, one unlinked");
        assertEquals(0xa01, header.getLong(), "the start node");
        assertEquals(2, header.getInt(), "sw1 -> sw2 -> ca2: two hops");
        assertEquals(0x1020, header.getLong(HEADER + 4 + 64), "libibnetdisc's order: the last node discovered comes first");
    }

    @Test
    void writesAndReadsFiles(@TempDir Path dir) {
        Path file = dir.resolve("fabric.cache");
        SubnetCache.write(twoSwitches(), file);
        assertEquals(TopologyWriter.write(twoSwitches(), WHEN), TopologyWriter.write(SubnetCache.read(file), WHEN));

        SubnetCacheException missing = assertThrows(SubnetCacheException.class, () -> SubnetCache.read(dir.resolve("none")));
        assertTrue(missing.getMessage().endsWith("none: no such file"), missing.getMessage());
        SubnetCacheException unwritable = assertThrows(SubnetCacheException.class,
                () -> SubnetCache.write(twoSwitches(), dir.resolve("no/such/dir/f")));
        assertTrue(unwritable.getMessage().contains("cannot write"), unwritable.getMessage());
    }

    @Test
    void badBytesSayWhatIsWrong() {
        byte[] good = SubnetCache.toBytes(twoSwitches());
        assertFails(new byte[0], "truncated: the header needs 28 bytes");
        assertFails(with(good, 0, 0x12345678), "not a libibnetdisc fabric cache: magic 0x12345678");
        assertFails(with(good, 4, 2), "fabric cache version 2");
        assertFails(with(good, 8, -1), "the header claims 4294967295 nodes");
        assertFails(with(good, 12, 0x7fff_ffff), "2147483647 ports");
        assertFails(Arrays.copyOf(good, good.length - 1), "but only");
        assertFails(Arrays.copyOf(good, good.length + 3), "3 bytes follow the last port record");
        assertFails(with(good, 16, 0x999), "the start node 0x0000000000000999 has no node record");
        assertFails(withByte(good, HEADER + 4 + 64 + 8, 7), "has node type 7");
        assertFails(withByte(good, HEADER + 4 + 64 + 9, 9), "disagrees with its NodeInfo");
    }

    @Test
    void recordsMustNameEachOther() {
        byte[] good = SubnetCache.toBytes(twoSwitches());
        int firstKey = HEADER + NODE_RECORD;
        // ca2 (first record) lists port 1 of 0x1021: point it at a port number no record has.
        assertFails(withByte(good, firstKey + 8, 2), "lists port 2 of GUID 0x0000000000001021, which has no port record");
        int portsStart = portsStart(good);
        // The first port record's node GUID, then its remote port's number.
        assertFails(with(good, portsStart + 13 + 64, 0x77), "whose record says node 0x0000000000000077");
        assertFails(withByte(good, portsStart + 13 + 64 + 8 + 1 + 8, 3), "links to port 3 of GUID");
    }

    /** Where the port records of a cache start: after the header and every node record with its port keys. */
    static int portsStart(byte[] cache) {
        ByteBuffer in = ByteBuffer.wrap(cache).order(ByteOrder.LITTLE_ENDIAN);
        int at = HEADER;
        for (int i = 0; i < in.getInt(8); i++) {
            at += NODE_RECORD + 9 * Byte.toUnsignedInt(cache[at + NODE_RECORD - 1]);
        }
        return at;
    }

    /** Any change of any bytes, and any cut: the reader accepts the bytes or says why not, and throws nothing else. */
    @Property(tries = 3000)
    void corruptedCachesFailCleanly(@ForAll("changes") List<int[]> changes, @ForAll @IntRange(min = 0, max = 2000) int cut) {
        byte[] bytes = SubnetCache.toBytes(twoSwitches());
        for (int[] change : changes) {
            bytes[change[0] % bytes.length] = (byte) change[1];
        }
        if (cut < bytes.length) {
            bytes = Arrays.copyOf(bytes, bytes.length - cut);
        }
        readOrExplain(bytes);
    }

    /** Random bytes after a valid magic and version, with counts up to 2^32 - 1: no allocation follows the counts. */
    @Property(tries = 1000)
    void hostileHeadersFailCleanly(@ForAll int nodes, @ForAll int ports, @ForAll("tails") byte[] tail) {
        ByteBuffer cache = ByteBuffer.allocate(HEADER + tail.length).order(ByteOrder.LITTLE_ENDIAN);
        cache.putInt(SubnetCache.MAGIC).putInt(SubnetCache.VERSION).putInt(nodes).putInt(ports).putLong(0xa01).putInt(0).put(tail);
        readOrExplain(cache.array());
    }

    @Provide
    Arbitrary<List<int[]>> changes() {
        return Arbitraries.integers().between(0, Integer.MAX_VALUE).array(int[].class).ofSize(2)
                .map(c -> new int[] {c[0], c[1] & 0xff}).list().ofMaxSize(6);
    }

    @Provide
    Arbitrary<byte[]> tails() {
        return Arbitraries.bytes().array(byte[].class).ofMaxSize(3 * NODE_RECORD);
    }

    private static void readOrExplain(byte[] bytes) {
        try {
            Subnet subnet = SubnetCache.read(bytes);
            TopologyWriter.write(subnet, WHEN);
            SubnetCache.toBytes(subnet);
        } catch (SubnetCacheException e) {
            assertTrue(e.getMessage() != null && !e.getMessage().isBlank());
        }
    }

    private static void assertFails(byte[] bytes, String says) {
        SubnetCacheException e = assertThrows(SubnetCacheException.class, () -> SubnetCache.read(bytes));
        assertTrue(e.getMessage().contains(says), e.getMessage());
    }

    private static byte[] with(byte[] bytes, int at, int value) {
        byte[] copy = bytes.clone();
        ByteBuffer.wrap(copy).order(ByteOrder.LITTLE_ENDIAN).putInt(at, value);
        return copy;
    }

    private static byte[] withByte(byte[] bytes, int at, int value) {
        byte[] copy = bytes.clone();
        copy[at] = (byte) value;
        return copy;
    }
}
