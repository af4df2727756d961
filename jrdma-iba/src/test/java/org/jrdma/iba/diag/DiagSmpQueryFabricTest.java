package org.jrdma.iba.diag;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.jrdma.iba.NodeType;
import org.jrdma.iba.smp.SmpGuidInfo;
import org.jrdma.iba.smp.SmpNodeDescription;
import org.jrdma.iba.smp.SmpNodeInfo;
import org.jrdma.iba.smp.SmpPKeyTable;
import org.jrdma.iba.smp.SmpPortInfo;
import org.jrdma.iba.smp.SmpSlToVlMappingTable;
import org.jrdma.iba.smp.SmpSwitchInfo;
import org.jrdma.iba.smp.SmpVlArbitrationTable;
import org.jrdma.testkit.fabric.Fabric;
import org.jrdma.testkit.fabric.ToolResult;
import org.jrdma.testkit.junit.SimulatedFabric;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

/**
 * Golden tests against the real {@code smpquery} on a simulated fabric: for every node (by LID,
 * and some by directed route) and every port, the attribute bytes come from {@code smpdump},
 * are decoded with the generated class and printed with {@link SmpQuery}; the text must be what
 * {@code smpquery} prints for the same node and port, header line included, byte for byte.
 */
@SimulatedFabric(topology = "two-switch")
class DiagSmpQueryFabricTest {
    static final int NODE_DESCRIPTION = 0x10;
    static final int NODE_INFO = 0x11;
    static final int SWITCH_INFO = 0x12;
    static final int GUID_INFO = 0x14;
    static final int PORT_INFO = 0x15;
    static final int P_KEY_TABLE = 0x16;
    static final int SL_TO_VL = 0x17;
    static final int VL_ARBITRATION = 0x18;

    /** A node as the tools address it: by LID or by directed route, with its NodeInfo. */
    record Node(boolean directed, String address, SmpNodeInfo info) {
        PortId portId() {
            return directed ? PortId.directRoute(address) : PortId.lid(Integer.parseInt(address));
        }

        boolean isSwitch() {
            return info.nodeType() == NodeType.SWITCH.value();
        }

        /** The ports smpquery can be asked about: 0 to NumPorts on a switch, 1 to NumPorts on a CA. */
        List<Integer> ports() {
            List<Integer> ports = new ArrayList<>();
            for (int p = isSwitch() ? 0 : 1; p <= info.numPorts(); p++) {
                ports.add(p);
            }
            return ports;
        }

        @Override
        public String toString() {
            return (directed ? "DR " : "LID ") + address;
        }
    }

    /** Every LID OpenSM assigned (1 up to the first two that do not answer), and four directed routes. */
    static List<Node> nodes(Fabric fabric) {
        return NODES.computeIfAbsent(fabric.socketName(), name -> discover(fabric));
    }

    private static final java.util.Map<String, List<Node>> NODES = new java.util.concurrent.ConcurrentHashMap<>();

    private static List<Node> discover(Fabric fabric) {
        List<Node> nodes = new ArrayList<>();
        int misses = 0;
        for (int lid = 1; misses < 2 && lid < 64; lid++) {
            // 1 s per probe: with 200 ms, a LID that answered late on a loaded machine was taken for
            // the end of the LIDs and the list came out short
            if (!fabric.run("smpquery", "-t", "1000", "nodeinfo", Integer.toString(lid)).succeeded()) {
                misses++;
                continue;
            }
            nodes.add(node(fabric, false, Integer.toString(lid)));
        }
        assertTrue(nodes.size() >= 6, "the two-switch fabric has 6 LIDs, found " + nodes.size());
        for (String route : List.of("0", "0,1", "0,7", "0,7,2")) {
            nodes.add(node(fabric, true, route));
        }
        return List.copyOf(nodes);
    }

    static Node node(Fabric fabric, boolean directed, String address) {
        return new Node(directed, address, SmpNodeInfo.decode(DiagDumps.smpdump(fabric, directed, address, NODE_INFO, 0), 0));
    }

    /** {@code smpquery [-D] [flags] <op> <address> [args]}'s standard output. */
    static String smpquery(Fabric fabric, Node node, String op, Object... args) {
        List<String> command = new ArrayList<>(List.of("smpquery"));
        if (node.directed()) {
            command.add("-D");
        }
        command.add(op);
        command.add(node.address());
        for (Object a : args) {
            command.add(a.toString());
        }
        ToolResult r = fabric.run(command.toArray(String[]::new)).orThrow();
        return r.stdout();
    }

