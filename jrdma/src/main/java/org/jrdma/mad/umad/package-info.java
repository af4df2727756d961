/**
 * The kernel's user MAD interface as a MAD transport: {@link org.jrdma.mad.umad.UmadDevice} finds
 * the {@code /dev/infiniband/umadN} of an end port in sysfs, and
 * {@link org.jrdma.mad.umad.UmadTransport} registers MAD agents on it and sends and receives MADs
 * through the port's QP0 and QP1, with the kernel doing RMPP for the SA class.
 */
package org.jrdma.mad.umad;
