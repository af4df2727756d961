package org.jrdma.cm;

import org.jrdma.cm.ffi.CmId;
import org.jrdma.verbs.QpType;

/**
 * {@code enum rdma_port_space}: the service a connection identifier's port number belongs to,
 * and the kind of queue pair it connects (rdma_cm(7)).
 */
public enum PortSpace {
    /** {@code RDMA_PS_TCP}: reliable connections (RC), established by the IB CM's REQ/REP/RTU. */
    TCP(CmId.PS_TCP, QpType.RC),
    /** {@code RDMA_PS_UDP}: unreliable datagrams (UD), the remote QPN and Q_Key learnt by SIDR. */
    UDP(CmId.PS_UDP, QpType.UD),
    /** {@code RDMA_PS_IPOIB}: UD queue pairs sharing IP over InfiniBand's port space. */
    IPOIB(CmId.PS_IPOIB, QpType.UD),
    /** {@code RDMA_PS_IB}: any IB service ID, reliable connected here. */
    IB(CmId.PS_IB, QpType.RC);

    private final int value;
    private final QpType qpType;

    PortSpace(int value, QpType qpType) {
        this.value = value;
        this.qpType = qpType;
    }

    /** The C value. */
    public int value() {
        return value;
    }

    /** The queue pair type {@code rdma_create_id} gives identifiers of this space. */
    public QpType qpType() {
        return qpType;
    }

    /**
     * The space of C value {@code value}.
     *
     * @throws IllegalArgumentException for another value
     */
    public static PortSpace fromValue(int value) {
        for (PortSpace ps : values()) {
            if (ps.value == value) {
                return ps;
            }
        }
        throw new IllegalArgumentException("unknown rdma_port_space 0x" + Integer.toHexString(value));
    }
}
