package org.jrdma.mad;

import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;
import org.jrdma.iba.Lid;
import org.jrdma.iba.Mad;
import org.jrdma.iba.NodeType;
import org.jrdma.iba.sa.SaGuidInfoRecord;
import org.jrdma.iba.sa.SaLinearForwardingTableRecord;
import org.jrdma.iba.sa.SaLinkRecord;
import org.jrdma.iba.sa.SaMulticastForwardingTableRecord;
import org.jrdma.iba.sa.SaNodeRecord;
import org.jrdma.iba.sa.SaPKeyTableRecord;
import org.jrdma.iba.sa.SaPortInfoRecord;
import org.jrdma.iba.sa.SaSlToVlMappingTableRecord;
import org.jrdma.iba.sa.SaSmInfoRecord;
import org.jrdma.iba.sa.SaSwitchInfoRecord;
import org.jrdma.iba.sa.SaVlArbitrationTableRecord;
import org.jrdma.iba.smp.SmpGuidInfo;
import org.jrdma.iba.smp.SmpLinearForwardingTable;
import org.jrdma.iba.smp.SmpMulticastForwardingTable;
import org.jrdma.iba.smp.SmpNodeDescription;
import org.jrdma.iba.smp.SmpNodeInfo;
import org.jrdma.iba.smp.SmpPKeyTable;
import org.jrdma.iba.smp.SmpPortInfo;
import org.jrdma.iba.smp.SmpSlToVlMappingTable;
import org.jrdma.iba.smp.SmpSmInfo;
import org.jrdma.iba.smp.SmpSwitchInfo;
import org.jrdma.iba.smp.SmpVlArbitrationTable;
import org.jrdma.iba.wire.IbaStruct;
import org.jrdma.iba.wire.MadAttribute;
import org.jrdma.path.IBDRPath;
import org.jrdma.path.IBPath;

/**
 * A {@link MadTransactor} that answers SubnGet from the subnet administrator, python-rdma's
 * {@code rdma.satransactor.SATransactor}: a SubnGet of NodeInfo, NodeDescription, PortInfo,
 * SwitchInfo, GUIDInfo, P_KeyTable, SLtoVLMappingTable, VLArbitrationTable, the linear and
 * multicast forwarding tables or SMInfo becomes a SubnAdmGet of the record that holds it (IBA
 * 15.2.5), its components set from the path's LID and the AttributeModifier as the attribute's
 * modifier lays them out, and the attribute is taken out of the record. Every other RPC, and
 * SubnGet of other attributes, goes as before. IBA lets a subnet deny SubnGet without the M_Key;
 * the SA answers all the same.
 *
 * <p>The SA knows ports by LID: a directed-route path is resolved to the LID at its end by
 * following LinkRecords from the local port (or from its DrDLID or DLID, when set), once per
 * path. As in python-rdma, SubnGet of PortInfo with modifier 0 means port 0 of a switch but the
 * port itself on a CA, so unless the node is known to be a switch (from an earlier NodeInfo or
 * NodeDescription of that LID) it asks for the table of the LID's PortInfoRecords and takes port
 * 0's or else the first; and where OpenSM answers No Records for a table block it does not
 * program (forwarding, P_Key, SL-to-VL and VL arbitration tables), the attribute comes back zero.
 *
 * <p>As in python-rdma it wraps its parent: {@link #close} closes the parent (which closes its
 * engine if it owns one, {@link MadTransactor#open}).
 */
public final class SaTransactor extends MadTransactor {
    private final Map<IBDRPath, Integer> routeLids = new ConcurrentHashMap<>();
    private final Map<Integer, Integer> nodeTypes = new ConcurrentHashMap<>();
    private final MadTransactor parent;

    /** A transactor sending through {@code parent}'s engine, from its end port (which it needs, for the SA path). */
    public SaTransactor(MadTransactor parent) {
        super(parent);
        this.parent = parent;
        if (parent.endPort().isEmpty()) {
            throw new IllegalArgumentException("an SaTransactor needs the end port, for the path to its SA");
        }
    }

    /** One SubnAdmGet standing in for a SubnGet: the record to ask for, its components, and the attribute's place in it. */
    private record Query<R extends IbaStruct & MadAttribute>(R template, long mask, Function<R, IbaStruct> part,
            boolean zeroWhenNoRecords) {
    }

