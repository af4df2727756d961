package org.jrdma.bench;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.management.ManagementFactory;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.channels.ClosedChannelException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import org.jrdma.endpoint.EndpointGroup;
import org.jrdma.endpoint.PollingMode;
import org.jrdma.endpoint.RdmaEndpoint;
import org.jrdma.endpoint.RdmaServer;
import org.jrdma.endpoint.ReceivedMessage;
import org.jrdma.endpoint.SendBuffer;
import org.jrdma.examples.RunGate;
import picocli.CommandLine;
import picocli.CommandLine.Option;

/**
 * The Java side of {@link CmBenchmark}: endpoints ({@code org.jrdma.endpoint}) over rdma_cm,
 * through their blocking, allocation-free form, each side one process: by default with no copy,
 * each message written into a claimed send buffer ({@link RdmaEndpoint#claimSendBuffer()},
 * {@link RdmaEndpoint#send(SendBuffer, int)}) and read where it arrived
 * ({@link RdmaEndpoint#receiveInPlace()}), as perftest sends from and receives into its registered
 * buffers; with {@code --copy} through {@link RdmaEndpoint#send(MemorySegment)} and
 * {@link RdmaEndpoint#receive(MemorySegment)}, which copy into and out of them.
 *
 * <p>The server ({@code --server}) accepts, in this order, one echo endpoint in a group of its
 * own, then for each count of {@code --connections} that many stream endpoints in one group
 * (sharing a completion queue and polling thread, as {@code ib_send_bw -q} shares one CQ), and
 * serves each on a platform thread (with {@code --threads ONE}, the stream endpoints of a count
 * all on one, in turn): the echo endpoint sends every message back, a stream
 * endpoint takes messages and answers a one-byte acknowledgement to each marked last. Every
 * group on both sides waits as {@code --polling} says: {@link PollingMode#ADAPTIVE} by default, the
 * callers polling the completion queue themselves while they wait, as perftest's programs do.
 *
 * <p>The client makes the same connections, warms up, then makes {@code --runs} timed runs, each
 * after the go of {@link RunGate}'s protocol (it prints {@code "ready for run K"} and reads a
 * line), or without {@code --runs} one run at once: the echo round trip ({@code --iters} round trips of {@code --size} bytes, one at a time,
 * each timed), then for each connection count a stream of {@code --bw-iters} messages of
 * {@code --bw-size} bytes spread over the connections, one sending thread each (with
 * {@code --threads ONE}, one thread for all, in turn, as {@code ib_send_bw -q} sends), timed from the
 * start until every connection's last message is acknowledged; and the bytes allocated per
 * message in those loops by the threads moving messages: the callers
 * ({@code getCurrentThreadAllocatedBytes}) and the groups' polling threads
 * ({@code getThreadAllocatedBytes}), both from {@code com.sun.management.ThreadMXBean}.
 */
