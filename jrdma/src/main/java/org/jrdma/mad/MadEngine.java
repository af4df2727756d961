package org.jrdma.mad;

import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Semaphore;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.jrdma.MadTimeoutException;
import org.jrdma.RdmaException;
import org.jrdma.iba.Mad;
import org.jrdma.iba.wire.Bits;

/**
 * The request/response machinery of a MAD agent (IBA 13.4.6): gives every request a 64-bit
 * transaction ID, sends it, matches the response by TID, resends with the same TID when no
 * response comes in time, and bounds how many requests are in flight at once.
 *
 * <p>Responses are matched on the low 32 bits of the TID, because the kernel's umad replaces the
 * high 32 bits with the agent's own. Any number of threads, typically virtual threads of a scheduler, may call {@link #execute}
 * concurrently; each blocks until its own response arrives. One receiver thread reads the
 * transport, completes waiting requests, and queues MADs that are requests from other nodes
 * for {@link #receiveRequest}.
 */
public final class MadEngine implements AutoCloseable {
    /** How many unanswered incoming requests are kept before new ones are dropped. */
    private static final int REQUEST_QUEUE = 1024;
    private static final int RECEIVE_SLICE_MILLIS = 50;
    private static final int TID_OFFSET = 8;
    private static final int STATUS_OFFSET = 4;

    private final MadTransport transport;
    private final Semaphore outstanding;
    private final int maxOutstanding;
    /** Waiting requests by the low 32 bits of their TID: the kernel's umad rewrites the high 32 bits. */
    private final Map<Integer, CompletableFuture<ReceivedMad>> pending = new ConcurrentHashMap<>();
    private final BlockingQueue<ReceivedMad> requests = new ArrayBlockingQueue<>(REQUEST_QUEUE);
    private final long tidPrefix = (long) ThreadLocalRandom.current().nextInt() << 32;
    private final AtomicInteger tidCounter = new AtomicInteger();
    private final AtomicLong unmatched = new AtomicLong();
    private final AtomicBoolean closed = new AtomicBoolean();
    private final Thread receiver;
    private volatile MadTracer tracer = MadTracer.NONE;
    private volatile RuntimeException receiverFailure;

    /**
     * Starts an engine on a transport, which it owns from now on.
     *
     * @param maxOutstanding how many requests may await a response at once (at least 1)
     */
    public MadEngine(MadTransport transport, int maxOutstanding) {
        if (maxOutstanding < 1) {
            throw new IllegalArgumentException("maxOutstanding must be at least 1, not " + maxOutstanding);
        }
        this.transport = transport;
        this.maxOutstanding = maxOutstanding;
        this.outstanding = new Semaphore(maxOutstanding, true);
        this.receiver = Thread.ofPlatform().daemon().name("jrdma-mad-receiver " + transport.describe()).start(this::receiveLoop);
    }

    /** The transport this engine reads and writes. */
    public MadTransport transport() {
        return transport;
    }

    /** The bound on requests in flight. */
    public int maxOutstanding() {
        return maxOutstanding;
    }

    /** Sets the tracer told about every MAD sent and received ({@link MadTracer#NONE} for none). */
    public void tracer(MadTracer tracer) {
        this.tracer = tracer == null ? MadTracer.NONE : tracer;
    }

    /** A fresh transaction ID: a random 32-bit prefix of this engine and a counter. */
    public long newTransactionId() {
        return tidPrefix | (tidCounter.incrementAndGet() & 0xFFFF_FFFFL);
    }

    /** Responses that matched no waiting request (late answers to requests given up on). */
    public long unmatchedResponses() {
        return unmatched.get();
    }

