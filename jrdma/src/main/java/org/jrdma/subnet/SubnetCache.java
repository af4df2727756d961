package org.jrdma.subnet;

import java.io.IOException;
import java.nio.BufferUnderflowException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.jrdma.iba.Guid;
import org.jrdma.iba.smp.SmpNodeDescription;
import org.jrdma.iba.smp.SmpNodeInfo;
import org.jrdma.iba.smp.SmpPortInfo;
import org.jrdma.iba.smp.SmpSwitchInfo;
import org.jrdma.iba.wire.IbaStruct;
import org.jrdma.iba.wire.MadAttribute;

/**
 * A subnet saved to, and read from, libibnetdisc's fabric cache: the binary file infiniband-diags'
 * {@code ibnetdiscover --cache FILE} writes and {@code --load-cache FILE}/{@code --diff FILE} read
 * (format version 1), so that the C tools and jrdma read each other's caches.
 *
 * <p>The file is little-endian throughout: a 28-byte header (magic {@code 0x8FE7832B}, version,
 * node count, port count, the GUID of the node discovery started from, the most hops discovery
 * went), then one record per node (its port 0 LID and LMC, the enhanced-port-0 flag, the 64-byte
 * SMP data of SwitchInfo, GUID, type, port count, the SMP data of NodeInfo and NodeDescription,
 * and the (port GUID, port number) key of every port discovery read), then one record per port
 * (key, external port number, base LID, LMC, the SMP data of PortInfo, the owning node's GUID, and
 * the key of the port at the other end of its link, if any). Nodes are in libibnetdisc's list
 * order, the reverse of discovery order; {@link #read} gives them back in discovery order.
 *
 * <p>Reading is parsing untrusted bytes: every count is checked against the bytes that follow
 * before anything is allocated for it, and every key must name a record of the file, so a
 * truncated, corrupt or hostile file fails at once with a {@link SubnetCacheException} saying why.
 * A subnet read from a cache has no fabric behind it: its nodes have no {@link Node#target()
 * target}, and its {@link Subnet#attributeSource() attribute source} refuses every read until
 * another is set.
 */
public final class SubnetCache {
    /** libibnetdisc's cache magic number. */
    public static final int MAGIC = 0x8FE7832B;
    /** The only cache format version libibnetdisc writes and reads. */
    public static final int VERSION = 1;
    /** The SMP data size: every attribute is stored in a field this long. */
    private static final int SMP_DATA = 64;
    private static final int HEADER = 28;
    private static final int NODE_RECORD = 15 + 3 * SMP_DATA;
    private static final int PORT_KEY = 9;
    private static final int PORT_RECORD = 31 + SMP_DATA;
    /** The largest file read: what a byte array holds. */
    private static final long MAX_FILE = Integer.MAX_VALUE - 8;

    private SubnetCache() {
    }

    /**
     * Reads the subnet cached in {@code file}.
     *
     * @throws SubnetCacheException if the file cannot be read or does not hold a valid cache
     */
    public static Subnet read(Path file) {
        byte[] bytes;
        try {
            long size = Files.size(file);
            if (size > MAX_FILE) {
                throw new SubnetCacheException(file + ": " + size + " bytes is larger than any cache this reads");
            }
            bytes = Files.readAllBytes(file);
        } catch (NoSuchFileException e) {
            throw new SubnetCacheException(file + ": no such file", e);
        } catch (IOException e) {
            throw new SubnetCacheException(file + ": cannot read: " + e, e);
        }
        try {
            return read(bytes);
        } catch (SubnetCacheException e) {
            throw new SubnetCacheException(file + ": " + e.getMessage(), e);
        }
    }

    /**
     * Reads the subnet cached in {@code cache}, the bytes of a cache file.
     *
     * @throws SubnetCacheException if the bytes are not a valid cache
     */
    public static Subnet read(byte[] cache) {
        ByteBuffer in = ByteBuffer.wrap(cache).order(ByteOrder.LITTLE_ENDIAN);
        try {
            return new Reader(in).subnet();
        } catch (BufferUnderflowException e) {
            throw new SubnetCacheException("truncated at byte " + cache.length, e);
        }
    }

