package org.jrdma.cm;

import java.net.SocketAddress;
import java.util.List;
import org.jrdma.cm.ffi.CmAddrInfo;
import org.jrdma.cm.ffi.CmStructs;
import org.jrdma.cm.ffi.RawAddrInfo;
import org.jrdma.verbs.QpType;

/**
 * An answer of {@code rdma_getaddrinfo} ({@code struct rdma_addrinfo}), librdmacm's
 * getaddrinfo(3): the addresses to bind or resolve, the port space and queue pair type for them,
 * and the route and connect data a resolver service (ibacm) may add. Also the hints for
 * {@link #resolve}, of which the flags, family, QP type, port space and addresses count.
 *
 * @param flags        {@code ai_flags}: {@link #PASSIVE}, {@link #NUMERIC_HOST}, {@link #NO_ROUTE}, {@link #FAMILY}
 * @param family       {@code ai_family}: {@code AF_INET} 2, {@code AF_INET6} 10, {@code AF_IB} 27, or 0
 * @param qpType       {@code ai_qp_type}, or null for any (0)
 * @param portSpace    {@code ai_port_space}, or null for any (0)
 * @param source       {@code ai_src_addr}: an {@code InetSocketAddress} or {@link IbSocketAddress}, or null
 * @param destination  {@code ai_dst_addr}, likewise
 * @param sourceName   {@code ai_src_canonname}, or null
 * @param destinationName {@code ai_dst_canonname}, or null
 * @param route        {@code ai_route} ({@code struct ibv_path_data} records), empty for none
 * @param connect      {@code ai_connect} (private data for the connect request), empty for none
 */
public record AddrInfo(int flags, int family, QpType qpType, PortSpace portSpace, SocketAddress source,
        SocketAddress destination, String sourceName, String destinationName, byte[] route, byte[] connect) {
    /** {@code RAI_PASSIVE}: for a listener; the answer's address is a source. */
    public static final int PASSIVE = CmAddrInfo.RAI_PASSIVE;
    /** {@code RAI_NUMERICHOST}: the node is a numeric address. */
    public static final int NUMERIC_HOST = CmAddrInfo.RAI_NUMERICHOST;
    /** {@code RAI_NOROUTE}: no route resolution. */
    public static final int NO_ROUTE = CmAddrInfo.RAI_NOROUTE;
    /** {@code RAI_FAMILY}: read the node in {@link #family} ({@code AF_IB}: a GID written as an IPv6 address). */
    public static final int FAMILY = CmAddrInfo.RAI_FAMILY;
    /** {@code AF_IB}. */
    public static final int AF_IB = CmStructs.AF_IB;

    /** Copies of the byte arrays. */
    public AddrInfo {
        route = route == null ? new byte[0] : route.clone();
        connect = connect == null ? new byte[0] : connect.clone();
    }

    /** Hints of {@code flags}, {@code family}, {@code qpType} and {@code portSpace} (the last two null for any). */
    public static AddrInfo hints(int flags, int family, QpType qpType, PortSpace portSpace) {
        return new AddrInfo(flags, family, qpType, portSpace, null, null, null, null, null, null);
    }

    /** A copy. */
    @Override
    public byte[] route() {
        return route.clone();
    }

    /** A copy. */
    @Override
    public byte[] connect() {
        return connect.clone();
    }

    /**
     * {@code rdma_getaddrinfo(node, service, hints)}: every answer, the list freed
     * ({@code rdma_freeaddrinfo}) before this returns.
     *
     * @param node    a host name or numeric address (with {@link #FAMILY} and {@code AF_IB}, a
     *                GID in IPv6 form), or null
     * @param service a port number or service name, or null
     * @param hints   hints ({@link #hints}), or null
     * @throws AddrInfoException      when getaddrinfo(3) fails ({@code EAI_*})
     * @throws org.jrdma.SysException   when librdmacm fails with an {@code errno}
     */
    public static List<AddrInfo> resolve(String node, String service, AddrInfo hints) {
        RdmaCm.requireAvailable();
        RawAddrInfo raw = hints == null ? null : new RawAddrInfo(hints.flags, hints.family,
                hints.qpType == null ? 0 : hints.qpType.value(), hints.portSpace == null ? 0 : hints.portSpace.value(),
                RdmaCmId.raw(hints.source), RdmaCmId.raw(hints.destination), null, null, new byte[0], new byte[0]);
        try {
            return CmAddrInfo.get(node, service, raw).stream().map(AddrInfo::of).toList();
        } catch (CmAddrInfo.GaiException e) {
            throw new AddrInfoException(e.code(), e.getMessage(), e);
        }
    }

    private static AddrInfo of(RawAddrInfo a) {
        return new AddrInfo(a.flags(), a.family(), a.qpType() == 0 ? null : QpType.fromValue(a.qpType()),
                a.portSpace() == 0 ? null : PortSpace.fromValue(a.portSpace()), RdmaCmId.socketAddress(a.src()),
                RdmaCmId.socketAddress(a.dst()), a.srcCanonName(), a.dstCanonName(), a.route(), a.connect());
    }
}
