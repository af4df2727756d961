package org.jrdma.endpoint;

import static org.jrdma.testkit.vm.VmChecks.equal;
import static org.jrdma.testkit.vm.VmChecks.require;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.ClosedChannelException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.jrdma.RdmaException;
import org.jrdma.cm.CmEvent;
import org.jrdma.cm.CmEventType;
import org.jrdma.cm.ConnParam;
import org.jrdma.cm.EventChannel;
import org.jrdma.cm.PortSpace;
import org.jrdma.cm.RdmaCmId;
import org.jrdma.testkit.ThreadCounters;
import org.jrdma.testkit.vm.VmChecks;

/**
 * The checks of {@link EndpointInVmTest}, run inside the soft-RoCE VM ({@code rdma_ucm} loaded,
 * rxe0 at 10.0.0.1): endpoints connected through an {@link RdmaServer} in one process.
 */
public final class EndpointInVm {
    static final Duration WAIT = Duration.ofSeconds(120);
    static final int MESSAGES = 100;

    private final VmChecks checks = new VmChecks();
    /** Runs only the checks whose names contain this. */
    private final String only;
    /** Runs each check this many times (a soak of the endpoints' concurrency). */
    private final int repeat;
    private int nextPort = 7600;

    private EndpointInVm(String only, int repeat) {
        this.only = only;
        this.repeat = repeat;
    }

    /**
     * Runs every check once; {@code [NAME-PART [REPEAT]]} runs only the checks whose names
     * contain {@code NAME-PART}, each {@code REPEAT} times.
     */
    public static void main(String[] args) throws Exception {
        EndpointInVm program = new EndpointInVm(args.length > 0 ? args[0] : "",
                args.length > 1 ? Integer.parseInt(args[1]) : 1);
        program.run();
        program.checks.exit();
    }

    private void check(String name, VmChecks.Check body) {
        if (!name.contains(only)) {
            return;
        }
        for (int i = 1; i <= repeat; i++) {
            checks.check(repeat == 1 ? name : name + " #" + i, () -> {
                Set<String> before = groupThreads();
                body.run();
                requireNoGroupLeft(before);
            });
        }
    }

