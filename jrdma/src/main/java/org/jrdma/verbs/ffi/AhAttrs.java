package org.jrdma.verbs.ffi;

import java.lang.foreign.MemorySegment;
import java.lang.invoke.VarHandle;
import org.jrdma.iba.Gid;

/**
 * {@link IbvAhAttr} to and from {@code struct ibv_ah_attr}, wherever one lies: alone for
 * {@code ibv_create_ah}, or as {@code ah_attr}/{@code alt_ah_attr} inside an
 * {@code ibv_qp_attr}. Every method takes the segment and the structure's offset in it.
 */
final class AhAttrs {
    private static final VarHandle FLOW_LABEL = Structs.handle(Structs.IBV_AH_ATTR, "grh.flow_label");
    private static final VarHandle SGID_INDEX = Structs.handle(Structs.IBV_AH_ATTR, "grh.sgid_index");
    private static final VarHandle HOP_LIMIT = Structs.handle(Structs.IBV_AH_ATTR, "grh.hop_limit");
    private static final VarHandle TRAFFIC_CLASS = Structs.handle(Structs.IBV_AH_ATTR, "grh.traffic_class");
    private static final VarHandle DLID = Structs.handle(Structs.IBV_AH_ATTR, "dlid");
    private static final VarHandle SL = Structs.handle(Structs.IBV_AH_ATTR, "sl");
    private static final VarHandle SRC_PATH_BITS = Structs.handle(Structs.IBV_AH_ATTR, "src_path_bits");
    private static final VarHandle STATIC_RATE = Structs.handle(Structs.IBV_AH_ATTR, "static_rate");
    private static final VarHandle IS_GLOBAL = Structs.handle(Structs.IBV_AH_ATTR, "is_global");
    private static final VarHandle PORT_NUM = Structs.handle(Structs.IBV_AH_ATTR, "port_num");
    private static final long DGID = Structs.offset(Structs.IBV_AH_ATTR, "grh.dgid");

    private AhAttrs() {
    }

    /** Writes {@code attr} as the {@code struct ibv_ah_attr} at {@code offset} of {@code s}. */
    static void write(MemorySegment s, long offset, IbvAhAttr attr) {
        attr.dgid().writeTo(s, offset + DGID);
        FLOW_LABEL.set(s, offset, attr.flowLabel());
        SGID_INDEX.set(s, offset, (byte) attr.sgidIndex());
        HOP_LIMIT.set(s, offset, (byte) attr.hopLimit());
        TRAFFIC_CLASS.set(s, offset, (byte) attr.trafficClass());
        DLID.set(s, offset, (short) attr.dlid());
        SL.set(s, offset, (byte) attr.sl());
        SRC_PATH_BITS.set(s, offset, (byte) attr.srcPathBits());
        STATIC_RATE.set(s, offset, (byte) attr.staticRate());
        IS_GLOBAL.set(s, offset, (byte) (attr.isGlobal() ? 1 : 0));
        PORT_NUM.set(s, offset, (byte) attr.portNum());
    }

    /** Reads the {@code struct ibv_ah_attr} at {@code offset} of {@code s}. */
    static IbvAhAttr read(MemorySegment s, long offset) {
        return new IbvAhAttr(Gid.fromSegment(s, offset + DGID),
                (int) FLOW_LABEL.get(s, offset),
                u8(SGID_INDEX, s, offset),
                u8(HOP_LIMIT, s, offset),
                u8(TRAFFIC_CLASS, s, offset),
                Short.toUnsignedInt((short) DLID.get(s, offset)),
                u8(SL, s, offset),
                u8(SRC_PATH_BITS, s, offset),
                u8(STATIC_RATE, s, offset),
                (byte) IS_GLOBAL.get(s, offset) != 0,
                u8(PORT_NUM, s, offset));
    }

    /** The unsigned byte {@code handle} reads at {@code offset} of {@code s}. */
    static int u8(VarHandle handle, MemorySegment s, long offset) {
        return Byte.toUnsignedInt((byte) handle.get(s, offset));
    }
}
