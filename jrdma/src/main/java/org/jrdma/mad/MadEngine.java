package org.jrdma.mad;

import java.time.Duration;
import java.util.ArrayDeque;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.Semaphore;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.jrdma.RdmaException;
import org.jrdma.iba.Mad;
import org.jrdma.iba.wire.Bits;
import org.jrdma.iba.wire.MadDecoder;

/**
 * The request/response machinery of a MAD agent (IBA 13.4.6): gives every request a 64-bit
 * transaction ID, sends it, matches the response by TID, resends with the same TID when no
 * response comes in time, and bounds how many requests are in flight at once.
 *
 * <p>Responses are matched on the low 32 bits of the TID, because the kernel's umad replaces the
 * high 32 bits with the agent's own (and ibsim the high 16 with its client's number). Any number of
 * threads, typically virtual threads of a scheduler, may call {@link #execute} concurrently; each
 * blocks until its own response arrives. One receiver thread reads the transport, hands responses
 * to the requests waiting for them, and queues MADs that are requests from other nodes for
 * {@link #receiveRequest}. A request made by {@link #submit} has no thread waiting: the receiver
 * thread resends it on its timeouts and runs its completion with the response, so a caller with
 * thousands to make (a discovery) costs no thread park and wake per MAD.
 *
 * <p><b>RMPP.</b> Where the transport does not do RMPP (IBA 13.6) for a class itself
 * ({@link MadTransport#reassemblesRmpp}), the engine does, both ways and for requests as for
 * responses: a response that arrives as the first DATA segment of a transfer is received to its
 * end, acknowledged window by window, and returned reassembled, as the kernel returns it, and a
 * segment of it that comes again once it is whole (the sender missed our last ACK) is acknowledged
 * again, so that the sender ends at once rather than resending until its retries run out; a
 * request that does (a client's large SubnAdmSet, GetMulti or vendor Set) is received the same way
 * on a virtual thread of its own and queued for {@link #receiveRequest} only once whole, at most
 * {@value #MAX_REQUEST_TRANSFERS} at a time (the sender of one more is told STOP, resources
 * exhausted), and a segment of one received lately that comes again (the sender missed our last
 * ACK) is acknowledged again; a request longer than one MAD is sent segmented ({@link #execute}). The ACK, STOP
 * and ABORT packets a receiver sends back are handed to the {@link RmppSender} sending that
 * transfer, never queued as requests; a transfer that breaks the protocol or stalls is aborted
 * and never delivered.
 */
public final class MadEngine implements AutoCloseable {
    /** How many unanswered incoming requests are kept before new ones are dropped. */
    private static final int REQUEST_QUEUE = 1024;
    /** How many packets of one transaction (responses, RMPP segments or ACKs) wait to be taken. */
    private static final int INBOX = 4 * RmppReceiver.WINDOW;
    private static final int RECEIVE_SLICE_MILLIS = 50;
    /** How many multi-segment requests may be being received at once. */
    static final int MAX_REQUEST_TRANSFERS = 64;
    /** How many requests received whole are remembered, to acknowledge their last segment again. */
    private static final int FINISHED_REQUEST_TRANSFERS = 256;
    /** RMPPStatus of a STOP: the receiver has no resources for the transfer (IBA 13.6.2.2). */
    private static final int STATUS_RESOURCES_EXHAUSTED = 1;
    private static final int TID_OFFSET = 8;
    private static final int TID_LOW_OFFSET = 12;
    private static final int STATUS_OFFSET = 4;
    /** Put in every waiting inbox when the engine closes or its receiver fails, to wake the waiter. */
    private static final ReceivedMad STOPPED = new ReceivedMad(new byte[MadDecoder.MAD_SIZE], MadAddress.smp(0), true);

