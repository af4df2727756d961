/**
 * Message endpoints for Java services over the RDMA connection manager: {@link
 * org.jrdma.endpoint.RdmaServer#listen} and {@link org.jrdma.endpoint.RdmaEndpoint#connect} make
 * reliable connections whose {@code send} and {@code receive} return
 * {@link java.util.concurrent.CompletableFuture}s or block without allocating, with credit-based
 * flow control. Endpoints share a completion queue in an {@link org.jrdma.endpoint.EndpointGroup},
 * whose {@link org.jrdma.endpoint.PollingMode} says whether a waiting caller parks (a platform
 * thread polls the completion queue for it) or polls the completion queue itself.
 */
package org.jrdma.endpoint;