    /** smpdump's bytes, each (node, attribute, modifier) read once: the simulated attributes are static. */
    static byte[] smpdump(Fabric fabric, Node node, int attribute, int modifier) {
        String key = fabric.socketName() + " " + node.directed() + " " + node.address() + " " + attribute + " " + modifier;
        return DUMPS.computeIfAbsent(key, k -> DiagDumps.smpdump(fabric, node.directed(), node.address(), attribute, modifier))
                .clone();
    }

    private static final java.util.Map<String, byte[]> DUMPS = new java.util.concurrent.ConcurrentHashMap<>();

    /** Nodes for the table operations, which read many blocks each: those given by LID. */
    static List<Node> lidNodes(Fabric fabric) {
        return nodes(fabric).stream().filter(n -> !n.directed()).toList();
    }

    /** A node given by directed route, for the header lines of the table operations. */
    static Node directedNode(Fabric fabric, String route) {
        return nodes(fabric).stream().filter(n -> n.directed() && n.address().equals(route)).findFirst().orElseThrow();
    }

    @TestFactory
    Stream<DynamicTest> nodeInfo(Fabric fabric) {
        return DiagGolden.run(nodes(fabric).stream().map(n -> new DiagGolden.Case("nodeinfo " + n,
                () -> smpquery(fabric, n, "nodeinfo"),
                () -> SmpQuery.nodeInfo(n.portId(), SmpNodeInfo.decode(smpdump(fabric, n, NODE_INFO, 0), 0)))).toList());
    }

    @TestFactory
    Stream<DynamicTest> nodeDescription(Fabric fabric) {
        return DiagGolden.run(nodes(fabric).stream().map(n -> new DiagGolden.Case("nodedesc " + n,
                () -> smpquery(fabric, n, "nodedesc"),
                () -> SmpQuery.nodeDescription(SmpNodeDescription.decode(smpdump(fabric, n, NODE_DESCRIPTION, 0), 0))))
                .toList());
    }

    @TestFactory
    Stream<DynamicTest> portInfo(Fabric fabric) {
        List<DiagGolden.Case> cases = new ArrayList<>();
        for (Node n : nodes(fabric)) {
            for (int port : n.ports()) {
                cases.add(new DiagGolden.Case("portinfo " + n + " port " + port,
                        () -> smpquery(fabric, n, "portinfo", port),
                        () -> SmpQuery.portInfo(n.portId(), port, SmpPortInfo.decode(smpdump(fabric, n, PORT_INFO, port), 0),
                                DiagOptions.defaults())));
            }
            cases.add(new DiagGolden.Case("portinfo -K (keys shown) " + n + " port 1",
                    () -> {
                        List<String> command = new ArrayList<>(List.of("smpquery", "-K"));
                        if (n.directed()) {
                            command.add("-D");
                        }
                        command.addAll(List.of("portinfo", n.address(), "1"));
                        String out = fabric.run(command.toArray(String[]::new)).orThrow().stdout();
                        assertFalse(out.contains(Formats.NOT_DISPLAYED), out);
                        return out;
                    },
                    () -> SmpQuery.portInfo(n.portId(), 1, SmpPortInfo.decode(smpdump(fabric, n, PORT_INFO, 1), 0),
                            DiagOptions.defaults().withShowKeys(true))));
        }
        return DiagGolden.run(cases);
    }

    @TestFactory
    Stream<DynamicTest> switchInfo(Fabric fabric) {
        return DiagGolden.run(nodes(fabric).stream().filter(Node::isSwitch).map(n -> new DiagGolden.Case("switchinfo " + n,
                () -> smpquery(fabric, n, "switchinfo"),
                () -> SmpQuery.switchInfo(n.portId(), SmpSwitchInfo.decode(smpdump(fabric, n, SWITCH_INFO, 0), 0)))).toList());
    }

    @TestFactory
    Stream<DynamicTest> pKeys(Fabric fabric) {
        List<DiagGolden.Case> cases = new ArrayList<>();
        for (Node n : lidNodes(fabric)) {
            for (int port : n.ports()) {
                cases.add(new DiagGolden.Case("pkeys " + n + " port " + port, () -> smpquery(fabric, n, "pkeys", port), () -> {
                    // smpquery's rule: a switch's external ports hold PartitionEnforcementCap P_Keys.
                    int capacity = n.isSwitch() && port != 0
                            ? SmpSwitchInfo.decode(smpdump(fabric, n, SWITCH_INFO, 0), 0).partitionEnforcementCap()
                            : n.info().partitionCap();
                    List<SmpPKeyTable> blocks = new ArrayList<>();
                    for (int i = 0; i < SmpQuery.pKeyBlocks(capacity); i++) {
                        blocks.add(SmpPKeyTable.decode(smpdump(fabric, n, P_KEY_TABLE, i | port << 16), 0));
                    }
                    return SmpQuery.pKeys(blocks, capacity);
                }));
            }
        }
        return DiagGolden.run(cases);
    }

