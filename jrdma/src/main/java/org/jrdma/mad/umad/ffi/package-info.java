/**
 * Internal: the kernel's user MAD ABI ({@code <rdma/ib_user_mad.h>}, ABI version 5) through the
 * Foreign Function &amp; Memory API: the {@code ib_user_mad} header with its {@code ib_mad_addr},
 * {@code ib_user_mad_reg_req}, the umad ioctls, and {@link org.jrdma.mad.umad.ffi.UmadFile}, an
 * open {@code /dev/infiniband/umadN} that takes and gives only Java types of its own (it knows
 * nothing of {@code org.jrdma.mad}). Not exported.
 */
package org.jrdma.mad.umad.ffi;
