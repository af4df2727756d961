/**
 * Helpers that make verbs programming shorter, python-rdma's {@code rdma.vtools}:
 * {@link org.jrdma.vtools.BufferPool} (fixed-size send and receive buffers in one memory region),
 * {@link org.jrdma.vtools.CqPoller} (a blocking iteration over work completions that sleeps on
 * the completion channel and watches asynchronous events), and
 * {@link org.jrdma.vtools.NoCmExchange} (connecting two queue pairs without a communication
 * manager by exchanging their paths over a TCP socket, the seed's "No CM QP Setup").
 */
package org.jrdma.vtools;