    /** SubnGet answered by the SA where it keeps the attribute; see the class comment. */
    @Override
    public <T extends IbaStruct & MadAttribute> T subnGet(T attribute, IBPath path, long attributeModifier) {
        int id = attribute.attributeId();
        if (id == SmpPortInfo.ATTRIBUTE_ID && attributeModifier == 0 && !isSwitch(lid(path))) {
            return copy(attribute, anyPortInfo(lid(path)));
        }
        Query<?> query = query(id, path, attributeModifier);
        return query == null ? super.subnGet(attribute, path, attributeModifier) : copy(attribute, ask(query));
    }

    private Query<?> query(int attributeId, IBPath path, long mod) {
        return switch (attributeId) {
            case SmpNodeInfo.ATTRIBUTE_ID -> nodeRecord(lid(path), SaNodeRecord::nodeInfo);
            case SmpNodeDescription.ATTRIBUTE_ID -> nodeRecord(lid(path), SaNodeRecord::nodeDescription);
            case SmpPortInfo.ATTRIBUTE_ID -> new Query<>(new SaPortInfoRecord().endportLid(lid(path)).portNum((int) mod & 0xFF),
                    SaPortInfoRecord.ENDPORT_LID_COMPONENT_MASK | SaPortInfoRecord.PORT_NUM_COMPONENT_MASK, SaPortInfoRecord::portInfo, false);
            case SmpSwitchInfo.ATTRIBUTE_ID -> new Query<>(new SaSwitchInfoRecord().lid(lid(path)),
                    SaSwitchInfoRecord.LID_COMPONENT_MASK, SaSwitchInfoRecord::switchInfo, false);
            case SmpSmInfo.ATTRIBUTE_ID -> new Query<>(new SaSmInfoRecord().lid(lid(path)), SaSmInfoRecord.LID_COMPONENT_MASK,
                    SaSmInfoRecord::smInfo, false);
            case SmpGuidInfo.ATTRIBUTE_ID -> new Query<>(new SaGuidInfoRecord().lid(lid(path)).blockNum((int) mod & 0xFF),
                    SaGuidInfoRecord.LID_COMPONENT_MASK | SaGuidInfoRecord.BLOCK_NUM_COMPONENT_MASK, SaGuidInfoRecord::guidInfo, false);
            case SmpLinearForwardingTable.ATTRIBUTE_ID -> new Query<>(
                    new SaLinearForwardingTableRecord().lid(lid(path)).blockNum((int) mod & 0xFFFF),
                    SaLinearForwardingTableRecord.LID_COMPONENT_MASK | SaLinearForwardingTableRecord.BLOCK_NUM_COMPONENT_MASK,
                    SaLinearForwardingTableRecord::linearForwardingTable, true);
            case SmpMulticastForwardingTable.ATTRIBUTE_ID -> new Query<>(new SaMulticastForwardingTableRecord().lid(lid(path))
                    .blockNum((int) mod & 0x1FF).position((int) (mod >>> 28) & 0xF),
                    SaMulticastForwardingTableRecord.LID_COMPONENT_MASK | SaMulticastForwardingTableRecord.BLOCK_NUM_COMPONENT_MASK
                            | SaMulticastForwardingTableRecord.POSITION_COMPONENT_MASK,
                    SaMulticastForwardingTableRecord::multicastForwardingTable, true);
            case SmpPKeyTable.ATTRIBUTE_ID -> pkeyTable(lid(path), mod);
            case SmpSlToVlMappingTable.ATTRIBUTE_ID -> new Query<>(new SaSlToVlMappingTableRecord().lid(lid(path))
                    .inputPortNum((int) (mod >>> 8) & 0xFF).outputPortNum((int) mod & 0xFF),
                    SaSlToVlMappingTableRecord.LID_COMPONENT_MASK | SaSlToVlMappingTableRecord.INPUT_PORT_NUM_COMPONENT_MASK
                            | SaSlToVlMappingTableRecord.OUTPUT_PORT_NUM_COMPONENT_MASK,
                    SaSlToVlMappingTableRecord::slToVlMappingTable, true);
            case SmpVlArbitrationTable.ATTRIBUTE_ID -> new Query<>(new SaVlArbitrationTableRecord().lid(lid(path))
                    .outputPortNum((int) mod & 0xFF).blockNum((int) (mod >>> 16) & 0xFF),
                    SaVlArbitrationTableRecord.LID_COMPONENT_MASK | SaVlArbitrationTableRecord.OUTPUT_PORT_NUM_COMPONENT_MASK
                            | SaVlArbitrationTableRecord.BLOCK_NUM_COMPONENT_MASK,
                    SaVlArbitrationTableRecord::vlArbitrationTable, true);
            default -> null;
        };
    }