    /**
     * Fails if a group thread the check started is still running a few seconds after it ended: an
     * endpoint or group left open, whose thread a later check's measurement would also see.
     */
    private static void requireNoGroupLeft(Set<String> before) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        Set<String> left;
        do {
            left = groupThreadsStartedSince(before);
            if (left.isEmpty()) {
                return;
            }
            Thread.sleep(50);
        } while (System.nanoTime() < deadline);
        throw new AssertionError("group threads still running after the check: " + left);
    }

    /**
     * Echoes {@link #MESSAGES} messages back to the peer; prints a failure before throwing it, as
     * nobody waits on this side's future and the client alone would only see its echo never come.
     */
    private static Void echoBack(RdmaEndpoint peer) {
        try {
            for (int i = 0; i < MESSAGES - 1; i++) {
                peer.send(peer.receive().join()).join();
            }
            CompletableFuture<Void> last = peer.send(peer.receive().join());
            try {
                last.join();
            } catch (CompletionException e) {
                // the client may close once it has its last echo, before this side sees the acknowledgement
                if (!(e.getCause() instanceof ClosedChannelException)) {
                    throw e;
                }
            }
            return null;
        } catch (RuntimeException e) {
            System.out.println("  the server's echo failed: " + e);
            e.printStackTrace(System.out);
            throw e;
        }
    }

    InetSocketAddress address() throws Exception {
        return new InetSocketAddress(InetAddress.getByName("10.0.0.1"), nextPort++);
    }

    private void run() {
        check("echo in order", this::echo);
        check("credits make a fast sender wait for a slow receiver, no RNR", this::credits);
        check("four endpoints on virtual threads", this::manyOnVirtualThreads);
        check("eight endpoints sharing one completion queue and thread per side", this::sharedGroup);
        check("RDMA write and read to a RemoteBuffer handed over in a message", this::oneSided);
        check("allocation per message in steady state", this::allocation);
        check("blocking send and receive in order, nothing allocated per message",
                () -> blockingForm(PollingMode.EVENT));
        check("callers polling the completion queue (BUSY), in order, nothing allocated per message",
                () -> blockingForm(PollingMode.BUSY));
        check("callers polling the completion queue, then parking (ADAPTIVE), in order, nothing allocated per message",
                () -> blockingForm(PollingMode.ADAPTIVE));
        check("a blocking sender that leaves messages waiting for credits has them posted by the group (ADAPTIVE)",
                () -> blockingBacklog(PollingMode.ADAPTIVE));
        check("a blocking sender that leaves messages waiting for credits has them posted by the group (BUSY)",
                () -> blockingBacklog(PollingMode.BUSY));
        LentBufferChecks lent = new LentBufferChecks(this);
        check("messages written in claimed send buffers and read where they arrived (lent buffers), in order", lent::inOrder);
        check("lent buffers sent or released twice, or on the other endpoint, are refused", lent::misuse);
        check("a receiver holding every lent buffer stops the sender until it releases them", lent::flowControl);
        check("lent buffers, nothing allocated per message (ADAPTIVE)", lent::allocation);
        NonWaitingChecks nonWaiting = new NonWaitingChecks(this);
        check("the forms that never wait return null when nothing can be lent", nonWaiting::nothingToLend);
        check("one thread drives four connections in turn without waiting (EVENT)",
                () -> nonWaiting.oneThreadInTurn(PollingMode.EVENT));
        check("one thread drives four connections in turn without waiting (ADAPTIVE)",
                () -> nonWaiting.oneThreadInTurn(PollingMode.ADAPTIVE));
        check("blocking send and receive after a disconnect throw ClosedChannelException", this::blockingClosed);
        check("close fails pending sends and receives", this::closeFailsPending);
        check("peer disconnect fails pending receives", this::peerDisconnect);
        check("an RDMA write the peer refuses fails its future and ends the endpoint", this::refusedWrite);
        check("a connect request that is not an endpoint's is rejected, and the server serves the next", this::notAnEndpoint);
    }

    private static ByteBuffer text(String s) {
        return ByteBuffer.wrap(s.getBytes(StandardCharsets.UTF_8));
    }

    private static String text(ByteBuffer b) {
        return StandardCharsets.UTF_8.decode(b).toString();
    }

    /** A check on a connected client and the peer a fresh server accepted for it. */
    interface PairCheck {
        void run(InetSocketAddress at, RdmaEndpoint client, RdmaEndpoint peer, ExecutorService threads, Arena arena)
                throws Exception;
    }

    /**
     * Connects a client to a new server at the next port, runs {@code check} with them, threads
     * for its tasks and memory, then closes the endpoints (a check may close either first), waits
     * for its tasks, and frees the memory and the server.
     */
    void connected(PairCheck check) throws Exception {
        InetSocketAddress at = address();
        try (RdmaServer server = RdmaServer.listen(at);
                Arena arena = Arena.ofShared();
                ExecutorService threads = Executors.newVirtualThreadPerTaskExecutor()) {
            Future<RdmaEndpoint> accepted = threads.submit(() -> server.accept(WAIT));
            try (RdmaEndpoint client = RdmaEndpoint.connect(at, WAIT); RdmaEndpoint peer = accepted.get()) {
                check.run(at, client, peer, threads, arena);
            }
        }
    }

    private void echo() throws Exception {
        connected((at, client, peer, threads, arena) -> {
            equal(at, client.remoteAddress(), "client's remote address");
            threads.submit(() -> echoBack(peer));
            List<CompletableFuture<Void>> sent = new ArrayList<>();
            for (int i = 0; i < MESSAGES; i++) {
                sent.add(client.send(text("message " + i)));
            }
            for (int i = 0; i < MESSAGES; i++) {
                equal("message " + i, text(client.receive().get(WAIT.toMillis(), TimeUnit.MILLISECONDS)), "echo " + i);
            }
            CompletableFuture.allOf(sent.toArray(CompletableFuture[]::new)).get(WAIT.toMillis(), TimeUnit.MILLISECONDS);
        });
    }

    private void credits() throws Exception {
        connected((at, client, peer, threads, arena) -> {
            List<CompletableFuture<Void>> sent = new ArrayList<>();
            for (int i = 0; i < MESSAGES; i++) {
                sent.add(client.send(text("burst " + i)));
            }
            Thread.sleep(1000);
            long done = sent.stream().filter(CompletableFuture::isDone).count();
            System.out.println("  sends completed while nobody received: " + done);
            equal((long) RdmaEndpoint.RECEIVES, done, "sends completed before the receiver took any");
            for (int i = 0; i < MESSAGES; i++) {
                equal("burst " + i, text(peer.receive().get(WAIT.toMillis(), TimeUnit.MILLISECONDS)), "message " + i);
            }
            CompletableFuture.allOf(sent.toArray(CompletableFuture[]::new)).get(WAIT.toMillis(), TimeUnit.MILLISECONDS);
        });
    }

    private void manyOnVirtualThreads() throws Exception {
        InetSocketAddress at = address();
        int clients = 4;
        try (RdmaServer server = RdmaServer.listen(at);
                ExecutorService threads = Executors.newVirtualThreadPerTaskExecutor()) {
            Future<?> serving = threads.submit(() -> {
                List<RdmaEndpoint> peers = new ArrayList<>();
                for (int c = 0; c < clients; c++) {
                    RdmaEndpoint peer = server.accept(WAIT);
                    peers.add(peer);
                    threads.submit(() -> echoBack(peer));
                }
                return peers;
            });
            List<Future<String>> results = new ArrayList<>();
            for (int c = 0; c < clients; c++) {
                int n = c;
                results.add(threads.submit(() -> {
                    try (RdmaEndpoint client = RdmaEndpoint.connect(at, WAIT)) {
                        for (int i = 0; i < MESSAGES; i++) {
                            client.send(text(n + ":" + i)).join();
                            equal(n + ":" + i, text(client.receive().join()), "echo");
                        }
                        return "ok";
                    }
                }));
            }
            for (Future<String> r : results) {
                equal("ok", r.get(WAIT.toMillis() * 3, TimeUnit.MILLISECONDS), "client");
            }
            @SuppressWarnings("unchecked")
            List<RdmaEndpoint> peers = (List<RdmaEndpoint>) serving.get();
            peers.forEach(RdmaEndpoint::close);
        }
    }

    private void sharedGroup() throws Exception {
        InetSocketAddress at = address();
        int clients = 8;
        Set<String> before = groupThreads();
        EndpointGroup group = new EndpointGroup(clients);
        try (RdmaServer server = RdmaServer.listen(at);
                EndpointGroup servers = new EndpointGroup(clients);
                ExecutorService threads = Executors.newVirtualThreadPerTaskExecutor()) {
            List<Future<Void>> echoes = new CopyOnWriteArrayList<>();
            Future<?> serving = threads.submit(() -> {
                for (int c = 0; c < clients; c++) {
                    RdmaEndpoint peer = server.accept(servers, WAIT);
                    echoes.add(threads.submit(() -> echoBack(peer)));
                }
                return null;
            });
            List<RdmaEndpoint> endpoints = new ArrayList<>();
            for (int c = 0; c < clients; c++) {
                endpoints.add(RdmaEndpoint.connect(at, group, WAIT));
            }
            serving.get(WAIT.toMillis(), TimeUnit.MILLISECONDS);
            equal(clients, group.size(), "endpoints in the client group");
            equal(clients, servers.size(), "endpoints in the server group");
            equal(Set.of(group.threadName(), servers.threadName()), groupThreadsStartedSince(before), "polling threads for " + 2 * clients + " endpoints");
            try {
                RdmaEndpoint.connect(at, group, WAIT);
                throw new AssertionError("a ninth endpoint joined a group of eight");
            } catch (IllegalStateException expected) {
                System.out.println("  full: " + expected.getMessage());
            }
            List<Future<String>> results = new ArrayList<>();
            for (int c = 0; c < clients; c++) {
                RdmaEndpoint client = endpoints.get(c);
                int n = c;
                results.add(threads.submit(() -> {
                    for (int i = 0; i < MESSAGES; i++) {
                        client.send(text(n + ":" + i)).join();
                        equal(n + ":" + i, text(client.receive().join()), "echo");
                    }
                    return "ok";
                }));
            }
            for (Future<String> r : results) {
                equal("ok", r.get(WAIT.toMillis() * 3, TimeUnit.MILLISECONDS), "client");
            }
            for (Future<Void> e : echoes) {
                e.get(WAIT.toMillis(), TimeUnit.MILLISECONDS); // the server saw each of its sends acknowledged
            }
            group.close();
            equal(0, group.size(), "endpoints after the group closed");
            expectClosed(endpoints.get(0).receive());
        } finally {
            group.close();
        }
    }

    private void oneSided() throws Exception {
        connected((at, client, peer, threads, arena) -> {
            RegisteredBuffer exposed = peer.register(arena.allocate(4096, 4096));
            exposed.memory().setString(0, "the peer's data", StandardCharsets.US_ASCII);
            peer.send(exposed.remote().encode(ByteBuffer.allocate(RemoteBuffer.BYTES)).flip()).join();
            RemoteBuffer remote = RemoteBuffer.decode(client.receive().get(WAIT.toMillis(), TimeUnit.MILLISECONDS));
            equal(exposed.remote(), remote, "remote buffer after the message");
            RegisteredBuffer local = client.register(arena.allocate(4096, 4096));
            local.memory().setString(100, "written by the client", StandardCharsets.US_ASCII);
            client.write(local, 100, 22, remote, 1000).get(WAIT.toMillis(), TimeUnit.MILLISECONDS);
            equal("written by the client", exposed.memory().getString(1000, StandardCharsets.US_ASCII),
                    "peer's memory after the write");
            client.read(local, 2000, 16, remote, 0).get(WAIT.toMillis(), TimeUnit.MILLISECONDS);
            equal("the peer's data", local.memory().getString(2000, StandardCharsets.US_ASCII),
                    "local memory after the read");
            try {
                client.write(local, 0, 8, remote, 4090);
                throw new AssertionError("a write past the remote buffer's end was accepted");
            } catch (IndexOutOfBoundsException expected) {
                System.out.println("  past the end: " + expected.getMessage());
            }
            client.send(text("after one-sided")).join();
            equal("after one-sided", text(peer.receive().get(WAIT.toMillis(), TimeUnit.MILLISECONDS)),
                    "messages still flow");
            local.close();
            exposed.close();
        });
    }

    /**
     * Echoes 16-byte messages between two endpoints of one group and measures, after a warm-up,
     * the bytes the group's polling thread allocates per message it handles (sent or delivered)
     * and those the caller allocates per round trip.
     */
    private void allocation() throws Exception {
        InetSocketAddress at = address();
        int warmUp = 3000;
        int rounds = 3000;
        try (RdmaServer server = RdmaServer.listen(at);
                EndpointGroup group = new EndpointGroup(2);
                ExecutorService threads = Executors.newVirtualThreadPerTaskExecutor()) {
            Future<RdmaEndpoint> accepted = threads.submit(() -> server.accept(group, WAIT));
            RdmaEndpoint client = RdmaEndpoint.connect(at, group, WAIT);
            RdmaEndpoint peer = accepted.get();
            threads.submit(() -> {
                for (int i = 0; i < warmUp + rounds; i++) {
                    peer.send(peer.receive().join()).join();
                }
                return null;
            });
            Thread poller = groupThread(group);
            ByteBuffer message = ByteBuffer.allocate(16);
            for (int i = 0; i < warmUp; i++) {
                client.send(message).join();
                client.receive().join();
            }
            long pollerBefore = ThreadCounters.allocatedBytes(poller);
            long callerBefore = ThreadCounters.allocatedBytes(Thread.currentThread());
            long start = System.nanoTime();
            for (int i = 0; i < rounds; i++) {
                client.send(message).join();
                client.receive().join();
            }
            long nanos = System.nanoTime() - start;
            long caller = ThreadCounters.allocatedBytes(Thread.currentThread()) - callerBefore;
            long polling = ThreadCounters.allocatedBytes(poller) - pollerBefore;
            // each round trip: the polling thread posts 2 sends and delivers 2 messages (a 16-byte copy each)
            double pollerPerMessage = polling / (4.0 * rounds);
            System.out.printf("  %d round trips of 16 bytes, %.1f us each; polling thread %.1f bytes per message"
                    + " handled, caller %.1f bytes per round trip%n", rounds, nanos / 1e3 / rounds, pollerPerMessage,
                    caller / (double) rounds);
            // the delivered copy (a ByteBuffer over a 16-byte array, about 72 bytes) and waking a
            // virtual thread are all the polling thread may allocate: no work request, SGE or record
            require(pollerPerMessage <= 128, "the polling thread allocates " + pollerPerMessage + " bytes per message");
            client.close();
            peer.close();
        }
    }

    /**
     * The blocking form between two endpoints of one group, the peer echoing on a platform
     * thread: 100 numbered messages of every length from 1 to 100 bytes come back in order, with
     * the client's sends 40 ahead of its receives (more than its send slots); then, after a
     * warm-up, the bytes allocated over 3,000 round trips of 16 bytes by the caller, the peer's
     * thread and the polling thread: less than a byte per round trip (none per message; a
     * deoptimization in the window may allocate once what compiled code had kept in registers).
     * In {@code mode}: the callers park, or poll the group's completion queue themselves; then
     * the bound is on the caller's and the peer's threads, and the idle group's thread is allowed
     * under 16 bytes a round trip: its wake-ups are not per message, and an object made per message
     * (16 bytes at least, two messages a round trip) would still fail the check.
     */
    private void blockingForm(PollingMode mode) throws Exception {
        InetSocketAddress at = address();
        int warmUp = 3000;
        int rounds = 3000;
        try (RdmaServer server = RdmaServer.listen(at);
                EndpointGroup group = new EndpointGroup(2, mode);
                ExecutorService threads = Executors.newVirtualThreadPerTaskExecutor();
                Arena arena = Arena.ofShared()) {
            Future<RdmaEndpoint> accepted = threads.submit(() -> server.accept(group, WAIT));
            RdmaEndpoint client = RdmaEndpoint.connect(at, group, WAIT);
            RdmaEndpoint peer = accepted.get();
            MemorySegment echoed = arena.allocate(RdmaEndpoint.MAX_MESSAGE);
            Thread echoing = Thread.ofPlatform().start(() -> {
                try {
                    while (true) {
                        peer.send(echoed, peer.receive(echoed));
                    }
                } catch (ClosedChannelException done) {
                    // the client closed
                }
            });
            MemorySegment out = arena.allocate(RdmaEndpoint.MAX_MESSAGE);
            MemorySegment in = arena.allocate(RdmaEndpoint.MAX_MESSAGE);
            for (int i = 1; i <= MESSAGES; i++) {
                out.fill((byte) i);
                client.send(out.asSlice(0, i));
                if (i > 40) {
                    receiveNumbered(client, in, i - 40);
                }
            }
            for (int i = MESSAGES - 39; i <= MESSAGES; i++) {
                receiveNumbered(client, in, i);
            }
            MemorySegment message = out.asSlice(0, 16);
            for (int i = 0; i < warmUp; i++) {
                client.send(message);
                client.receive(in);
            }
            RoundTripCost cost = RoundTripCost.measure(group, echoing, rounds, () -> {
                for (int i = 0; i < rounds; i++) {
                    client.send(message);
                    client.receive(in);
                }
            });
            System.out.println("  " + mode + ": " + cost);
            if (mode != PollingMode.ADAPTIVE) {
                // EVENT parks, BUSY polls: every thread, the group's idle one included, allocates nothing
                long all = cost.caller() + cost.echoer() + cost.polling();
                require(all < rounds, all + " bytes allocated over " + rounds + " round trips (" + groupThread(group).getName()
                        + " of " + groupThreads() + ")");
            } else {
                cost.requireAdaptiveBounds();
            }
            client.close();
            echoing.join(WAIT.toMillis());
            require(!echoing.isAlive(), "the echoing thread ended with the connection");
            peer.close();
        }
    }

    /**
     * A blocking sender in {@code mode} sends more messages than the peer has receives posted,
     * all of which fit in its send slots, and then stops calling the endpoint: those beyond the
     * credits wait in send slots, and with no caller left to post them, the group's thread must,
     * once the receiver (starting half a second later, on another group) returns credits. A sender
     * no longer wakes the thread for such a backlog in these modes; the thread, lingering, looks.
     * All arrive, in order.
     */
    private void blockingBacklog(PollingMode mode) throws Exception {
        InetSocketAddress at = address();
        int count = RdmaEndpoint.RECEIVES + 28;
        try (RdmaServer server = RdmaServer.listen(at);
                EndpointGroup clients = new EndpointGroup(1, mode);
                EndpointGroup servers = new EndpointGroup(1, mode);
                ExecutorService threads = Executors.newVirtualThreadPerTaskExecutor();
                Arena arena = Arena.ofShared()) {
            Future<RdmaEndpoint> accepted = threads.submit(() -> server.accept(servers, WAIT));
            try (RdmaEndpoint client = RdmaEndpoint.connect(at, clients, WAIT); RdmaEndpoint peer = accepted.get()) {
                MemorySegment out = arena.allocate(4);
                for (int i = 0; i < count; i++) {
                    out.set(ValueLayout.JAVA_INT, 0, i);
                    client.send(out);
                }
                Thread.sleep(500);
                MemorySegment in = arena.allocate(RdmaEndpoint.MAX_MESSAGE);
                for (int i = 0; i < count; i++) {
                    equal(4, peer.receive(in), "length of message " + i);
                    equal(i, in.get(ValueLayout.JAVA_INT, 0), "message " + i);
                }
                System.out.printf("  %s: %d messages, %d beyond the credits, all received in order%n", mode, count,
                        count - RdmaEndpoint.RECEIVES);
            }
        }
    }

    private static void receiveNumbered(RdmaEndpoint endpoint, MemorySegment into, int n) throws ClosedChannelException {
        int length = endpoint.receive(into);
        equal(n, length, "length of message " + n);
        for (int b = 0; b < length; b++) {
            equal((byte) n, into.get(ValueLayout.JAVA_BYTE, b), "byte " + b + " of message " + n);
        }
    }

    /** A blocking receive waiting when the peer disconnects, and a send after it, throw {@link ClosedChannelException}. */
    private void blockingClosed() throws Exception {
        connected((at, client, peer, threads, arena) -> {
            MemorySegment buffer = arena.allocate(RdmaEndpoint.MAX_MESSAGE);
            Future<Integer> waiting = threads.submit(() -> peer.receive(buffer));
            Thread.sleep(200);
            client.close();
            try {
                waiting.get(WAIT.toMillis(), TimeUnit.MILLISECONDS);
                throw new AssertionError("a receive completed after the peer disconnected");
            } catch (ExecutionException e) {
                require(e.getCause() instanceof ClosedChannelException, "cause " + e.getCause());
            }
            try {
                client.send(buffer.asSlice(0, 8));
                throw new AssertionError("a send on a closed endpoint returned");
            } catch (ClosedChannelException expected) {
                System.out.println("  send after close: ClosedChannelException");
            }
        });
    }

    /** The names of the endpoint group threads alive now. */
    private static Set<String> groupThreads() {
        Set<String> names = new HashSet<>();
        for (Thread t : Thread.getAllStackTraces().keySet()) {
            if (t.getName().startsWith(EndpointGroup.THREAD_NAME_PREFIX)) {
                names.add(t.getName());
            }
        }
        return names;
    }

    /** The endpoint group threads alive now that were not among {@code before}. */
    private static Set<String> groupThreadsStartedSince(Set<String> before) {
        Set<String> started = groupThreads();
        started.removeAll(before);
        return started;
    }

    /** The thread of {@code group}: measured by name, never another check's group still ending. */
    static Thread groupThread(EndpointGroup group) {
        return Thread.getAllStackTraces().keySet().stream().filter(t -> t.getName().equals(group.threadName()))
                .findFirst().orElseThrow(() -> new AssertionError("no thread " + group.threadName()));
    }

    private void closeFailsPending() throws Exception {
        connected((at, client, peer, threads, arena) -> {
            CompletableFuture<ByteBuffer> pending = client.receive();
            client.close();
            expectClosed(pending);
            expectClosed(client.receive());
            expectClosed(client.send(text("late")));
            require(peer != null, "peer");
        });
    }

    private void peerDisconnect() throws Exception {
        connected((at, client, peer, threads, arena) -> {
            CompletableFuture<ByteBuffer> pending = peer.receive();
            client.close();
            expectClosed(pending);
        });
    }

    /**
     * An RDMA WRITE with a wrong rkey: the peer's queue pair refuses it (remote access error),
     * the error completion fails that write's future, and the endpoint ends with it: a send
     * after fails with the same error. Nothing waits for ever on a work request whose completion came in error.
     */
    private void refusedWrite() throws Exception {
        connected((at, client, peer, threads, arena) -> {
            RegisteredBuffer exposed = peer.register(arena.allocate(4096, 4096));
            RemoteBuffer remote = exposed.remote();
            RemoteBuffer wrongKey = new RemoteBuffer(remote.address(), remote.rkey() ^ 0x100, remote.length());
            RegisteredBuffer local = client.register(arena.allocate(4096, 4096));
            CompletableFuture<Void> refused = client.write(local, 0, 4096, wrongKey, 0);
            try {
                refused.get(30, TimeUnit.SECONDS);
                throw new AssertionError("a write with a wrong rkey was acknowledged");
            } catch (ExecutionException expected) {
                System.out.println("  refused: " + expected.getCause());
                require(!(expected.getCause() instanceof ClosedChannelException), "the completion's error, not a close: "
                        + expected.getCause());
            }
            try {
                client.send(text("after the refused write")).get(30, TimeUnit.SECONDS);
                throw new AssertionError("a send on the ended endpoint completed");
            } catch (ExecutionException expected) {
                equal(refused.exceptionNow().getClass(), expected.getCause().getClass(), "the send's failure");
            }
            local.close();
            exposed.close();
        });
    }

    /**
     * A peer that is not an endpoint (plain rdma_cm with its own private data, as {@code rping}
     * connects) gets a reject saying so, the server's accept throws with the peer's address, and
     * the server goes on to accept an endpoint.
     */
    private void notAnEndpoint() throws Exception {
        InetSocketAddress at = address();
        try (RdmaServer server = RdmaServer.listen(at);
                EventChannel stranger = EventChannel.create();
                ExecutorService threads = Executors.newVirtualThreadPerTaskExecutor()) {
            Future<RdmaEndpoint> refused = threads.submit(() -> server.accept(WAIT));
            RdmaCmId id = stranger.createId(PortSpace.TCP);
            id.resolveAddr(null, at, WAIT);
            stranger.expect(CmEventType.ADDR_RESOLVED, WAIT);
            id.resolveRoute(WAIT);
            stranger.expect(CmEventType.ROUTE_RESOLVED, WAIT);
            id.connect(new ConnParam().privateData("hello".getBytes(StandardCharsets.US_ASCII)).retryCount(1));
            CmEvent rejected = stranger.expect(CmEventType.REJECTED, WAIT);
            System.out.println("  stranger: " + rejected);
            String reason = "not an endpoint hello";
            equal(reason, new String(rejected.privateData(), 0, reason.length(), StandardCharsets.US_ASCII),
                    "reject's private data");
            try {
                refused.get(WAIT.toMillis(), TimeUnit.MILLISECONDS);
                throw new AssertionError("accepted a connect request that is not an endpoint's");
            } catch (ExecutionException e) {
                System.out.println("  server: " + e.getCause());
                require(e.getCause() instanceof RdmaException
                        && e.getCause().getMessage().contains("not an endpoint's hello"), "cause " + e.getCause());
            }
            Future<RdmaEndpoint> accepted = threads.submit(() -> server.accept(WAIT));
            try (RdmaEndpoint client = RdmaEndpoint.connect(at, WAIT); RdmaEndpoint peer = accepted.get()) {
                client.send(text("after the stranger")).get(WAIT.toMillis(), TimeUnit.MILLISECONDS);
                equal("after the stranger", text(peer.receive().get(WAIT.toMillis(), TimeUnit.MILLISECONDS)), "message");
            }
        }
    }

    private static void expectClosed(CompletableFuture<?> future) throws Exception {
        try {
            future.get(WAIT.toMillis(), TimeUnit.MILLISECONDS);
            throw new AssertionError("completed normally");
        } catch (ExecutionException e) {
            require(e.getCause() instanceof ClosedChannelException, "cause " + e.getCause());
        } catch (CompletionException e) {
            require(e.getCause() instanceof ClosedChannelException, "cause " + e.getCause());
        }
    }
}
