/**
 * Connections the way deployments make them: the RDMA connection manager (librdmacm, rdma_cm(7))
 * over {@code java.lang.foreign}. An {@link org.jrdma.cm.EventChannel} delivers the events of
 * its {@link org.jrdma.cm.RdmaCmId}s (address and route resolution, connect requests, replies,
 * rejects, disconnects, multicast joins); an identifier resolves an IP address and port to a
 * device and a path, and makes and connects its queue pair on jrdma's verbs objects
 * ({@link org.jrdma.cm.RdmaCmId#context()}, {@link org.jrdma.cm.RdmaCmId#createQp}), or moves
 * one made with verbs ({@link org.jrdma.cm.RdmaCmId#modifyQp}). {@link org.jrdma.cm.AddrInfo}
 * is {@code rdma_getaddrinfo}, {@link org.jrdma.cm.IbSocketAddress} an {@code AF_IB} address,
 * and {@link org.jrdma.cm.RdmaCmId#paths()} the resolved route as jrdma paths. The native calls
 * are in {@code org.jrdma.cm.ffi}.
 */
package org.jrdma.cm;
