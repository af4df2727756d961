/**
 * Runnable examples of jrdma's verbs that talk to the C tools they copy:
 * {@link org.jrdma.examples.RcPingpong} is libibverbs' {@code ibv_rc_pingpong},
 * {@link org.jrdma.examples.UdPingpong} its {@code ibv_ud_pingpong},
 * {@link org.jrdma.examples.WriteBw} is perftest's {@code ib_write_bw} (RC RDMA write), each with
 * the same options, the same TCP exchange and the same output, so a Java side works with a C side
 * either way round; {@link org.jrdma.examples.RcFlow} is the libibverbs tutorial's whole RC flow
 * (RDMA write and read, send/recv, both atomics) between two Java processes.
 * {@link org.jrdma.examples.Examples} runs one as a server and a client ({@code bin/examples});
 * {@link org.jrdma.examples.PeerPair} and {@link org.jrdma.examples.LivePair} run such pairs of
 * processes for it and for the verbs benchmark ({@code org.jrdma.bench.VerbsBenchmark}). They live
 * in a module of their own so that the library stays small.
 */
package org.jrdma.examples;
