/**
 * Internal: the C library calls jrdma makes directly (sockets, poll, file descriptors, ioctl)
 * through the Foreign Function &amp; Memory API, and {@link org.jrdma.ffi.Errors}, the one place
 * where a failed C call of any library becomes a {@link org.jrdma.SysException} carrying the call,
 * errno and strerror. Not exported.
 */
package org.jrdma.ffi;
