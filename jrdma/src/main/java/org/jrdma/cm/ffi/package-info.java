/**
 * Internal: librdmacm, the RDMA connection manager's library, through the Foreign Function &amp;
 * Memory API. The only place that knows the {@code <rdma/rdma_cma.h>} structures
 * ({@link org.jrdma.cm.ffi.CmStructs}, checked against the header by a test compiled with gcc) and
 * makes librdmacm downcalls; failures become {@link org.jrdma.SysException}s through
 * {@link org.jrdma.ffi.Errors}. It knows nothing of {@code org.jrdma.cm}: it takes and gives
 * primitive values, socket addresses and records of its own. Not exported.
 */
package org.jrdma.cm.ffi;