    /** A NodeRecord query that also remembers the node's type for later PortInfo and P_KeyTable queries. */
    private Query<SaNodeRecord> nodeRecord(int lid, Function<SaNodeRecord, IbaStruct> part) {
        return new Query<>(new SaNodeRecord().lid(lid), SaNodeRecord.LID_COMPONENT_MASK, record -> {
            nodeTypes.put(lid, record.nodeInfo().nodeType());
            return part.apply(record);
        }, false);
    }

    /** P_KeyTable: block in the low 16 bits, and a switch's port in the high 16 (IBA 14.2.5.7), which a CA's record leaves out. */
    private Query<SaPKeyTableRecord> pkeyTable(int lid, long mod) {
        SaPKeyTableRecord template = new SaPKeyTableRecord().lid(lid).blockNum((int) mod & 0xFFFF);
        long mask = SaPKeyTableRecord.LID_COMPONENT_MASK | SaPKeyTableRecord.BLOCK_NUM_COMPONENT_MASK;
        Integer type = nodeTypes.get(lid);
        if (type == null || type == NodeType.SWITCH.value()) {
            template.portNum((int) (mod >>> 16) & 0xFF);
            mask |= SaPKeyTableRecord.PORT_NUM_COMPONENT_MASK;
        }
        return new Query<>(template, mask, SaPKeyTableRecord::pKeyTable, true);
    }

    private <R extends IbaStruct & MadAttribute> IbaStruct ask(Query<R> query) {
        try {
            return query.part().apply(subnAdmGet(query.template(), query.mask()));
        } catch (MadClassException e) {
            if (query.zeroWhenNoRecords() && (e.status().orElse(0) & Mad.STATUS_CLASS_MASK) == Mad.STATUS_SA_NO_RECORDS) {
                return null;
            }
            throw e;
        }
    }

    /** PortInfo of port 0 of a switch, or of the port itself on a CA, when the node type is unknown. */
    private SmpPortInfo anyPortInfo(int lid) {
        List<SaPortInfoRecord> records = subnAdmGetTable(new SaPortInfoRecord().endportLid(lid), SaPortInfoRecord.ENDPORT_LID_COMPONENT_MASK);
        if (records.isEmpty()) {
            throw new MadException("the SA has no PortInfoRecord for LID " + lid);
        }
        return records.stream().filter(r -> r.portNum() == 0).findFirst().orElse(records.getFirst()).portInfo();
    }

    /**
     * The LID of the port at the end of {@code path}, python-rdma's {@code get_path_lid}: its DLID,
     * or for a directed route its DrDLID, else the LID the SA's LinkRecords lead to from the local
     * port (or the route's DLID) along the route, asked once per route and remembered.
     *
     * @throws MadException if the SA has no LinkRecord for a hop
     */
    public int getPathLid(IBPath path) {
        return lid(path);
    }

    /**
     * {@link #getPathLid} without blocking the caller, python-rdma's {@code prepare_path_lid}: the
     * SA's LinkRecords for a directed route are asked on a virtual thread ({@link #async}); once
     * the future completes, SubnGet on that route needs no more than its own SubnAdmGet.
     */
    public CompletableFuture<Integer> preparePathLid(IBPath path) {
        return async(m -> lid(path));
    }

    /** Closes the parent transactor, python-rdma's {@code close()} of the wrapper. */
    @Override
    public void close() {
        parent.close();
    }

    /** The LID of the port at the end of {@code path}; see {@link #getPathLid}. */
    private int lid(IBPath path) {
        if (!(path instanceof IBDRPath route)) {
            return path.dlid();
        }
        if (route.drDlid() != Lid.PERMISSIVE) {
            return route.drDlid();
        }
        Integer known = routeLids.get(route);
        if (known != null) {
            return known;
        }
        int lid = route.dlid() != Lid.PERMISSIVE ? route.dlid() : endPort().orElseThrow().lid();
        byte[] ports = route.drPath();
        for (int hop = 1; hop < ports.length; hop++) {
            lid = subnAdmGet(new SaLinkRecord().fromLid(lid).fromPort(ports[hop] & 0xFF),
                    SaLinkRecord.FROM_LID_COMPONENT_MASK | SaLinkRecord.FROM_PORT_COMPONENT_MASK).toLid();
        }
        routeLids.put(route, lid);
        return lid;
    }

    private boolean isSwitch(int lid) {
        Integer type = nodeTypes.get(lid);
        return type != null && type == NodeType.SWITCH.value();
    }

    /** A new attribute of {@code attribute}'s class holding {@code part}, or zero when {@code part} is null. */
    private static <T extends IbaStruct & MadAttribute> T copy(T attribute, IbaStruct part) {
        T result = Attributes.factoryOf(attribute).get();
        return part == null ? result : Attributes.into(result, part);
    }
}
