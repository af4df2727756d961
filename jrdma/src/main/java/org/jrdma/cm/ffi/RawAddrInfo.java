package org.jrdma.cm.ffi;

/**
 * {@code struct rdma_addrinfo} copied into Java: one answer of {@code rdma_getaddrinfo}, or the
 * hints given to it (then only flags, family, QP type, port space and the addresses count).
 *
 * @param flags         {@code ai_flags}, {@code RAI_*} bits
 * @param family        {@code ai_family}: {@code AF_INET}, {@code AF_INET6}, {@code AF_IB}, or 0
 * @param qpType        {@code ai_qp_type}: {@code enum ibv_qp_type}, or 0
 * @param portSpace     {@code ai_port_space}: {@code enum rdma_port_space}, or 0
 * @param src           {@code ai_src_addr}, or null
 * @param dst           {@code ai_dst_addr}, or null
 * @param srcCanonName  {@code ai_src_canonname}, or null
 * @param dstCanonName  {@code ai_dst_canonname}, or null
 * @param route         {@code ai_route}'s {@code ai_route_len} bytes (path data from ibacm), empty for none
 * @param connect       {@code ai_connect}'s {@code ai_connect_len} bytes, empty for none
 */
public record RawAddrInfo(int flags, int family, int qpType, int portSpace, Sockaddr src, Sockaddr dst,
        String srcCanonName, String dstCanonName, byte[] route, byte[] connect) {
}
