package org.jrdma.path;

import java.util.Objects;
import org.jrdma.devices.EndPort;
import org.jrdma.iba.Gid;
import org.jrdma.iba.Iba;
import org.jrdma.iba.Mtu;
import org.jrdma.iba.StaticRate;

/**
 * The attributes of an {@link IBPath}, declared once. A {@link PathBuilder} sets them in an
 * instance of its own; a path keeps a {@link #copy()} that nothing changes once it is built (held
 * in a final field, so it is published safely to every thread). Each attribute is described, in
 * IBA terms, by its accessor in {@link IBPath}; nulls are unset optional values.
 */
final class PathValues implements Cloneable {
    EndPort endPort;
    int retries;
    int dlid;
    int slid;
    int sl;
    int pkey = Iba.DEFAULT_PKEY;
    boolean hasGrh;
    Gid sgid;
    Gid dgid;
    int hopLimit;
    int trafficClass;
    int flowLabel;
    Integer dqpn;
    Integer sqpn;
    Integer qkey;
    Mtu mtu = Mtu.MTU_256;
    StaticRate rate = StaticRate.RATE_2_5_GBPS;
    Integer umadAgentId;
    int respTime = IBPath.DEFAULT_RESP_TIME;
    Integer packetLifeTime;
    int minRnrTimer;
    int dackRespTime = IBPath.DEFAULT_RESP_TIME;
    int sackRespTime = IBPath.DEFAULT_RESP_TIME;
    int dqpsn;
    int sqpsn;
    int drdatomic = 255;
    int srdatomic = 255;
    long mKey;
    long smKey;

    /** The values of a new IBPath: python-rdma's class attribute defaults. */
    PathValues() {
    }

    /** A copy to change without changing this one. */
    PathValues copy() {
        try {
            return (PathValues) clone();
        } catch (CloneNotSupportedException e) {
            throw new AssertionError(e);
        }
    }

    /** Swaps the source and destination values, IBA 13.5.4; see {@link IBPath#reverse(boolean)}. */
    void reverse(boolean forReply) {
        int lid = dlid;
        dlid = slid;
        slid = lid;
        Gid gid = dgid;
        dgid = sgid;
        sgid = gid;
        Integer qpn = dqpn;
        dqpn = sqpn;
        sqpn = qpn;
        int time = dackRespTime;
        dackRespTime = sackRespTime;
        sackRespTime = time;
        int psn = dqpsn;
        dqpsn = sqpsn;
        sqpsn = psn;
        int atomics = drdatomic;
        drdatomic = srdatomic;
        srdatomic = atomics;
        if (forReply && hasGrh) {
            hopLimit = 0xFF;
        }
    }

    /** Equal when every attribute is equal, the end port as a snapshot ({@link EndPort#equals}). */
    @Override
    public boolean equals(Object o) {
        return o instanceof PathValues v && retries == v.retries && dlid == v.dlid && slid == v.slid && sl == v.sl
                && pkey == v.pkey && hasGrh == v.hasGrh && hopLimit == v.hopLimit && trafficClass == v.trafficClass
                && flowLabel == v.flowLabel && mtu == v.mtu && rate == v.rate && respTime == v.respTime
                && minRnrTimer == v.minRnrTimer && dackRespTime == v.dackRespTime && sackRespTime == v.sackRespTime
                && dqpsn == v.dqpsn && sqpsn == v.sqpsn && drdatomic == v.drdatomic && srdatomic == v.srdatomic
                && mKey == v.mKey && smKey == v.smKey && Objects.equals(endPort, v.endPort)
                && Objects.equals(sgid, v.sgid) && Objects.equals(dgid, v.dgid) && Objects.equals(dqpn, v.dqpn)
                && Objects.equals(sqpn, v.sqpn) && Objects.equals(qkey, v.qkey)
                && Objects.equals(umadAgentId, v.umadAgentId) && Objects.equals(packetLifeTime, v.packetLifeTime);
    }

    /** A hash of the addresses, which tell paths apart in practice (equal values hash equally). */
    @Override
    public int hashCode() {
        return Objects.hash(endPort, dlid, slid, sl, pkey, sgid, dgid, dqpn, sqpn, qkey);
    }
}
