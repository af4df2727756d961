package org.jrdma.verbs;

import org.jrdma.iba.Mtu;
import org.jrdma.verbs.ffi.IbvPortAttr;

/**
 * The attributes of one port, {@code struct ibv_port_attr} as verbs.h's {@code ibv_query_port}
 * fills it (IBA 11.2.1.2 Query HCA; the fields mirror PortInfo, IBA 14.2.5.6). Unsigned C
 * fields are widened: none of these is negative.
 *
 * @param state          {@code enum ibv_port_state}: 1 down, 2 init, 3 armed, 4 active
 *                       ({@link org.jrdma.iba.PortState} numbers), 5 active-defer
 * @param maxMtu         largest MTU the port supports
 * @param activeMtu      MTU in use
 * @param gidTblLen      entries of the GID table
 * @param portCapFlags   {@code enum ibv_port_cap_flags}, PortInfo:CapabilityMask
 * @param maxMsgSz       largest message, bytes (unsigned 32 bits)
 * @param badPkeyCntr    P_Key violations counted
 * @param qkeyViolCntr   Q_Key violations counted
 * @param pkeyTblLen     entries of the P_Key table
 * @param lid            base LID (0 on RoCE)
 * @param smLid          LID of the subnet manager
 * @param lmc            LID mask count
 * @param maxVlNum       virtual lanes supported, PortInfo:VLCap
 * @param smSl           service level to reach the subnet manager
 * @param subnetTimeout  PortInfo:SubnetTimeOut
 * @param initTypeReply  PortInfo:InitTypeReply
 * @param activeWidth    PortInfo:LinkWidthActive
 * @param activeSpeed    PortInfo:LinkSpeedActive (or the extended speed)
 * @param physState      PortInfo:PortPhysicalState
 * @param linkLayer      0 unspecified, 1 InfiniBand, 2 Ethernet (RoCE)
 * @param flags          {@code enum ibv_port_attr_flags}: bit 0 GRH required
 * @param portCapFlags2  {@code enum ibv_port_cap_flags2}, PortInfo:CapabilityMask2
 */
public record PortAttr(int state, Mtu maxMtu, Mtu activeMtu, int gidTblLen, int portCapFlags, long maxMsgSz,
        long badPkeyCntr, long qkeyViolCntr, int pkeyTblLen, int lid, int smLid, int lmc, int maxVlNum,
        int smSl, int subnetTimeout, int initTypeReply, int activeWidth, int activeSpeed, int physState,
        int linkLayer, int flags, int portCapFlags2) {
    /** {@code IBV_LINK_LAYER_ETHERNET}: the port is RoCE and every address needs a GRH. */
    public static final int LINK_LAYER_ETHERNET = 2;

    /** The attributes libibverbs reported in a {@code struct ibv_port_attr}. */
    static PortAttr of(IbvPortAttr raw) {
        return new PortAttr(raw.state(), Mtu.fromValue(raw.maxMtu()), Mtu.fromValue(raw.activeMtu()),
                raw.gidTblLen(), raw.portCapFlags(), raw.maxMsgSz(), raw.badPkeyCntr(), raw.qkeyViolCntr(),
                raw.pkeyTblLen(), raw.lid(), raw.smLid(), raw.lmc(), raw.maxVlNum(), raw.smSl(),
                raw.subnetTimeout(), raw.initTypeReply(), raw.activeWidth(), raw.activeSpeed(),
                raw.physState(), raw.linkLayer(), raw.flags(), raw.portCapFlags2());
    }
}
