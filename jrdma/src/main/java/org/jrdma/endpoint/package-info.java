/**
 * Message endpoints for Java services over the RDMA connection manager: {@link
 * org.jrdma.endpoint.RdmaServer#listen} and {@link org.jrdma.endpoint.RdmaEndpoint#connect} make
 * reliable connections whose {@code send} and {@code receive} return
 * {@link java.util.concurrent.CompletableFuture}s completed by a platform thread polling the
 * completion queue, with credit-based flow control.
 */
package org.jrdma.endpoint;