    @TestFactory
    Stream<DynamicTest> guids(Fabric fabric) {
        return DiagGolden.run(lidNodes(fabric).stream().map(n -> new DiagGolden.Case("GI " + n,
                () -> smpquery(fabric, n, "GI"), () -> {
                    int capacity = SmpPortInfo.decode(smpdump(fabric, n, PORT_INFO, 0), 0).guidCap();
                    List<SmpGuidInfo> blocks = new ArrayList<>();
                    for (int i = 0; i < SmpQuery.guidBlocks(capacity); i++) {
                        blocks.add(SmpGuidInfo.decode(smpdump(fabric, n, GUID_INFO, i), 0));
                    }
                    return SmpQuery.guids(blocks, capacity);
                })).toList());
    }

    /**
     * sl2vl on a switch reads a table per input port; two output ports a switch (0 and an
     * inter-switch port) keep it short. The local switch by directed route checks the header.
     */
    @TestFactory
    Stream<DynamicTest> slToVl(Fabric fabric) {
        List<DiagGolden.Case> cases = new ArrayList<>();
        List<Node> nodes = new ArrayList<>(lidNodes(fabric));
        nodes.add(directedNode(fabric, "0"));
        for (Node n : nodes) {
            for (int out : n.isSwitch() ? (n.directed() ? List.of(0) : List.of(0, 7)) : List.of(1)) {
                cases.add(new DiagGolden.Case("sl2vl " + n + " port " + out, () -> smpquery(fabric, n, "sl2vl", out), () -> {
                    List<SmpQuery.SlToVlRow> rows = new ArrayList<>();
                    if (n.isSwitch()) {
                        for (int in = 0; in <= n.info().numPorts(); in++) {
                            rows.add(new SmpQuery.SlToVlRow(in, out,
                                    SmpSlToVlMappingTable.decode(smpdump(fabric, n, SL_TO_VL, in << 8 | out), 0)));
                        }
                    } else {
                        rows.add(new SmpQuery.SlToVlRow(0, 0, SmpSlToVlMappingTable.decode(smpdump(fabric, n, SL_TO_VL, 0), 0)));
                    }
                    return SmpQuery.slToVl(n.portId(), rows);
                }));
            }
        }
        return DiagGolden.run(cases);
    }

    @TestFactory
    Stream<DynamicTest> vlArbitration(Fabric fabric) {
        List<DiagGolden.Case> cases = new ArrayList<>();
        List<Node> nodes = new ArrayList<>(lidNodes(fabric));
        nodes.add(directedNode(fabric, "0,1"));
        for (Node n : nodes) {
            for (int port : n.directed() ? List.of(1) : n.ports()) {
                cases.add(new DiagGolden.Case("vlarb " + n + " port " + port, () -> smpquery(fabric, n, "vlarb", port), () -> {
                    if (n.isSwitch() && port == 0
                            && SmpSwitchInfo.decode(smpdump(fabric, n, SWITCH_INFO, 0), 0).enhancedPort0() == 0) {
                        return SmpQuery.noVlArbitration(n.portId());
                    }
                    SmpPortInfo info = SmpPortInfo.decode(smpdump(fabric, n, PORT_INFO, port), 0);
                    int low = info.vlArbitrationLowCap();
                    int high = info.vlArbitrationHighCap();
                    return SmpQuery.vlArbitration(n.portId(), port, low, high,
                            vlArbitrationBlocks(fabric, n, port, 1, low), vlArbitrationBlocks(fabric, n, port, 3, high));
                }));
            }
        }
        return DiagGolden.run(cases);
    }

    private static List<SmpVlArbitrationTable> vlArbitrationBlocks(Fabric fabric, Node n, int port, int firstPart, int cap) {
        List<SmpVlArbitrationTable> blocks = new ArrayList<>();
        for (int i = 0; i < SmpQuery.vlArbitrationBlocks(cap); i++) {
            blocks.add(SmpVlArbitrationTable.decode(smpdump(fabric, n, VL_ARBITRATION, (firstPart + i) << 16 | port), 0));
        }
        return blocks;
    }
}