    /**
     * Writes {@code subnet} to {@code file} in the cache format, replacing the file if it exists.
     *
     * @throws SubnetCacheException if the file cannot be written
     */
    public static void write(Subnet subnet, Path file) {
        byte[] bytes = toBytes(subnet);
        try {
            Files.write(file, bytes);
        } catch (IOException e) {
            throw new SubnetCacheException(file + ": cannot write: " + e, e);
        }
    }

    /**
     * The bytes of {@code subnet}'s cache file.
     *
     * @throws IllegalArgumentException if a node has more ports than a record can list (255)
     */
    public static byte[] toBytes(Subnet subnet) {
        List<Node> nodes = subnet.nodes().reversed();
        int ports = nodes.stream().mapToInt(n -> n.ports().size()).sum();
        ByteBuffer out = ByteBuffer.allocate(HEADER + nodes.size() * NODE_RECORD
                + ports * (PORT_KEY + PORT_RECORD)).order(ByteOrder.LITTLE_ENDIAN);
        out.putInt(MAGIC).putInt(VERSION).putInt(nodes.size()).putInt(ports)
                .putLong(subnet.from().guid().value()).putInt(maxHops(subnet));
        for (Node node : nodes) {
            writeNode(out, node);
        }
        for (Node node : nodes) {
            for (Port port : node.ports()) {
                writePort(out, port);
            }
        }
        return Arrays.copyOf(out.array(), out.position());
    }

    private static void writeNode(ByteBuffer out, Node node) {
        List<Port> ports = node.ports();
        if (ports.size() > 255) {
            throw new IllegalArgumentException(node + " has " + ports.size() + " ports: a cache record lists at most 255");
        }
        SmpSwitchInfo switchInfo = node.switchInfo();
        out.putShort((short) node.managementLid()).put((byte) node.managementLmc())
                .put((byte) (switchInfo == null ? 0 : switchInfo.enhancedPort0()));
        putSmpData(out, switchInfo);
        out.putLong(node.guid().value()).put((byte) node.nodeTypeValue()).put((byte) node.numPorts());
        putSmpData(out, node.info());
        putSmpData(out, new SmpNodeDescription().nodeString(node.description()));
        out.put((byte) ports.size());
        for (Port port : ports) {
            out.putLong(port.guid().value()).put((byte) port.number());
        }
    }

    private static void writePort(ByteBuffer out, Port port) {
        Node node = port.node();
        out.putLong(port.guid().value()).put((byte) port.number()).put((byte) 0)
                .putShort((short) port.lid()).put((byte) port.lmc());
        putSmpData(out, port.rawInfo());
        out.putLong(node.guid().value());
        Port remote = port.remote();
        out.put((byte) (remote == null ? 0 : 1)).putLong(remote == null ? 0 : remote.guid().value())
                .put((byte) (remote == null ? 0 : remote.number()));
    }

    /** The attribute's bytes in a zero-padded 64-byte SMP data field; all zeros for null. */
    private static void putSmpData(ByteBuffer out, IbaStruct attribute) {
        byte[] data = attribute == null ? new byte[0] : attribute.toBytes();
        out.put(data).put(new byte[SMP_DATA - data.length]);
    }

    /**
     * libibnetdisc's {@code maxhops_discovered}: the longest directed route its walk from the
     * start node extended, i.e. the hop distance of the farthest node, or one more where a switch
     * at that distance has a link beyond the port it was reached by.
     */
    static int maxHops(Subnet subnet) {
        Map<Node, Integer> hops = new HashMap<>();
        ArrayDeque<Node> queue = new ArrayDeque<>(List.of(subnet.from()));
        hops.put(subnet.from(), 0);
        int max = 0;
        while (!queue.isEmpty()) {
            Node node = queue.poll();
            int here = hops.get(node);
            max = Math.max(max, here);
            for (Port port : node.ports()) {
                if (port.remote() == null || port.number() == 0) {
                    continue;
                }
                if (node.isSwitch() && port.number() != node.info().localPortNum()) {
                    max = Math.max(max, here + 1);
                }
                Node next = port.remote().node();
                if (hops.putIfAbsent(next, here + 1) == null) {
                    queue.add(next);
                }
            }
        }
        return max;
    }