    /**
     * Sends a request and waits for its response. A fresh TID is written into the request's
     * header; a missing response is retried with the same TID, and a response whose status says
     * the responder is busy is retried too.
     *
     * @param request a 256-byte MAD whose header is filled in except the TID
     * @param to      where to send it
     * @param timeout how long to wait for each attempt
     * @param retries how many times to resend after the first attempt
     * @return the response
     * @throws MadTimeoutException when every attempt went unanswered
     */
    public ReceivedMad execute(byte[] request, MadAddress to, Duration timeout, int retries) {
        checkOpen();
        long tid = newTransactionId();
        Bits.u64(request, TID_OFFSET, tid);
        try {
            outstanding.acquire();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new RdmaException("interrupted while waiting to send a MAD", e);
        }
        try {
            int attempts = 0;
            while (true) {
                attempts++;
                ReceivedMad reply = attempt(request, to, tid, timeout);
                boolean busy = reply != null && !reply.dropped() && (Bits.u16(reply.mad(), STATUS_OFFSET) & Mad.STATUS_BUSY) != 0;
                if (reply != null && !reply.dropped() && !busy) {
                    return reply;
                }
                if (attempts > retries) {
                    String why = reply == null ? "no response" : reply.dropped() ? "the fabric could not deliver it"
                            : "the responder stayed busy";
                    tracer.timeout(request, to, attempts);
                    throw new MadTimeoutException(String.format("MAD TID 0x%016x to LID %d QP %d via %s: %s after %d attempt%s of %d ms",
                            tid, to.lid(), to.qpn(), transport.describe(), why, attempts, attempts == 1 ? "" : "s",
                            timeout.toMillis()));
                }
                if (busy) {
                    pause(Math.min(timeout.toMillis(), 20));
                }
            }
        } finally {
            outstanding.release();
        }
    }

    private ReceivedMad attempt(byte[] request, MadAddress to, long tid, Duration timeout) {
        CompletableFuture<ReceivedMad> future = new CompletableFuture<>();
        pending.put((int) tid, future);
        try {
            tracer.sent(request, to);
            transport.send(request, to);
            return future.get(timeout.toNanos(), TimeUnit.NANOSECONDS);
        } catch (TimeoutException e) {
            return null;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new RdmaException("interrupted while waiting for a MAD response", e);
        } catch (ExecutionException e) {
            throw e.getCause() instanceof RuntimeException r ? r : new RdmaException("MAD receive failed", e.getCause());
        } finally {
            pending.remove((int) tid);
        }
    }

    /** Sends a MAD that expects no response (a response we serve, a trap, a Send). */
    public void send(byte[] mad, MadAddress to) {
        checkOpen();
        tracer.sent(mad, to);
        transport.send(mad, to);
    }

    /**
     * Waits for a request from another node (a Get/Set/Send for an agent we serve).
     *
     * @return the request, or null if none came in time
     */
    public ReceivedMad receiveRequest(Duration timeout) {
        checkOpen();
        try {
            return requests.poll(timeout.toNanos(), TimeUnit.NANOSECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new RdmaException("interrupted while waiting for a MAD request", e);
        }
    }

    private void receiveLoop() {
        try {
            while (!closed.get()) {
                ReceivedMad in = transport.receive(RECEIVE_SLICE_MILLIS);
                if (in == null) {
                    continue;
                }
                tracer.received(in);
                byte[] mad = in.mad();
                boolean response = (mad[3] & 0x80) != 0;
                if (response || in.dropped()) {
                    CompletableFuture<ReceivedMad> waiter = pending.get((int) Bits.u32(mad, TID_OFFSET + 4));
                    if (waiter == null || !waiter.complete(in)) {
                        unmatched.incrementAndGet();
                    }
                } else {
                    requests.offer(in);
                }
            }
        } catch (RuntimeException e) {
            if (!closed.get()) {
                receiverFailure = e;
                pending.values().forEach(f -> f.completeExceptionally(new RdmaException("MAD receiver failed on "
                        + transport.describe(), e)));
            }
        }
    }

    private void checkOpen() {
        if (closed.get()) {
            throw new IllegalStateException("MAD engine on " + transport.describe() + " is closed");
        }
        RuntimeException failure = receiverFailure;
        if (failure != null) {
            throw new RdmaException("MAD receiver failed on " + transport.describe(), failure);
        }
    }

    private static void pause(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new RdmaException("interrupted", e);
        }
    }

    /** Stops the receiver, fails waiting requests, and closes the transport. Idempotent. */
    @Override
    public void close() {
        if (!closed.compareAndSet(false, true)) {
            return;
        }
        try {
            receiver.join(Duration.ofSeconds(5));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        pending.values().forEach(f -> f.completeExceptionally(new IllegalStateException("MAD engine closed")));
        transport.close();
    }
}
