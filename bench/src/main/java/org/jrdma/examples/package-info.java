/**
 * Runnable examples of jrdma's verbs that talk to the C tools they copy, and the benchmark that
 * compares them: {@link org.jrdma.examples.RcPingpong} is libibverbs' {@code ibv_rc_pingpong},
 * {@link org.jrdma.examples.UdPingpong} its {@code ibv_ud_pingpong},
 * {@link org.jrdma.examples.WriteBw} is perftest's {@code ib_write_bw} (RC RDMA write), each with
 * the same options, the same TCP exchange and the same output, so a Java side works with a C side
 * either way round; {@link org.jrdma.examples.RcFlow} is the libibverbs tutorial's whole RC flow
 * (RDMA write and read, send/recv, both atomics) between two Java processes;
 * {@link org.jrdma.examples.VerbsBenchmark} runs the ping-pong and the bandwidth test against the
 * C tools in the soft-RoCE VM ({@code bin/bench-verbs}). They live in the {@code bench} module so that the
 * library stays small.
 */
package org.jrdma.examples;