    /** A port's key in the file: its GUID (a switch's ports share one) and number. */
    private record PortKey(long guid, int number) {
        @Override
        public String toString() {
            return "port " + number + " of GUID " + new Guid(guid).toHexString();
        }
    }

    /** A port record before it is placed on its node. */
    private record PortRecord(PortKey key, SmpPortInfo info, long nodeGuid, PortKey remote) {
    }

    /** One pass over a cache's bytes, checking as it goes. */
    private static final class Reader {
        private final ByteBuffer in;
        private final Map<Guid, Node> nodes = new LinkedHashMap<>();
        private final Map<Node, List<PortKey>> portKeys = new HashMap<>();
        private final Map<PortKey, PortRecord> records = new LinkedHashMap<>();

        Reader(ByteBuffer in) {
            this.in = in;
        }

        Subnet subnet() {
            need(HEADER, "the header");
            int magic = in.getInt();
            if (magic != MAGIC) {
                throw new SubnetCacheException(String.format("not a libibnetdisc fabric cache: magic 0x%08X, not 0x%08X", magic, MAGIC));
            }
            int version = in.getInt();
            if (version != VERSION) {
                throw new SubnetCacheException("fabric cache version " + Integer.toUnsignedString(version) + ": only version "
                        + VERSION + " is known");
            }
            long nodeCount = Integer.toUnsignedLong(in.getInt());
            long portCount = Integer.toUnsignedLong(in.getInt());
            Guid fromGuid = new Guid(in.getLong());
            in.getInt(); // the most hops discovery went: recomputed on writing
            long least = nodeCount * NODE_RECORD + portCount * PORT_RECORD;
            if (least > in.remaining()) {
                throw new SubnetCacheException("the header claims " + nodeCount + " nodes and " + portCount + " ports, which take at least "
                        + least + " bytes, but only " + in.remaining() + " follow it");
            }
            for (long i = 0; i < nodeCount; i++) {
                readNode(i);
            }
            for (long i = 0; i < portCount; i++) {
                readPort(i);
            }
            if (in.hasRemaining()) {
                throw new SubnetCacheException(in.remaining() + " bytes follow the last port record");
            }
            placePorts();
            linkPorts();
            Node from = nodes.get(fromGuid);
            if (from == null) {
                throw new SubnetCacheException("the start node " + fromGuid.toHexString() + " has no node record");
            }
            return new Subnet(List.copyOf(nodes.values()).reversed(), from, CACHED);
        }

        private void readNode(long index) {
            need(NODE_RECORD, "node record " + index);
            in.position(in.position() + 4); // port 0 LID, LMC, enhanced port 0: read again from PortInfo and SwitchInfo
            byte[] switchData = smpData();
            Guid guid = new Guid(in.getLong());
            int type = Byte.toUnsignedInt(in.get());
            int numPorts = Byte.toUnsignedInt(in.get());
            SmpNodeInfo info = SmpNodeInfo.decode(smpData(), 0);
            String description = SmpNodeDescription.decode(smpData(), 0).nodeString();
            int stored = Byte.toUnsignedInt(in.get());
            String what = "node record " + index + " (GUID " + guid.toHexString() + ")";
            if (type < 1 || type > 3) {
                throw new SubnetCacheException(what + " has node type " + type + ", not 1 (CA), 2 (switch) or 3 (router)");
            }
            if (!info.nodeGuid().equals(guid) || info.nodeType() != type || info.numPorts() != numPorts) {
                throw new SubnetCacheException(what + " disagrees with its NodeInfo (GUID " + info.nodeGuid().toHexString()
                        + ", type " + info.nodeType() + ", " + info.numPorts() + " ports)");
            }
            need((long) stored * PORT_KEY, "the " + stored + " port keys of " + what);
            List<PortKey> keys = new ArrayList<>(stored);
            for (int i = 0; i < stored; i++) {
                keys.add(new PortKey(in.getLong(), Byte.toUnsignedInt(in.get())));
            }
            Node node = new Node(info, description, null, type == 2 ? SmpSwitchInfo.decode(switchData, 0) : null);
            if (nodes.putIfAbsent(guid, node) != null) {
                throw new SubnetCacheException(what + ": a node with this GUID came before");
            }
            portKeys.put(node, keys);
        }

