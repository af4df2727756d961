package org.jrdma.tools.cache;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The records of a libibnetdisc cache file (already validated by
 * {@link org.jrdma.subnet.SubnetCache#read(byte[])}), edited in place: node GUIDs, port GUIDs
 * and the SystemImageGUID of NodeInfo, as libibnetdisc would write them back after ibcacheedit
 * changed them in memory. A port is known in the file by its key, (port GUID, port number): in
 * its node's record, in its own record, and in the record of the port at the other end of its
 * link; a node by its GUID: in its record, in its ports' records and in the header when discovery
 * started from it. Changing a GUID rewrites every such reference, so the file stays the one
 * libibnetdisc writes for the edited fabric (a cache loaded and written again by libibnetdisc is
 * byte for byte the same).
 */
final class CacheRecords {
    private static final int HEADER_FROM_GUID = 16;
    private static final int HEADER = 28;
    private static final int SMP_DATA = 64;
    /** Node record: LID(2) LMC(1) enhanced port 0(1) SwitchInfo(64) GUID(8) type(1) ports(1) NodeInfo(64) NodeDescription(64) keys(1 + 9 each). */
    private static final int NODE_GUID = 68;
    private static final int NODE_TYPE = 76;
    private static final int NODE_INFO = 78;
    private static final int NODE_KEY_COUNT = 206;
    private static final int PORT_KEY = 9;
    /** Port record: key(9) external port(1) LID(2) LMC(1) PortInfo(64) node GUID(8) linked(1) remote key(9). */
    private static final int PORT_RECORD = 95;
    private static final int PORT_NODE_GUID = 77;
    private static final int PORT_REMOTE_KEY = 86;
    /** NodeInfo's SystemImageGUID: bytes 4..11 of the attribute, big-endian. */
    private static final int SYSTEM_IMAGE_GUID = 4;

    /** libibnetdisc's node types. */
    static final int CHANNEL_ADAPTER = 1;
    static final int SWITCH = 2;

    private final ByteBuffer bytes;
    private final List<Integer> nodes = new ArrayList<>();
    private final List<Integer> ports = new ArrayList<>();

    CacheRecords(byte[] file) {
        bytes = ByteBuffer.wrap(file).order(ByteOrder.LITTLE_ENDIAN);
        int nodeCount = bytes.getInt(8);
        int portCount = bytes.getInt(12);
        int at = HEADER;
        for (int i = 0; i < nodeCount; i++) {
            nodes.add(at);
            at += NODE_KEY_COUNT + 1 + PORT_KEY * (bytes.get(at + NODE_KEY_COUNT) & 0xFF);
        }
        for (int i = 0; i < portCount; i++) {
            ports.add(at);
            at += PORT_RECORD;
        }
    }

    /** The file's bytes, as edited. */
    byte[] bytes() {
        return bytes.array();
    }

    /** The nodes, as offsets of their records, in the file's order (libibnetdisc's list order). */
    List<Integer> nodes() {
        return nodes;
    }

    int type(int node) {
        return bytes.get(node + NODE_TYPE) & 0xFF;
    }

    long guid(int node) {
        return bytes.getLong(node + NODE_GUID);
    }

    long systemImageGuid(int node) {
        return bytes.duplicate().order(ByteOrder.BIG_ENDIAN).getLong(node + NODE_INFO + SYSTEM_IMAGE_GUID);
    }

    void systemImageGuid(int node, long guid) {
        bytes.duplicate().order(ByteOrder.BIG_ENDIAN).putLong(node + NODE_INFO + SYSTEM_IMAGE_GUID, guid);
    }

    /** The offsets of the port keys a node record lists, by port number. */
    Map<Integer, Integer> portKeys(int node) {
        Map<Integer, Integer> keys = new HashMap<>();
        int count = bytes.get(node + NODE_KEY_COUNT) & 0xFF;
        for (int k = 0; k < count; k++) {
            int key = node + NODE_KEY_COUNT + 1 + PORT_KEY * k;
            keys.put(bytes.get(key + 8) & 0xFF, key);
        }
        return keys;
    }

    /** A port key's GUID. */
    long keyGuid(int key) {
        return bytes.getLong(key);
    }

    /** Changes a node's GUID wherever the file names the node. */
    void nodeGuid(int node, long guid) {
        long old = guid(node);
        if (bytes.getLong(HEADER_FROM_GUID) == old) {
            bytes.putLong(HEADER_FROM_GUID, guid);
        }
        bytes.putLong(node + NODE_GUID, guid);
        for (int port : ports) {
            if (bytes.getLong(port + PORT_NODE_GUID) == old) {
                bytes.putLong(port + PORT_NODE_GUID, guid);
            }
        }
    }

    /** Changes the GUID of the port whose key is at {@code key} wherever the file names the port. */
    void portGuid(int key, long guid) {
        long old = bytes.getLong(key);
        byte number = bytes.get(key + 8);
        List<Integer> references = new ArrayList<>();
        for (int node : nodes) {
            references.addAll(portKeys(node).values());
        }
        for (int port : ports) {
            references.add(port);
            if (bytes.get(port + PORT_REMOTE_KEY - 1) != 0) {
                references.add(port + PORT_REMOTE_KEY);
            }
        }
        for (int reference : references) {
            if (bytes.getLong(reference) == old && bytes.get(reference + 8) == number) {
                bytes.putLong(reference, guid);
            }
        }
    }
}
