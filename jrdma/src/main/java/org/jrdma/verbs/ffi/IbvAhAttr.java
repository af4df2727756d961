package org.jrdma.verbs.ffi;

import org.jrdma.iba.Gid;

/**
 * The content of a {@code struct ibv_ah_attr}, an address vector (IBA 11.2.2): the GRH fields of
 * {@code grh} and the local route fields, unsigned values widened to {@code int}. The verbs layer
 * maps it to and from its {@code AhAttr}.
 *
 * @param dgid         {@code grh.dgid}
 * @param flowLabel    {@code grh.flow_label} (20 bits)
 * @param sgidIndex    {@code grh.sgid_index}
 * @param hopLimit     {@code grh.hop_limit}
 * @param trafficClass {@code grh.traffic_class}
 * @param dlid         {@code dlid}
 * @param sl           {@code sl}
 * @param srcPathBits  {@code src_path_bits}
 * @param staticRate   {@code static_rate}, an {@code enum ibv_rate}
 * @param isGlobal     {@code is_global}: whether {@code grh} applies
 * @param portNum      {@code port_num}
 */
public record IbvAhAttr(Gid dgid, int flowLabel, int sgidIndex, int hopLimit, int trafficClass, int dlid, int sl,
        int srcPathBits, int staticRate, boolean isGlobal, int portNum) {
}