    private final MadTransport transport;
    private final Semaphore outstanding;
    private final int maxOutstanding;
    /** The packets of waiting requests by the low 32 bits of their TID: the kernel's umad rewrites the high 32 bits. */
    private final Map<Integer, BlockingQueue<ReceivedMad>> pending = new ConcurrentHashMap<>();
    /** The RMPP ACK/STOP/ABORT packets of transfers being sent, by the low 32 bits of their TID. */
    private final Map<Integer, BlockingQueue<ReceivedMad>> rmppSenders = new ConcurrentHashMap<>();
    /** The requests of {@link #submit} awaiting their response, by the low 32 bits of their TID. */
    private final Map<Integer, AsyncExchange> submitted = new ConcurrentHashMap<>();
    /** Requests of {@link #submit} waiting for the bound on requests in flight. */
    private final ArrayDeque<AsyncExchange> queuedSubmits = new ArrayDeque<>();
    private final BlockingQueue<ReceivedMad> requests = new ArrayBlockingQueue<>(REQUEST_QUEUE);
    /** The requests queued or being answered, whose copies are dropped. */
    private final RequestsInService inService = new RequestsInService();
    private final AtomicLong duplicateRequests = new AtomicLong();
    /** The segments of multi-segment requests being received, by sender and TID low bits. */
    private final Map<RequestTransfer, BlockingQueue<ReceivedMad>> requestTransfers = new ConcurrentHashMap<>();
    private final AtomicLong failedRequestTransfers = new AtomicLong();
    /**
     * The last segment of the latest requests received whole: a resent segment of one (our last
     * ACK was lost) is acknowledged again, IBA 13.6.3.1's time-wait, rather than ignored.
     */
    private final Map<RequestTransfer, Long> finishedRequestTransfers = Collections.synchronizedMap(new LinkedHashMap<>() {
        @Override
        protected boolean removeEldestEntry(Map.Entry<RequestTransfer, Long> eldest) {
            return size() > FINISHED_REQUEST_TRANSFERS;
        }
    });
    /** The same for the latest responses received whole by RMPP, by responder and TID low bits. */
    private final Map<RequestTransfer, Long> finishedResponseTransfers = Collections.synchronizedMap(new LinkedHashMap<>() {
        @Override
        protected boolean removeEldestEntry(Map.Entry<RequestTransfer, Long> eldest) {
            return size() > FINISHED_REQUEST_TRANSFERS;
        }
    });
    private volatile Duration requestSegmentTimeout = Duration.ofSeconds(1);
    private volatile int requestSegmentRetries = 3;
    private final long tidPrefix = (long) ThreadLocalRandom.current().nextInt() << 32;
    private final AtomicInteger tidCounter = new AtomicInteger();
    private final AtomicLong unmatched = new AtomicLong();
    private final AtomicBoolean closed = new AtomicBoolean();
    private final Thread receiver;
    private volatile MadTracer tracer = MadTracer.NONE;
    /** The P_Key index of GMP requests addressed at index 0 ({@link #gmpPkeyIndex(int)}). */
    private volatile int gmpPkeyIndex;
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

    /**
     * Sets the P_Key table index of the GMP requests ({@link #execute}, {@link #submit}) whose
     * address names index 0, the default P_Key's: the diags' {@code -Y/--pkey-idx}, which libibmad
     * puts in the address of every request but an SMP's. SMPs, which IBA 13.5.1 sends with the
     * default P_Key, and responses, which go back at the index their request came in on, keep
     * their address. 0, the default, changes nothing.
     *
     * @param index an index into the local port's P_Key table, 0..0xFFFF
     */
    public void gmpPkeyIndex(int index) {
        if (index < 0 || index > 0xFFFF) {
            throw new IllegalArgumentException("P_Key index " + index + " outside 0..0xFFFF");
        }
        this.gmpPkeyIndex = index;
    }

    /** {@code to}, for a GMP request addressed at P_Key index 0, at {@link #gmpPkeyIndex(int)}'s index instead. */
    private MadAddress requestAddress(byte[] request, MadAddress to) {
        int index = gmpPkeyIndex;
        if (index == 0 || to.pkeyIndex() != 0 || MadAddress.isSmp(request[1] & 0xFF)) {
            return to;
        }
        return new MadAddress(to.lid(), to.qpn(), to.qkey(), to.sl(), index, to.gid(), to.agentId());
    }

