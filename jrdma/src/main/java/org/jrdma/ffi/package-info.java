/**
 * Internal: the C library calls jrdma makes directly (sockets, poll, file descriptors, ioctl)
 * through the Foreign Function &amp; Memory API, each failure turned into a
 * {@link org.jrdma.SysException} carrying the call, errno and strerror. Not exported.
 */
package org.jrdma.ffi;
