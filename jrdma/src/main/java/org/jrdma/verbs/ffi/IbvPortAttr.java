package org.jrdma.verbs.ffi;

/**
 * The content of a {@code struct ibv_port_attr}, what {@code ibv_query_port} gives: C
 * enumerations as their numbers, unsigned values widened. The verbs layer maps it to its
 * {@code PortAttr}.
 *
 * @param state         {@code state}, an {@code enum ibv_port_state}
 * @param maxMtu        {@code max_mtu}, an {@code enum ibv_mtu}
 * @param activeMtu     {@code active_mtu}, an {@code enum ibv_mtu}
 * @param gidTblLen     {@code gid_tbl_len}
 * @param portCapFlags  {@code port_cap_flags}
 * @param maxMsgSz      {@code max_msg_sz}
 * @param badPkeyCntr   {@code bad_pkey_cntr}
 * @param qkeyViolCntr  {@code qkey_viol_cntr}
 * @param pkeyTblLen    {@code pkey_tbl_len}
 * @param lid           {@code lid}
 * @param smLid         {@code sm_lid}
 * @param lmc           {@code lmc}
 * @param maxVlNum      {@code max_vl_num}
 * @param smSl          {@code sm_sl}
 * @param subnetTimeout {@code subnet_timeout}
 * @param initTypeReply {@code init_type_reply}
 * @param activeWidth   {@code active_width}
 * @param activeSpeed   {@code active_speed}
 * @param physState     {@code phys_state}
 * @param linkLayer     {@code link_layer}
 * @param flags         {@code flags}
 * @param portCapFlags2 {@code port_cap_flags2}
 */
public record IbvPortAttr(int state, int maxMtu, int activeMtu, int gidTblLen, int portCapFlags, long maxMsgSz,
        long badPkeyCntr, long qkeyViolCntr, int pkeyTblLen, int lid, int smLid, int lmc, int maxVlNum,
        int smSl, int subnetTimeout, int initTypeReply, int activeWidth, int activeSpeed, int physState,
        int linkLayer, int flags, int portCapFlags2) {
}
