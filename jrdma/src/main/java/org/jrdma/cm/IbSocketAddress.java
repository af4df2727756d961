package org.jrdma.cm;

import java.io.Serial;
import java.net.SocketAddress;
import java.util.Objects;
import org.jrdma.iba.Gid;

/**
 * An InfiniBand socket address, Linux's {@code struct sockaddr_ib} ({@code AF_IB},
 * {@code <infiniband/ib.h>}): a port's GID where an IP address would be, and the IB CM service
 * ID (IBA 12.7.3, A3.2) where a port number would be, with a mask saying which of its bits
 * count, plus the P_Key and GRH flow label to use. librdmacm takes it wherever it takes an IP
 * address ({@link RdmaCmId#bindAddr}, {@link RdmaCmId#resolveAddr}) and reports it for
 * identifiers made on one.
 */
public final class IbSocketAddress extends SocketAddress {
    @Serial
    private static final long serialVersionUID = 1L;
    /** The default P_Key, full membership. */
    public static final int DEFAULT_PKEY = 0xFFFF;
    /** A service ID mask that makes every bit count. */
    public static final long EXACT_MASK = -1L;
    private static final int PORT_BITS = 16;
    private static final int PORT_MASK = 0xFFFF;

    /** The port's GID ({@code sib_addr}), its two halves. */
    private final long gidPrefix;
    private final long gidInterfaceId;
    private final int pkey;
    private final int flowLabel;
    private final long serviceId;
    private final long serviceIdMask;
    private final long scopeId;

    /**
     * An address of every member.
     *
     * @param gid           {@code sib_addr}
     * @param pkey          {@code sib_pkey}, 16 bits
     * @param flowLabel     {@code sib_flowinfo}, the GRH flow label
     * @param serviceId     {@code sib_sid}
     * @param serviceIdMask {@code sib_sid_mask}
     * @param scopeId       {@code sib_scope_id}
     */
    public IbSocketAddress(Gid gid, int pkey, int flowLabel, long serviceId, long serviceIdMask, long scopeId) {
        Objects.requireNonNull(gid, "gid");
        this.gidPrefix = gid.prefix();
        this.gidInterfaceId = gid.interfaceId();
        this.pkey = pkey & 0xFFFF;
        this.flowLabel = flowLabel;
        this.serviceId = serviceId;
        this.serviceIdMask = serviceIdMask;
        this.scopeId = scopeId;
    }

    /**
     * The address of {@code port} of port space {@code ps} at {@code gid}, as librdmacm makes one
     * from an IP-style port (rdma_getaddrinfo with {@code AF_IB}): service ID
     * {@code ps << 16 | port}, every bit of it counting, the default P_Key, flow label 0.
     */
    public static IbSocketAddress of(Gid gid, PortSpace ps, int port) {
        if ((port & ~PORT_MASK) != 0) {
            throw new IllegalArgumentException("port out of range: " + port);
        }
        return new IbSocketAddress(gid, DEFAULT_PKEY, 0, (long) ps.value() << PORT_BITS | port, EXACT_MASK, 0);
    }

    /** {@code sib_addr}: the GID. */
    public Gid gid() {
        return new Gid(gidPrefix, gidInterfaceId);
    }

    /** {@code sib_pkey}. */
    public int pkey() {
        return pkey;
    }

    /** {@code sib_flowinfo}: the flow label. */
    public int flowLabel() {
        return flowLabel;
    }

    /** {@code sib_sid}: the IB CM service ID. */
    public long serviceId() {
        return serviceId;
    }

    /** {@code sib_sid_mask}. */
    public long serviceIdMask() {
        return serviceIdMask;
    }

    /** {@code sib_scope_id}. */
    public long scopeId() {
        return scopeId;
    }

    /** The port of a service ID in one of librdmacm's IP port spaces: its low 16 bits. */
    public int port() {
        return (int) (serviceId & PORT_MASK);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof IbSocketAddress a && gidPrefix == a.gidPrefix && gidInterfaceId == a.gidInterfaceId
                && pkey == a.pkey && flowLabel == a.flowLabel
                && serviceId == a.serviceId && serviceIdMask == a.serviceIdMask && scopeId == a.scopeId;
    }

    @Override
    public int hashCode() {
        return Objects.hash(gidPrefix, gidInterfaceId, pkey, flowLabel, serviceId, serviceIdMask, scopeId);
    }

    /** {@code [gid] sid 0x... mask 0x... pkey 0x...}. */
    @Override
    public String toString() {
        return "[" + gid() + "] sid 0x" + Long.toHexString(serviceId) + " mask 0x" + Long.toHexString(serviceIdMask)
                + " pkey 0x" + Integer.toHexString(pkey) + (flowLabel != 0 ? " flow " + flowLabel : "")
                + (scopeId != 0 ? " scope " + scopeId : "");
    }
}
