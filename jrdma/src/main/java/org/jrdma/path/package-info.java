/**
 * RDMA paths, python-rdma's {@code rdma.path}: {@link org.jrdma.path.IBPath} holds every header
 * field of the packets between two end ports (LRH, GRH, BTH, DETH) and the MAD and queue pair
 * parameters on top, {@link org.jrdma.path.IBDRPath} a directed route for SMPs, and
 * {@link org.jrdma.path.LazyIBPath} a received path decoded on first use. Paths are immutable and
 * read from and written to a safe text form ({@link org.jrdma.path.PathParser}).
 */
package org.jrdma.path;