    /**
     * A transaction as its requester names it: who sends (LID and QP) and the low 32 bits of the
     * TID; keys the multi-segment requests and responses being received, and {@link RequestsInService}.
     */
    record RequestTransfer(int lid, int qpn, int tid) {
    }

    /**
     * How long a multi-segment request being received may wait for each segment, and how many
     * times it is acknowledged again before it is aborted (default 1 s and 3).
     */
    public void requestSegmentTimeouts(Duration timeout, int retries) {
        if (timeout.isNegative() || timeout.isZero() || retries < 0) {
            throw new IllegalArgumentException("timeout " + timeout + " must be positive and retries " + retries + " at least 0");
        }
        this.requestSegmentTimeout = timeout;
        this.requestSegmentRetries = retries;
    }

    /** Multi-segment requests that were aborted, stopped or stalled, and so never delivered. */
    public long failedRequestTransfers() {
        return failedRequestTransfers.get();
    }

    /**
     * The transactions and transfers this engine holds state for now: requests awaiting their
     * response (and the RMPP reassembly of that response), RMPP transfers being sent, and
     * multi-segment requests being received. Each is forgotten when it ends, answered, failed,
     * stopped or aborted, so an idle engine has none, whatever came before.
     */
    public int openTransactions() {
        return pending.size() + submitted.size() + rmppSenders.size() + requestTransfers.size();
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
     * Requests from other nodes dropped as copies of one queued or being answered: the requester
     * resent it (same TID) because the answer was late ({@link RequestsInService}).
     */
    public long duplicateRequests() {
        return duplicateRequests.get();
    }

    /**
     * Registers this engine's transport as the agent serving requests of a class, version, set of
     * methods and (for vendor classes 0x30-0x4F) OUI, as {@link MadTransport#registerServer}; the
     * requests then come out of {@link #receiveRequest}.
     */
    public void registerServer(int mgmtClass, int classVersion, long methodMask, int oui) {
        checkOpen();
        transport.registerServer(mgmtClass, classVersion, methodMask, oui);
    }

    /**
     * Sends a request and waits for its response. A fresh TID is written into the request's
     * header; a missing response is retried with the same TID, and a response whose status says
     * the responder is busy is retried too. A request longer than one MAD is sent by RMPP (each
     * attempt a whole transfer, acknowledged by the receiver). A response that starts an RMPP
     * transfer the transport does not reassemble is received to its end and returned reassembled.
     *
     * @param request a MAD whose header is filled in except the TID: 256 bytes, or for classes with
     *                the RMPP header a transfer in the form {@link Rmpp} describes
     * @param to      where to send it
     * @param timeout how long to wait for each attempt (and each RMPP segment)
     * @param retries how many times to resend after the first attempt
     * @return the response
     * @throws MadTimeoutException when every attempt went unanswered, or the responder stayed busy
     *                             (the exception then holds its last reply)
     * @throws MadException        when an RMPP transfer of the response fails
     */
    public ReceivedMad execute(byte[] request, MadAddress to, Duration timeout, int retries) {
        checkOpen();
        long tid = newTransactionId();
        Bits.u64(request, TID_OFFSET, tid);
        MadAddress address = requestAddress(request, to);
        try {
            outstanding.acquire();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new RdmaException("interrupted while waiting to send a MAD", e);
        }
        // Linked, not an array of INBOX slots: most transactions receive one packet, and this is made per MAD.
        BlockingQueue<ReceivedMad> inbox = new LinkedBlockingQueue<>(INBOX);
        pending.put((int) tid, inbox);
        try {
            ReceivedMad reply = exchange(request, address, tid, inbox, timeout, retries);
            if (Rmpp.isData(reply) && !transport.reassemblesRmpp(reply.mad()[1] & 0xFF)) {
                RmppReceiver receiver = new RmppReceiver(this, request, reply, inbox, timeout, retries);
                ReceivedMad whole = receiver.receive();
                finishedResponseTransfers.put(new RequestTransfer(reply.from().lid(), reply.from().qpn(), (int) tid), receiver.segments());
                return whole;
            }
            return reply;
        } finally {
            pending.remove((int) tid);
            outstanding.release();
        }
    }

    private ReceivedMad exchange(byte[] request, MadAddress to, long tid, BlockingQueue<ReceivedMad> inbox, Duration timeout,
            int retries) {
        int attempts = 0;
        while (true) {
            attempts++;
            if (request.length > MadDecoder.MAD_SIZE) {
                sendTransfer(request, to, timeout, retries);
            } else {
                tracer.sent(request, to);
                transport.send(request, to);
            }
            ReceivedMad reply = await(inbox, timeout);
            boolean busy = reply != null && !reply.dropped() && (Bits.u16(reply.mad(), STATUS_OFFSET) & Mad.STATUS_BUSY) != 0;
            if (reply != null && !reply.dropped() && !busy) {
                return reply;
            }
            if (attempts > retries) {
                throw unanswered(request, to, tid, reply, busy, attempts, timeout);
            }
            if (busy) {
                pause(Math.min(timeout.toMillis(), 20));
            }
        }
    }

    /** The failure of a request that every attempt left unanswered ({@code reply} null), dropped or busy. */
    private MadTimeoutException unanswered(byte[] request, MadAddress to, long tid, ReceivedMad reply, boolean busy, int attempts,
            Duration timeout) {
        String why = reply == null ? "no response" : reply.dropped() ? "the fabric could not deliver it" : "the responder stayed busy";
        tracer.timeout(request, to, attempts);
        return new MadTimeoutException(String.format("MAD TID 0x%016x to LID %d QP %d via %s: %s after %d attempt%s of %d ms",
                tid, to.lid(), to.qpn(), transport.describe(), why, attempts, attempts == 1 ? "" : "s",
                timeout.toMillis()), new MadException.Exchange(request, busy ? reply.mad() : null, null));
    }

    /** What {@link #submit} calls when a request is over, on the engine's receiver thread (or the submitter's). */
    @FunctionalInterface
    public interface Completion {
        /**
         * The request is over: {@code reply} is its response, or null when it failed with
         * {@code failure} ({@link MadTimeoutException}, or {@link IllegalStateException} /
         * {@link RdmaException} when the engine closed or its receiver failed). Runs on the
         * receiver thread: it must not block, and may {@link #submit} more.
         */
        void completed(ReceivedMad reply, RuntimeException failure);
    }

    /**
     * Sends a request and returns at once; {@code done} is called with the response, or the
     * failure, by the engine's receiver thread, which matches the response, resends with the same
     * TID on a timeout and after a busy reply, exactly as {@link #execute} does, with no thread
     * waiting: a caller with many requests to make (a discovery) hands each reply on from the
     * receiver without parking and waking a thread per MAD. Requests beyond the engine's bound
     * on requests in flight are sent as earlier ones finish.
     *
     * @param request a 256-byte MAD of a class without the RMPP header, header filled in but the TID
     * @throws IllegalArgumentException if the request is longer than one MAD or of a class with the RMPP header
     */
    public void submit(byte[] request, MadAddress to, Duration timeout, int retries, Completion done) {
        if (request.length != MadDecoder.MAD_SIZE || Rmpp.hasRmppHeader(request[1] & 0xFF)) {
            throw new IllegalArgumentException("only single MADs of classes without RMPP are submitted, not a "
                    + request.length + "-byte MAD of class 0x" + Integer.toHexString(request[1] & 0xFF));
        }
        checkOpen();
        long tid = newTransactionId();
        Bits.u64(request, TID_OFFSET, tid);
        AsyncExchange a = new AsyncExchange(request, requestAddress(request, to), tid, timeout, retries, done);
        if (outstanding.tryAcquire()) {
            start(a);
            return;
        }
        synchronized (queuedSubmits) {
            queuedSubmits.add(a);
        }
        startQueued();
    }

    /** Sends a submitted request that holds a permit, its first attempt. */
    private void start(AsyncExchange a) {
        submitted.put((int) a.tid, a);
        attempt(a);
    }

    /** Sends the next attempt of {@code a}, or fails it when the engine stopped meanwhile. */
    private void attempt(AsyncExchange a) {
        a.attempts++;
        a.busy = null;
        a.deadline = System.nanoTime() + a.timeout.toNanos();
        try {
            checkOpen();
            tracer.sent(a.request, a.to);
            transport.send(a.request, a.to);
        } catch (RuntimeException e) {
            finish(a, null, e);
        }
    }

    /** Takes queued submitted requests while permits are free. */
    private void startQueued() {
        while (true) {
            AsyncExchange next;
            synchronized (queuedSubmits) {
                if (queuedSubmits.isEmpty() || !outstanding.tryAcquire()) {
                    return;
                }
                next = queuedSubmits.poll();
            }
            start(next);
        }
    }

    /** Ends a submitted request (once: the first of its reply, failure or the engine's stop wins) and tells its caller. */
    private void finish(AsyncExchange a, ReceivedMad reply, RuntimeException failure) {
        if (!submitted.remove((int) a.tid, a)) {
            return;
        }
        outstanding.release();
        startQueued();
        a.done.completed(reply, failure);
    }

    /** A packet answering a submitted request: its response, or a busy or dropped reply to resend after. */
    private void answered(AsyncExchange a, ReceivedMad in) {
        boolean busy = !in.dropped() && (Bits.u16(in.mad(), STATUS_OFFSET) & Mad.STATUS_BUSY) != 0;
        if (!in.dropped() && !busy) {
            finish(a, in, null);
        } else if (a.attempts > a.retries) {
            finish(a, null, unanswered(a.request, a.to, a.tid, in, busy, a.attempts, a.timeout));
        } else if (busy) {
            a.busy = in;
            a.deadline = System.nanoTime() + Duration.ofMillis(Math.min(a.timeout.toMillis(), 20)).toNanos();
        } else {
            attempt(a);
        }
    }

    /** Resends, or fails, the submitted requests whose deadline has passed; returns the millis until the next deadline. */
    private int expireSubmitted() {
        long now = System.nanoTime();
        long next = Long.MAX_VALUE;
        for (AsyncExchange a : submitted.values()) {
            if (a.deadline - now > 0) {
                next = Math.min(next, a.deadline - now);
            } else if (a.busy == null && a.attempts > a.retries) {
                finish(a, null, unanswered(a.request, a.to, a.tid, null, false, a.attempts, a.timeout));
            } else {
                attempt(a);
            }
        }
        return next == Long.MAX_VALUE ? RECEIVE_SLICE_MILLIS : Math.clamp(next / 1_000_000 + 1, 1, RECEIVE_SLICE_MILLIS);
    }

    /**
     * The next packet of a transaction, or null if none came within {@code timeout}.
     *
     * @throws IllegalStateException if the engine closed meanwhile
     * @throws RdmaException         if its receiver failed meanwhile
     */
    ReceivedMad await(BlockingQueue<ReceivedMad> inbox, Duration timeout) {
        ReceivedMad in;
        try {
            in = inbox.poll(timeout.toNanos(), TimeUnit.NANOSECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new RdmaException("interrupted while waiting for a MAD", e);
        }
        if (in == STOPPED) {
            checkOpen();
            throw new IllegalStateException("MAD engine on " + transport.describe() + " stopped");
        }
        return in;
    }

    /** Sends a MAD that expects no response (a response we serve, a trap, a Send, an RMPP segment). */
    public void send(byte[] mad, MadAddress to) {
        checkOpen();
        tracer.sent(mad, to);
        transport.send(mad, to);
        if (Mad.answersRequest(mad[3] & 0xFF)) {
            inService.answered(to, (int) Bits.u32(mad, TID_LOW_OFFSET));
        }
    }

    /**
     * Sends a transfer longer than one MAD: whole, with the RMPP header active, to a transport that
     * segments it itself (the kernel's umad), else segmented by an {@link RmppSender}.
     *
     * @param transfer the transfer in the form {@link Rmpp} describes, its TID set
     * @throws MadException when the receiver stops or aborts it, or leaves it unacknowledged past {@code retries}
     */
    void sendTransfer(byte[] transfer, MadAddress to, Duration timeout, int retries) {
        if (transport.reassemblesRmpp(transfer[1] & 0xFF)) {
            Rmpp.header(transfer).rmppVersion(Rmpp.VERSION).rmppType(Rmpp.TYPE_DATA).rmppRespTime(Rmpp.NO_RESP_TIME)
                    .rmppFlags(Rmpp.FLAG_ACTIVE);
            send(transfer, to);
            return;
        }
        new RmppSender(this, transfer, to, timeout, retries).send();
    }

    /**
     * Waits for a request from another node (a Get/Set/Send for an agent we serve); a request sent
     * by RMPP comes out reassembled, longer than 256 bytes.
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

    /**
     * Starts taking the RMPP ACK, STOP and ABORT packets of the transfer with TID low bits
     * {@code tid}, for the {@link RmppSender} sending it; while open, copies of the request it
     * answers are dropped.
     *
     * @return where the packets go, or null if a transfer with that TID is being sent already
     *         (the reply to an earlier copy of the same request)
     */
    BlockingQueue<ReceivedMad> openRmppSender(int tid) {
        checkOpen();
        BlockingQueue<ReceivedMad> acks = new ArrayBlockingQueue<>(INBOX);
        return rmppSenders.putIfAbsent(tid, acks) == null ? acks : null;
    }

    /** Stops taking the packets of a transfer {@link #openRmppSender} started. */
    void closeRmppSender(int tid) {
        rmppSenders.remove(tid);
    }

    private void receiveLoop() {
        try {
            int slice = RECEIVE_SLICE_MILLIS;
            while (!closed.get()) {
                ReceivedMad in = transport.receive(slice);
                slice = submitted.isEmpty() ? RECEIVE_SLICE_MILLIS : expireSubmitted();
                if (in == null) {
                    continue;
                }
                tracer.received(in);
                byte[] mad = in.mad();
                int tid = (int) Bits.u32(mad, TID_LOW_OFFSET);
                boolean control = Rmpp.isControl(in);
                AsyncExchange async;
                if (control && (rmppSenders.containsKey(tid) || Rmpp.header(mad).rmppType() == Rmpp.TYPE_ACK)) {
                    deliver(rmppSenders, tid, in);
                } else if ((Mad.answersRequest(mad[3] & 0xFF) || in.dropped()) && (async = submitted.get(tid)) != null) {
                    answered(async, in);
                } else if (Mad.answersRequest(mad[3] & 0xFF) || in.dropped()) {
                    if (in.dropped() || pending.containsKey(tid) || !acknowledgedAgain(in, tid)) {
                        deliver(pending, tid, in);
                    }
                } else if (Rmpp.isActive(mad, in.length()) && !transport.reassemblesRmpp(mad[1] & 0xFF)) {
                    requestSegment(in, tid);
                } else if (!rmppSenders.containsKey(tid)) {
                    offerRequest(in, tid);
                }
            }
        } catch (RuntimeException e) {
            if (!closed.get()) {
                receiverFailure = e;
                stopWaiters();
            }
        }
    }

    /** Queues a request for {@link #receiveRequest}, unless it is a copy of one queued or being answered, or the queue is full. */
    private void offerRequest(ReceivedMad in, int tid) {
        if (!inService.admit(in.from(), tid, System.nanoTime())) {
            duplicateRequests.incrementAndGet();
        } else if (!requests.offer(in)) {
            inService.answered(in.from(), tid);
        }
    }

    /**
     * A packet of a request sent by RMPP: a segment (or the sender's STOP or ABORT) of a transfer
     * being received goes to it; a lone First-and-Last segment is a whole request; a First segment
     * starts receiving a transfer; anything else belongs to no transfer and is dropped.
     */
    private void requestSegment(ReceivedMad in, int tid) {
        RequestTransfer key = new RequestTransfer(in.from().lid(), in.from().qpn(), tid);
        BlockingQueue<ReceivedMad> transfer = requestTransfers.get(key);
        if (transfer != null) {
            if (!transfer.offer(in)) {
                unmatched.incrementAndGet();
            }
            return;
        }
        int flags = Rmpp.header(in.mad()).rmppFlags();
        Long finished = finishedRequestTransfers.get(key);
        if (finished != null && Rmpp.isData(in) && (flags & Rmpp.FLAG_FIRST) == 0 && Rmpp.header(in.mad()).data1() <= finished) {
            send(Rmpp.control(in.mad(), true, Rmpp.TYPE_ACK, 0, finished, finished), in.from());
        } else if (!Rmpp.isData(in) || (flags & Rmpp.FLAG_FIRST) == 0 || rmppSenders.containsKey(tid)) {
            unmatched.incrementAndGet(); // a late packet of a transfer over, or a copy of a request being answered
        } else if ((flags & Rmpp.FLAG_LAST) != 0) {
            offerRequest(in, tid);
        } else if (requestTransfers.size() >= MAX_REQUEST_TRANSFERS) {
            send(Rmpp.control(in.mad(), true, Rmpp.TYPE_STOP, STATUS_RESOURCES_EXHAUSTED, 0, 0), in.from());
        } else {
            BlockingQueue<ReceivedMad> inbox = new ArrayBlockingQueue<>(INBOX);
            requestTransfers.put(key, inbox);
            Thread.ofVirtual().name("jrdma-rmpp-request").start(() -> receiveRequestTransfer(key, in, inbox));
        }
    }

    private void receiveRequestTransfer(RequestTransfer key, ReceivedMad first, BlockingQueue<ReceivedMad> inbox) {
        try {
            RmppReceiver receiver = new RmppReceiver(this, null, first, inbox, requestSegmentTimeout, requestSegmentRetries);
            ReceivedMad whole = receiver.receive();
            finishedRequestTransfers.put(key, receiver.segments());
            offerRequest(whole, key.tid());
        } catch (RuntimeException e) {
            failedRequestTransfers.incrementAndGet(); // the sender was told (ABORT), or it gave up itself
        } finally {
            requestTransfers.remove(key);
        }
    }

    /**
     * Acknowledges again a DATA segment of a response received whole lately that comes again (the
     * responder missed our last ACK: IBA 13.6.3.1's time-wait); false if it is not one.
     */
    private boolean acknowledgedAgain(ReceivedMad in, int tid) {
        Long last = finishedResponseTransfers.get(new RequestTransfer(in.from().lid(), in.from().qpn(), tid));
        if (last == null || !Rmpp.isData(in) || (Rmpp.header(in.mad()).rmppFlags() & Rmpp.FLAG_FIRST) != 0
                || Rmpp.header(in.mad()).data1() > last) {
            return false;
        }
        send(Rmpp.control(in.mad(), true, Rmpp.TYPE_ACK, 0, last, last), in.from());
        return true;
    }

    private void stopWaiters() {
        RuntimeException stopped;
        try {
            checkOpen();
            stopped = new IllegalStateException("MAD engine on " + transport.describe() + " stopped");
        } catch (RuntimeException e) {
            stopped = e;
        }
        synchronized (queuedSubmits) {
            for (AsyncExchange a : queuedSubmits) {
                a.done.completed(null, stopped);
            }
            queuedSubmits.clear();
        }
        for (AsyncExchange a : submitted.values()) {
            finish(a, null, stopped);
        }
        pending.values().forEach(inbox -> inbox.offer(STOPPED));
        rmppSenders.values().forEach(inbox -> inbox.offer(STOPPED));
        requestTransfers.values().forEach(inbox -> inbox.offer(STOPPED));
    }

    private void deliver(Map<Integer, BlockingQueue<ReceivedMad>> waiting, int tid, ReceivedMad in) {
        BlockingQueue<ReceivedMad> inbox = waiting.get(tid);
        if (inbox == null || !inbox.offer(in)) {
            unmatched.incrementAndGet();
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
        stopWaiters();
        transport.close();
    }
}
