package org.jrdma.cm;

import org.jrdma.cm.ffi.RawCmEvent.RawUdParam;
import org.jrdma.verbs.AhAttr;
import org.jrdma.verbs.ffi.IbvAhAttr;

/**
 * {@code struct rdma_ud_param}: how to reach a UD peer (a SIDR reply's ESTABLISHED, a UD connect
 * request) or a multicast group (MULTICAST_JOIN): an address handle's attributes for
 * {@link org.jrdma.verbs.Pd#ah(AhAttr)}, and the remote QPN and Q_Key to send to.
 *
 * @param privateData the private data the SIDR message carried (zeros after the sender's bytes)
 * @param ahAttr      {@code ah_attr}
 * @param qpNum       {@code qp_num}: the remote QPN ({@code 0xFFFFFF} for a multicast group)
 * @param qkey        {@code qkey}
 */
public record UdParam(byte[] privateData, AhAttr ahAttr, int qpNum, int qkey) {
    /** A copy of the private data. */
    @Override
    public byte[] privateData() {
        return privateData.clone();
    }

    static UdParam of(RawUdParam raw) {
        IbvAhAttr a = raw.ahAttr();
        AhAttr ah = new AhAttr().isGlobal(a.isGlobal()).dgid(a.dgid()).flowLabel(a.flowLabel())
                .sgidIndex(a.sgidIndex()).hopLimit(a.hopLimit()).trafficClass(a.trafficClass()).dlid(a.dlid())
                .sl(a.sl()).srcPathBits(a.srcPathBits()).staticRate(a.staticRate()).portNum(a.portNum());
        return new UdParam(raw.privateData(), ah, raw.qpNum(), raw.qkey());
    }
}