public final class EndpointPerf {
    private static final Duration WAIT = Duration.ofMinutes(5);
    private static final byte DATA = 0;
    private static final byte LAST = 1;
    /** The JVM's counters of the bytes each thread has allocated. */
    private static final com.sun.management.ThreadMXBean THREADS =
            (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();

    /** The command line. */
    private static final class Settings {
        @Option(names = "--server") boolean server;
        @Option(names = {"-a", "--address"}) String address = "10.0.0.1";
        @Option(names = {"-p", "--port"}) int port = 18700;
        @Option(names = "--size") int size = 64;
        @Option(names = "--iters") int iters = 5000;
        @Option(names = "--warmup") int warmup = 20000;
        @Option(names = "--bw-size") int bwSize = 4096;
        @Option(names = "--bw-iters") int bwIters = 20000;
        @Option(names = "--connections", split = ",") List<Integer> connections = List.of(1, 4, 16);
        /** How callers wait for completions, on both sides. */
        @Option(names = "--polling") PollingMode polling = PollingMode.ADAPTIVE;
        /**
         * Whether messages are copied into and out of the endpoints' registered buffers
         * ({@link RdmaEndpoint#send(MemorySegment)}, {@link RdmaEndpoint#receive(MemorySegment)}),
         * rather than written and read where they are sent from and arrive (lent buffers), on both sides.
         */
        @Option(names = "--copy") boolean copy;
        /** Timed runs, each after a go; 0 for one run at once. */
        @Option(names = "--runs") int runs;
        /** Who moves the stream messages, on both sides. */
        @Option(names = "--threads") Threads threads = Threads.PER_CONNECTION;
    }

    /** Who moves a stream's messages over its connections. */
    enum Threads {
        /** A platform thread per connection, in the blocking lent form. */
        PER_CONNECTION,
        /**
         * One thread for all the connections of a count, visiting each in turn with the forms that
         * never wait ({@link RdmaEndpoint#tryClaimSendBuffer()}, {@link RdmaEndpoint#tryReceiveInPlace()}),
         * as {@code ib_send_bw -q} drives its queue pairs from one loop.
         */
        ONE
    }

    private EndpointPerf() {
    }

    /** {@code EndpointPerf --server [-a ADDR] [-p PORT] [--connections 1,4,16]}, or the client with the sizes and counts. */
    public static void main(String[] args) throws Exception {
        Settings s = new Settings();
        new CommandLine(s).parseArgs(args);
        if (s.copy && s.threads == Threads.ONE) {
            throw new IllegalArgumentException("--threads ONE moves messages in lent buffers: not with --copy");
        }
        InetSocketAddress at = new InetSocketAddress(InetAddress.getByName(s.address), s.port);
        if (s.server) {
            serve(at, s.connections, s.polling, s.copy, s.threads);
        } else {
            client(at, s);
        }
    }

    // --- server ------------------------------------------------------------------------------

    private static void serve(InetSocketAddress at, List<Integer> connections, PollingMode polling, boolean copy,
            Threads threads) throws Exception {
        List<AutoCloseable> resources = new ArrayList<>();
        List<Thread> servers = new ArrayList<>();
        try (RdmaServer server = RdmaServer.listen(at); Arena arena = Arena.ofShared()) {
            System.out.println("listening on " + at);
            EndpointGroup echoGroup = new EndpointGroup(1, polling);
            resources.add(echoGroup);
            RdmaEndpoint echo = server.accept(echoGroup, WAIT);
            servers.add(serving(echo, arena, true, copy));
            for (int count : connections) {
                EndpointGroup group = new EndpointGroup(count, polling);
                resources.add(group);
                List<RdmaEndpoint> endpoints = new ArrayList<>();
                for (int c = 0; c < count; c++) {
                    endpoints.add(server.accept(group, WAIT));
                }
                if (threads == Threads.ONE) {
                    servers.add(servingInTurn(endpoints, arena));
                } else {
                    for (RdmaEndpoint endpoint : endpoints) {
                        servers.add(serving(endpoint, arena, false, copy));
                    }
                }
            }
            for (Thread t : servers) {
                t.join();
            }
        } finally {
            for (AutoCloseable r : resources.reversed()) {
                r.close();
            }
        }
        System.out.println("server done");
    }

    /**
     * A platform thread echoing every message, or acknowledging each marked last, until the peer
     * disconnects: through the copying form, or reading each message where it arrived and echoing
     * it from a claimed send buffer.
     */
    private static Thread serving(RdmaEndpoint endpoint, Arena arena, boolean echo, boolean copy) {
        MemorySegment buffer = arena.allocate(RdmaEndpoint.MAX_MESSAGE);
        MemorySegment ack = arena.allocate(1);
        return Thread.ofPlatform().start(() -> {
            try {
                while (true) {
                    if (copy) {
                        int length = endpoint.receive(buffer);
                        if (echo) {
                            endpoint.send(buffer, length);
                        } else if (buffer.get(ValueLayout.JAVA_BYTE, 0) == LAST) {
                            endpoint.send(ack);
                        }
                        continue;
                    }
                    ReceivedMessage in = endpoint.receiveInPlace();
                    int length = in.length();
                    if (echo) {
                        SendBuffer out = endpoint.claimSendBuffer();
                        MemorySegment.copy(in.memory(), 0, out.memory(), 0, length);
                        endpoint.release(in);
                        endpoint.send(out, length);
                    } else {
                        byte mark = in.memory().get(ValueLayout.JAVA_BYTE, 0);
                        endpoint.release(in);
                        if (mark == LAST) {
                            endpoint.send(ack);
                        }
                    }
                }
            } catch (ClosedChannelException peerLeft) {
                // the client is done
            }
        });
    }

    /**
     * A platform thread taking the messages of every one of {@code endpoints} in turn, as they
     * arrive, and acknowledging each marked last, until every peer has disconnected.
     */
    private static Thread servingInTurn(List<RdmaEndpoint> endpoints, Arena arena) {
        MemorySegment ack = arena.allocate(1);
        return Thread.ofPlatform().start(() -> {
            List<RdmaEndpoint> open = new ArrayList<>(endpoints);
            while (!open.isEmpty()) {
                boolean took = false;
                for (int c = open.size() - 1; c >= 0; c--) {
                    RdmaEndpoint endpoint = open.get(c);
                    try {
                        ReceivedMessage in = endpoint.tryReceiveInPlace();
                        if (in != null) {
                            took = true;
                            byte mark = in.memory().get(ValueLayout.JAVA_BYTE, 0);
                            endpoint.release(in);
                            if (mark == LAST) {
                                endpoint.send(ack);
                            }
                        }
                    } catch (ClosedChannelException peerLeft) {
                        open.remove(c);
                    }
                }
                if (!took) {
                    Thread.onSpinWait();
                }
            }
        });
    }

    // --- client ------------------------------------------------------------------------------

    private static void client(InetSocketAddress at, Settings s) throws Exception {
        List<AutoCloseable> resources = new ArrayList<>();
        try (Arena arena = Arena.ofShared()) {
            EndpointGroup echoGroup = new EndpointGroup(1, s.polling);
            resources.add(echoGroup);
            RdmaEndpoint echo = RdmaEndpoint.connect(at, echoGroup, WAIT);
            List<List<RdmaEndpoint>> streams = new ArrayList<>();
            for (int count : s.connections) {
                EndpointGroup group = new EndpointGroup(count, s.polling);
                resources.add(group);
                List<RdmaEndpoint> endpoints = new ArrayList<>();
                for (int c = 0; c < count; c++) {
                    endpoints.add(RdmaEndpoint.connect(at, group, WAIT));
                }
                streams.add(endpoints);
            }
            long[] pollers = Thread.getAllStackTraces().keySet().stream()
                    .filter(t -> t.getName().startsWith(EndpointGroup.THREAD_NAME_PREFIX)).mapToLong(Thread::threadId).toArray();
            Client client = new Client(arena, echo, pollers, s.copy, s.threads);
            client.echo(s.size, s.warmup, null);
            // each stream as long as a timed one, twice: the paths a long stream takes (credits
            // running out, chains of several sends) must be compiled before the timed runs, or C2
            // recompiles the send path in them after its uncommon traps (seen: the sender stopped
            // for a second at a time under -Xbatch, in the first two timed runs)
            for (int pass = 0; pass < 2; pass++) {
                for (List<RdmaEndpoint> endpoints : streams) {
                    client.stream(endpoints, s.bwSize, Math.max(s.warmup / 4, s.bwIters));
                }
            }
            BufferedReader input = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.US_ASCII));
            for (int run = 1; run <= Math.max(1, s.runs); run++) {
                if (s.runs > 0) {
                    System.out.println(RunGate.READY + run);
                    System.out.flush();
                    if (input.readLine() == null) {
                        throw new IOException("standard input ended before run " + run);
                    }
                }
                client.resetAllocation();
                long[] rtt = new long[s.iters];
                client.echo(s.size, s.iters, rtt);
                Arrays.sort(rtt);
                double average = Arrays.stream(rtt).average().orElse(0) / 1e3;
                System.out.printf("echo: %d bytes, %d round trips, typical %.2f usec, average %.2f usec,"
                        + " 99th percentile %.2f usec, longest %.2f usec, %d over 1 ms%n", s.size, s.iters,
                        rtt[rtt.length / 2] / 1e3, average, rtt[(int) (rtt.length * 0.99)] / 1e3, rtt[rtt.length - 1] / 1e3,
                        Arrays.stream(rtt).filter(t -> t > 1_000_000).count());
                for (List<RdmaEndpoint> endpoints : streams) {
                    long nanos = client.stream(endpoints, s.bwSize, s.bwIters);
                    long messages = s.bwIters / endpoints.size() * (long) endpoints.size();
                    double seconds = nanos / 1e9;
                    System.out.printf("stream %d: %d messages of %d bytes in %.3f s, %.2f MB/s, %.0f msg/s%n",
                            endpoints.size(), messages, s.bwSize, seconds, messages * s.bwSize / seconds / (1 << 20),
                            messages / seconds);
                }
                System.out.printf("java alloc: %d bytes, %d messages, %.3f bytes/message (%s)%n", client.allocated,
                        client.messages, client.messages == 0 ? 0.0 : (double) client.allocated / client.messages,
                        String.join(", ", client.allocations));
                System.out.flush();
            }
        } finally {
            for (AutoCloseable r : resources.reversed()) {
                r.close();
            }
        }
    }

    /** The client's loops and the bytes their threads allocate. */
    private static final class Client {
        private final MemorySegment out;
        private final MemorySegment in;
        private final RdmaEndpoint echo;
        private final long[] pollers;
        private final Arena arena;
        /** Whether messages are copied in and out rather than written and read in lent buffers. */
        private final boolean copy;
        private final Threads threads;
        long allocated;
        long messages;
        /** Where {@link #allocated} came from: each loop's callers and polling threads. */
        final List<String> allocations = new ArrayList<>();

        Client(Arena arena, RdmaEndpoint echo, long[] pollers, boolean copy, Threads threads) {
            this.arena = arena;
            this.copy = copy;
            this.threads = threads;
            this.out = arena.allocate(RdmaEndpoint.MAX_MESSAGE);
            this.in = arena.allocate(RdmaEndpoint.MAX_MESSAGE);
            this.echo = echo;
            this.pollers = pollers;
        }

        void resetAllocation() {
            allocated = 0;
            messages = 0;
            allocations.clear();
        }

        private void account(String loop, long callers, long polling) {
            allocated += callers + polling;
            allocations.add(loop + ": callers " + callers + " B, polling " + polling + " B");
        }

        /**
         * What the calling thread allocates from this object's making to {@link #bytes()}: its
         * allocation counter's rise, less what one reading of the counter costs.
         */
        private static final class CallerAllocation {
            private final long overhead = -THREADS.getCurrentThreadAllocatedBytes()
                    + THREADS.getCurrentThreadAllocatedBytes();
            private final long before = THREADS.getCurrentThreadAllocatedBytes();

            long bytes() {
                return Math.max(0, THREADS.getCurrentThreadAllocatedBytes() - before - overhead);
            }
        }

        private long pollersAllocated() {
            long sum = 0;
            for (long id : pollers) {
                sum += THREADS.getThreadAllocatedBytes(id);
            }
            return sum;
        }

        /** {@code count} round trips of {@code size} bytes; each one's nanoseconds into {@code rtt} when given. */
        void echo(int size, int count, long[] rtt) throws ClosedChannelException {
            MemorySegment message = out.asSlice(0, size);
            long pollersBefore = pollersAllocated();
            CallerAllocation caller = new CallerAllocation();
            // one clock read a round trip, each ending the last (a read is a system call when the
            // VM's clock source is not the TSC; perftest reads the cycle counter)
            long last = rtt != null ? System.nanoTime() : 0;
            for (int i = 0; i < count; i++) {
                int echoed;
                if (copy) {
                    message.set(ValueLayout.JAVA_INT_UNALIGNED, 0, i);
                    echo.send(message);
                    echo.receive(in);
                    echoed = in.get(ValueLayout.JAVA_INT_UNALIGNED, 0);
                } else {
                    SendBuffer out = echo.claimSendBuffer();
                    out.memory().set(ValueLayout.JAVA_INT_UNALIGNED, 0, i);
                    echo.send(out, size);
                    ReceivedMessage back = echo.receiveInPlace();
                    echoed = back.memory().get(ValueLayout.JAVA_INT_UNALIGNED, 0);
                    echo.release(back);
                }
                if (echoed != i) {
                    throw new IllegalStateException("echo " + i + " came back as " + echoed);
                }
                if (rtt != null) {
                    long now = System.nanoTime();
                    rtt[i] = now - last;
                    last = now;
                }
            }
            account("echo", caller.bytes(), pollersAllocated() - pollersBefore);
            messages += 2L * count;
        }

        /**
         * {@code total} messages of {@code size} bytes spread over {@code endpoints}, one sending
         * thread each; returns the nanoseconds from the start until every last message is acknowledged.
         */
        long stream(List<RdmaEndpoint> endpoints, int size, int total) throws InterruptedException, ClosedChannelException {
            if (threads == Threads.ONE) {
                return streamInTurn(endpoints, size, total);
            }
            int each = total / endpoints.size();
            CountDownLatch start = new CountDownLatch(1);
            long[] callers = new long[endpoints.size()];
            Throwable[] failures = new Throwable[endpoints.size()];
            List<Thread> senders = new ArrayList<>();
            for (int c = 0; c < endpoints.size(); c++) {
                RdmaEndpoint endpoint = endpoints.get(c);
                MemorySegment message = arena.allocate(size);
                MemorySegment ack = arena.allocate(RdmaEndpoint.MAX_MESSAGE);
                int n = c;
                senders.add(Thread.ofPlatform().start(() -> {
                    try {
                        start.await();
                        CallerAllocation caller = new CallerAllocation();
                        for (int i = 0; i < each; i++) {
                            byte mark = i == each - 1 ? LAST : DATA;
                            if (copy) {
                                message.set(ValueLayout.JAVA_BYTE, 0, mark);
                                endpoint.send(message);
                            } else {
                                SendBuffer out = endpoint.claimSendBuffer();
                                out.memory().set(ValueLayout.JAVA_BYTE, 0, mark);
                                endpoint.send(out, size);
                            }
                        }
                        endpoint.receive(ack);
                        callers[n] = caller.bytes();
                    } catch (Throwable e) {
                        failures[n] = e;
                    }
                }));
            }
            long pollersBefore = pollersAllocated();
            long begin = System.nanoTime();
            start.countDown();
            for (Thread t : senders) {
                t.join();
            }
            long nanos = System.nanoTime() - begin;
            long pollersAfter = pollersAllocated();
            for (Throwable f : failures) {
                if (f != null) {
                    throw new IllegalStateException("a stream sender failed", f);
                }
            }
            account("stream " + endpoints.size(), Arrays.stream(callers).sum(), pollersAfter - pollersBefore);
            messages += (long) each * endpoints.size() + endpoints.size();
            return nanos;
        }

        /**
         * {@link #stream} from this one thread: sends the next message of every connection that
         * has a free send buffer, in turn, until each has sent its share, then takes each one's
         * acknowledgement.
         */
        private long streamInTurn(List<RdmaEndpoint> endpoints, int size, int total) throws ClosedChannelException {
            int each = total / endpoints.size();
            RdmaEndpoint[] all = endpoints.toArray(RdmaEndpoint[]::new);
            int[] sent = new int[all.length];
            long pollersBefore = pollersAllocated();
            CallerAllocation caller = new CallerAllocation();
            long begin = System.nanoTime();
            for (int unfinished = all.length; unfinished > 0; ) {
                boolean progressed = false;
                for (int c = 0; c < all.length; c++) {
                    if (sent[c] == each) {
                        continue;
                    }
                    SendBuffer out = all[c].tryClaimSendBuffer();
                    if (out != null) {
                        out.memory().set(ValueLayout.JAVA_BYTE, 0, ++sent[c] == each ? LAST : DATA);
                        all[c].send(out, size);
                        progressed = true;
                        if (sent[c] == each) {
                            unfinished--;
                        }
                    }
                }
                if (!progressed) {
                    Thread.onSpinWait();
                }
            }
            for (RdmaEndpoint endpoint : all) {
                ReceivedMessage ack = endpoint.receiveInPlace();
                endpoint.release(ack);
            }
            long nanos = System.nanoTime() - begin;
            long callerBytes = caller.bytes(); // before the loop's name is made
            account("stream " + all.length, callerBytes, pollersAllocated() - pollersBefore);
            messages += (long) each * all.length + all.length;
            return nanos;
        }
    }
}
