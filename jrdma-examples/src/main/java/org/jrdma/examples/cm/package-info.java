/**
 * Example programs over the RDMA connection manager ({@code org.jrdma.cm}) and the endpoint API
 * ({@code org.jrdma.endpoint}): {@link org.jrdma.examples.cm.Rping}, librdmacm's {@code rping}
 * in Java, and {@link org.jrdma.examples.cm.EchoServer} / {@link org.jrdma.examples.cm.EchoClient},
 * messages and one-sided RDMA on endpoints.
 */
package org.jrdma.examples.cm;