        private void readPort(long index) {
            need(PORT_RECORD, "port record " + index);
            PortKey key = new PortKey(in.getLong(), Byte.toUnsignedInt(in.get()));
            in.position(in.position() + 4); // external port number, base LID, LMC: read again from PortInfo
            SmpPortInfo info = SmpPortInfo.decode(smpData(), 0);
            long nodeGuid = in.getLong();
            boolean linked = in.get() != 0;
            PortKey remote = new PortKey(in.getLong(), Byte.toUnsignedInt(in.get()));
            if (records.putIfAbsent(key, new PortRecord(key, info, nodeGuid, linked ? remote : null)) != null) {
                throw new SubnetCacheException("port record " + index + ": " + key + " came before");
            }
        }

        /** Puts every port record on the node that lists its key, checking that it is that node's and fits. */
        private void placePorts() {
            Map<PortKey, Node> placed = new HashMap<>();
            for (Node node : nodes.values()) {
                for (PortKey key : portKeys.get(node)) {
                    PortRecord record = records.get(key);
                    if (record == null) {
                        throw new SubnetCacheException(node + " lists " + key + ", which has no port record");
                    }
                    if (record.nodeGuid() != node.guid().value()) {
                        throw new SubnetCacheException(node + " lists " + key + ", whose record says node " + new Guid(record.nodeGuid()).toHexString());
                    }
                    if (key.number() > node.numPorts()) {
                        throw new SubnetCacheException(node + " lists " + key + " but has only " + node.numPorts() + " ports");
                    }
                    if (placed.putIfAbsent(key, node) != null || node.port(key.number()) != null) {
                        throw new SubnetCacheException(node + " lists port " + key.number() + " twice");
                    }
                    node.addPort(new Port(node, key.number(), new Guid(key.guid()), record.info()));
                }
            }
            for (PortRecord record : records.values()) {
                if (!placed.containsKey(record.key())) {
                    throw new SubnetCacheException(record.key() + " has a record but no node record lists it");
                }
            }
        }

        /** Links every port whose record names a remote port, checking that the remote's record names it back. */
        private void linkPorts() {
            for (PortRecord record : records.values()) {
                PortKey remote = record.remote();
                if (remote == null) {
                    continue;
                }
                PortRecord other = records.get(remote);
                if (other == null) {
                    throw new SubnetCacheException(record.key() + " links to " + remote + ", which has no port record");
                }
                if (!record.key().equals(other.remote())) {
                    throw new SubnetCacheException(record.key() + " links to " + remote + ", which links to "
                            + (other.remote() == null ? "nothing" : other.remote()));
                }
                port(record).linkTo(port(other));
            }
        }

        private Port port(PortRecord record) {
            return nodes.get(new Guid(record.nodeGuid())).port(record.key().number());
        }

        private byte[] smpData() {
            byte[] data = new byte[SMP_DATA];
            in.get(data);
            return data;
        }

        private void need(long bytes, String what) {
            if (bytes > in.remaining()) {
                throw new SubnetCacheException("truncated: " + what + " needs " + bytes + " bytes at offset " + in.position() + ", but only "
                        + in.remaining() + " remain");
            }
        }
    }

    /** The attribute source of a subnet read from a cache: there is no fabric to read from. */
    private static final AttributeSource CACHED = new AttributeSource() {
        @Override
        public <T extends IbaStruct & MadAttribute> T get(T attribute, Node node, long attributeModifier) {
            throw new IllegalStateException(node + " was read from a fabric cache: there is no fabric to read "
                    + attribute.ibaName() + " from (set an attribute source on the subnet first)");
        }

        @Override
        public int window() {
            return 1;
        }
    };
}
