package org.jrdma.endpoint;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.ClosedChannelException;
import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import org.jrdma.cm.CmEvent;
import org.jrdma.cm.CmEventType;
import org.jrdma.cm.ConnParam;
import org.jrdma.cm.EventChannel;
import org.jrdma.cm.RdmaCmId;
import org.jrdma.verbs.Access;
import org.jrdma.verbs.Context;
import org.jrdma.verbs.Cq;
import org.jrdma.verbs.Mr;
import org.jrdma.verbs.Pd;
import org.jrdma.verbs.Qp;
import org.jrdma.verbs.QpCap;
import org.jrdma.verbs.QpInitAttr;
import org.jrdma.verbs.QpType;
import org.jrdma.verbs.Sge;
import org.jrdma.verbs.WcBuffer;
import org.jrdma.verbs.WrOpcode;

/**
 * One reliable connection (RC over rdma_cm) carrying messages. Made by {@link #connect} or
 * {@link RdmaServer#accept} ({@link EndpointConnector}), in an {@link EndpointGroup} of its own or
 * in one shared with other endpoints (one completion queue, one thread).
 *
 * <p>Flow control is credit based, and the credits cost no receive buffer ({@link Credits}): each
 * side posts {@link #RECEIVES} receives and announces, in the connection's private data, where an
 * 8-byte counter of its own lives (address and rkey). A received message keeps its buffer until
 * the application takes it with {@link #receive}; then the buffer is reposted, and every
 * {@value Credits#BATCH} reposted receives the number posted so far is RDMA-written into the
 * peer's counter. A sender posts a message only while it has sent fewer messages than the peer
 * has posted receives, and queues it otherwise: a fast sender waits for a slow receiver and never
 * meets a receiver-not-ready NAK (the queue pair is connected with no RNR retries, so one would
 * fail the connection).
 *
 * <p>One-sided operations move data without the peer's CPU: the peer {@link #register}s memory
 * and hands its {@link RemoteBuffer} over in a message, then {@link #write} (RDMA WRITE) and
 * {@link #read} (RDMA READ) target it. They need no credit, so they may overtake messages still
 * waiting for one; each takes one of the send slots ({@link SendSlots}) as a message does.
 *
 * <p>Messages have three forms. The asynchronous one ({@link #send(ByteBuffer)},
 * {@link #receive()}) makes a future and a copy per message; the futures are completed by
 * whichever thread polls the group's completion queue, so a virtual thread waiting on
 * {@code join()} pins no carrier. The blocking one ({@link #send(MemorySegment)},
 * {@link #send(MemorySegment, long)}, {@link #receive(MemorySegment)}) allocates nothing: a send
 * copies the message straight into one of the endpoint's registered send buffers (waiting while
 * all {@value SendSlots#COUNT} are in use) and posts it itself when a credit allows (else it, or
 * the group's thread, posts it once one comes); a receive waits for the next message, copies it
 * out of its registered receive buffer and reposts the buffer. The lent form copies nothing
 * either: {@link #claimSendBuffer()} lends a registered send buffer to write the message into and
 * {@link #send(SendBuffer, int)} sends it from there; {@link #receiveInPlace()} lends the receive
 * buffer a message arrived in until {@link #release(ReceivedMessage)}; {@link #tryClaimSendBuffer()}
 * and {@link #tryReceiveInPlace()} do the same without waiting, for one thread that drives many
 * endpoints in turn. How a caller waits is the
 * group's {@link PollingMode}: parked until the group's thread unparks it, or polling the
 * completion queue itself ({@link CallerWait}). The forms may be mixed: messages of one thread go
 * out in the order of its calls in any form, and each arrival goes to whichever receive asks first.
 *
 * <p>Sends are posted in chains ({@link SendChain}: one {@code ibv_post_send} for what is ready)
 * and signaled only every {@value SendChain#SIGNAL_EVERY} messages, when a future waits for them,
 * when few send slots are left, or with the last credit: a signaled completion retires the
 * unsignaled sends before it. A lone message, every receive and every credit write go out as a
 * work request prepared once
 * ({@link org.jrdma.verbs.PreparedWr}), posted under the endpoint's lock, which also guards the
 * queue pair's destruction ({@link Qp#guardWith}), so the queue pair goes to libibverbs by
 * address: a post is one downcall with no atomic operation of its own.
 *
 * <p>{@link #close()} disconnects and fails every pending send and receive with
 * {@link ClosedChannelException}; a disconnect by the peer does the same, and a blocking call
 * then throws it.
 */
public final class RdmaEndpoint implements AutoCloseable {
    /** The largest message, in bytes. */
    public static final int MAX_MESSAGE = 4096;
    /** Receives posted per endpoint, the peer's initial credits. */
    public static final int RECEIVES = 64;
    private static final long CM_CHECK_NANOS = 5_000_000L;
    /** Work request ids: the kind in the high bits; a receive's buffer, or a send's sequence number below. */
    private static final long KIND = 3L << 62;
    static final long RECV_ID = 1L << 62;
    static final long CREDIT_WRITE_ID = 2L << 62;
    /** Where in {@link #mr} our counter is, which the peer RDMA-writes its posted receives into. */
    private static final long COUNTER_OFFSET = (long) (RECEIVES + SendSlots.COUNT) * MAX_MESSAGE;
    /** Where in {@link #mr} the value we RDMA-write into the peer's counter is staged. */
    private static final long POSTED_OFFSET = COUNTER_OFFSET + 8;

    private final RdmaCmId id;
    private final EventChannel channel;
    private final EndpointGroup group;
    /** Whether {@link #group} was made for this endpoint alone, and closes with it. */
    private final boolean ownGroup;
    private final Pd pd;
    private final Qp qp;
    private final Arena arena = Arena.ofShared();
    /** Receive buffers, then send slots, then our counter, then the value we write into the peer's counter. */
    private final Mr mr;
    private final Credits credits;
    private final SendSlots slots = new SendSlots();
    /** The registered buffers lent to the application ({@link #claimSendBuffer}, {@link #receiveInPlace}). */
    private final LentBuffers lent;

    private final SendChain sendChain;
    /** The receive buffers, the messages arrived in them, and the receives waiting for one. */
    private final ReceiveSide receiving;
    /** How blocking callers wait, and who wakes them. */
    private final CallerWait waiting;
    /**
     * Guards posting and what it changes: {@link #credits}, {@link #slots}, {@link #sendChain},
     * and the receive side's buffers and arrivals.
     */
    private final PostingLock lock;
    private long nextCmCheck;
    /** Completed by the group's thread once it no longer touches this endpoint. */
    private final CompletableFuture<Void> detached = new CompletableFuture<>();
    private volatile boolean closing;
    /** Whether {@link #start} has the peer's counter: until then the group's thread only queues arrivals. */
    private volatile boolean started;
    private volatile Throwable failure;

    /** An endpoint on {@code id}, whose queue pair is made now; {@link EndpointConnector} connects it. */
    RdmaEndpoint(RdmaCmId id, EventChannel channel, EndpointGroup group, boolean ownGroup) {
        this.id = id;
        this.channel = channel;
        this.group = group;
        this.ownGroup = ownGroup;
        this.waiting = new CallerWait(this, group);
        this.lock = new PostingLock(slots, waiting::wakeSender);
        Context ctx = id.context();
        Cq cq = group.join(this, ctx);
        try {
            this.pd = ctx.pd();
            this.qp = id.createQp(pd, new QpInitAttr(QpType.RC, cq, cq)
                    .cap(new QpCap(SendSlots.COUNT + RECEIVES, RECEIVES, 1, 1, 0)));
            qp.guardWith(lock.guard());
            this.mr = pd.mr(arena.allocate(POSTED_OFFSET + 8, 4096), Access.LOCAL_WRITE | Access.REMOTE_WRITE);
            this.credits = new Credits(mr.memory().asSlice(COUNTER_OFFSET, 8));
            this.lent = new LentBuffers(this, mr.memory());
            this.sendChain = new SendChain(qp, mr, slots, credits, POSTED_OFFSET, lock::claimSlot);
            this.receiving = new ReceiveSide(this, qp, mr, lock, credits, sendChain, lent, waiting);
        } catch (RuntimeException e) {
            group.leave(this);
            throw e;
        }
        receiving.postAll();
        group.attach(this);
    }

    /**
     * Connects to an {@link RdmaServer} at {@code remote}: resolves the address and route, makes
     * the queue pair, exchanges the flow-control counters, and starts polling.
     *
     * @throws org.jrdma.cm.CmEventException when a step's event is not the expected one in time
     */
    public static RdmaEndpoint connect(InetSocketAddress remote, Duration timeout) {
        EndpointGroup own = new EndpointGroup(1);
        try {
            return EndpointConnector.connect(remote, own, true, timeout);
        } catch (RuntimeException e) {
            own.close();
            throw e;
        }
    }

    /**
     * Connects as {@link #connect(InetSocketAddress, Duration)} does, with the endpoint in
     * {@code group}: its completions are polled with the group's other endpoints', and its
     * callers wait as the group's {@link PollingMode} says.
     *
     * @throws IllegalStateException when the group is full or closed
     */
    public static RdmaEndpoint connect(InetSocketAddress remote, EndpointGroup group, Duration timeout) {
        return EndpointConnector.connect(remote, Objects.requireNonNull(group, "group"), false, timeout);
    }

    /** The connection parameters this endpoint connects or accepts with: its {@link Hello} as private data, no RNR retries. */
    ConnParam param() {
        return new ConnParam().privateData(new Hello(RECEIVES, mr.addr() + COUNTER_OFFSET, mr.rkey()).encode())
                .responderResources(1).initiatorDepth(1).retryCount(7).rnrRetryCount(0);
    }

    /** Starts sending once the connection is established, with the peer's first credits and counter. */
    void start(Hello peer) {
        lock.lock();
        try {
            credits.start(peer.receives(), peer.counterAddr(), peer.counterRkey());
            sendChain.startCredits();
        } finally {
            lock.unlock();
        }
        started = true;
    }

    /**
     * Sends {@code message} (its remaining bytes, at most {@link #MAX_MESSAGE}; copied before this
     * returns): the future completes when the peer's queue pair has acknowledged it, or
     * exceptionally when the connection fails or closes first.
     */
    public CompletableFuture<Void> send(ByteBuffer message) {
        if (message.remaining() > MAX_MESSAGE) {
            throw new IllegalArgumentException("message of " + message.remaining() + " bytes, more than " + MAX_MESSAGE);
        }
        ByteBuffer copy = ByteBuffer.allocate(message.remaining()).put(message.duplicate()).flip();
        CompletableFuture<Void> done = new CompletableFuture<>();
        sendChain.queueMessage(copy, done);
        postOrHandOver();
        failIfClosed();
        return done;
    }

    /**
     * Registers {@code memory} with this endpoint's protection domain, open to the peer's RDMA
     * WRITE and READ and usable as the local side of {@link #write} and {@link #read}.
     */
    public RegisteredBuffer register(MemorySegment memory) {
        return new RegisteredBuffer(pd.mr(memory, Access.LOCAL_WRITE | Access.REMOTE_WRITE | Access.REMOTE_READ));
    }

    /**
     * RDMA-writes {@code length} bytes of {@code local} from {@code offset} into {@code remote}
     * from {@code remoteOffset}: the future completes when the peer's queue pair has acknowledged
     * the write (the data is in the peer's memory), or exceptionally when the connection fails or
     * closes first.
     *
     * @throws IndexOutOfBoundsException if a range is outside its buffer
     */
    public CompletableFuture<Void> write(RegisteredBuffer local, long offset, long length, RemoteBuffer remote,
            long remoteOffset) {
        return oneSided(WrOpcode.RDMA_WRITE, local, offset, length, remote, remoteOffset);
    }

    /**
     * RDMA-reads {@code length} bytes of {@code remote} from {@code remoteOffset} into
     * {@code local} from {@code offset}: the future completes when the data is in {@code local}.
     *
     * @throws IndexOutOfBoundsException if a range is outside its buffer
     */
    public CompletableFuture<Void> read(RegisteredBuffer local, long offset, long length, RemoteBuffer remote,
            long remoteOffset) {
        return oneSided(WrOpcode.RDMA_READ, local, offset, length, remote, remoteOffset);
    }

    private CompletableFuture<Void> oneSided(WrOpcode opcode, RegisteredBuffer local, long offset, long length,
            RemoteBuffer remote, long remoteOffset) {
        Objects.checkFromIndexSize(remoteOffset, length, remote.length());
        Sge sge = local.sge(offset, length);
        CompletableFuture<Void> done = new CompletableFuture<>();
        sendChain.queueOneSided(opcode, sge, remote.address() + remoteOffset, remote.rkey(), done);
        postOrHandOver();
        failIfClosed();
        return done;
    }

    /** The next message, in order: completes when it arrives, or exceptionally when the connection ends first. */
    public CompletableFuture<ByteBuffer> receive() {
        CompletableFuture<ByteBuffer> next = receiving.receive();
        failIfClosed();
        return next;
    }

    /**
     * Sends the bytes of {@code message} (at most {@link #MAX_MESSAGE}) without allocating: waits
     * until one of the endpoint's registered send buffers is free, copies the message into it and
     * posts it after the messages sent before it if the peer has a receive posted (else the
     * group's thread posts it once the peer has), and returns. A failure of the connection after
     * this returns is seen by the next call.
     *
     * @throws ClosedChannelException when the endpoint is closed, the peer disconnected or the
     *                                connection failed (the cause says how)
     */
    public void send(MemorySegment message) throws ClosedChannelException {
        send(message, message.byteSize());
    }

    /**
     * Sends the first {@code length} bytes of {@code buffer} as {@link #send(MemorySegment)}
     * sends a message: for echoing what {@link #receive(MemorySegment)} put in a buffer without
     * making a slice of it.
     *
     * @throws IndexOutOfBoundsException if {@code length} is negative or beyond {@code buffer}
     * @throws ClosedChannelException    when the endpoint is closed, the peer disconnected or the
     *                                   connection failed (the cause says how)
     */
    public void send(MemorySegment buffer, long length) throws ClosedChannelException {
        Objects.checkFromIndexSize(0, length, buffer.byteSize());
        if (length > MAX_MESSAGE) {
            throw new IllegalArgumentException("message of " + length + " bytes, more than " + MAX_MESSAGE);
        }
        throwIfEnded();
        boolean backlog;
        int slot = lockFreeSlot();
        try {
            MemorySegment.copy(buffer, 0, mr.memory(), sendOffset(slot), length);
            backlog = fillAndPostLocked(slot, (int) length);
        } finally {
            lock.unlock();
        }
        group.senderReturned(backlog);
        throwIfEnded();
    }

    /**
     * Lends one of the endpoint's registered send buffers to the caller, waiting while none is
     * free as {@link #send(MemorySegment)} waits: the caller writes its message into the
     * buffer's memory and sends it with {@link #send(SendBuffer, int)}, with no copy, or gives it
     * back with {@link #release(SendBuffer)}. Allocates nothing. While the caller holds it, the
     * buffer is one fewer for this endpoint's other sends and one-sided operations.
     *
     * @throws ClosedChannelException when the endpoint is closed, the peer disconnected or the
     *                                connection failed (the cause says how)
     */
    public SendBuffer claimSendBuffer() throws ClosedChannelException {
        throwIfEnded();
        int slot = lockFreeSlot();
        try {
            return lent.lendSend(slot);
        } finally {
            lock.unlock();
        }
    }

    /**
     * Lends one of the endpoint's registered send buffers if one is free now, and returns
     * {@code null} if none is, never waiting: the form for a thread that drives many endpoints in
     * turn, as {@code ib_send_bw -q} drives its queue pairs from one loop, rather than one thread
     * per endpoint. When none is free and the group's callers poll ({@link PollingMode#ADAPTIVE},
     * {@link PollingMode#BUSY}), it polls the group's completion queue once first, which frees the
     * buffers of completed sends and posts what waits for credits; in {@link PollingMode#EVENT}
     * the group's thread does that. Allocates nothing.
     *
     * @throws ClosedChannelException when the endpoint is closed, the peer disconnected or the
     *                                connection failed (the cause says how)
     */
    public SendBuffer tryClaimSendBuffer() throws ClosedChannelException {
        throwIfEnded();
        int slot = lockClaimedSlot();
        if (slot < 0 && (!waiting.pollOnce() || (slot = lockClaimedSlot()) < 0)) {
            return null;
        }
        try {
            return lent.lendSend(slot);
        } finally {
            lock.unlock();
        }
    }

    /**
     * Sends the first {@code length} bytes of {@code buffer}, lent by {@link #claimSendBuffer()}
     * or {@link #tryClaimSendBuffer()},
     * from where they are: posted after the messages sent before it if the peer has a receive
     * posted (else once it has), as {@link #send(MemorySegment)} sends. The buffer is the
     * endpoint's again. Allocates nothing.
     *
     * @throws IllegalArgumentException  if {@code buffer} is another endpoint's, or not lent now
     *                                   (sent or given back already)
     * @throws IndexOutOfBoundsException if {@code length} is negative or more than {@link #MAX_MESSAGE}
     * @throws ClosedChannelException    when the endpoint is closed, the peer disconnected or the
     *                                   connection failed (the cause says how)
     */
    public void send(SendBuffer buffer, int length) throws ClosedChannelException {
        Objects.checkFromIndexSize(0, length, MAX_MESSAGE);
        throwIfEnded();
        boolean backlog;
        lock.lock();
        try {
            backlog = fillAndPostLocked(lent.returnSend(this, buffer), length);
        } finally {
            lock.unlock();
        }
        group.senderReturned(backlog);
        throwIfEnded();
    }

    /**
     * Gives back a send buffer lent by {@link #claimSendBuffer()} without sending it.
     *
     * @throws IllegalArgumentException if {@code buffer} is another endpoint's, or not lent now
     */
    public void release(SendBuffer buffer) {
        lock.lock();
        try {
            slots.release(lent.returnSend(this, buffer));
        } finally {
            lock.unlock();
        }
        waiting.wakeSender();
    }

    /** Takes a free send slot, waiting while none is; returns with {@link #lock} held. */
    private int lockFreeSlot() throws ClosedChannelException {
        int slot;
        while ((slot = lockClaimedSlot()) < 0) {
            waiting.await(CallerWait.FREE_SLOT);
        }
        return slot;
    }

    /** Claims a free send slot and returns it with {@link #lock} held, or returns -1, unlocked, when none is free. */
    private int lockClaimedSlot() {
        lock.lock();
        int slot = lock.claimSlot();
        if (slot < 0) {
            lock.unlock();
        }
        return slot;
    }

    /**
     * Queues claimed send slot {@code slot}, holding a message of {@code length} bytes, behind the
     * messages before it and posts what the credits allow; returns whether messages still wait
     * for credits. The caller holds {@link #lock}.
     */
    private boolean fillAndPostLocked(int slot, int length) {
        slots.fill(slot, length);
        if (started) {
            postLocked();
        }
        return hasBacklog();
    }

    /**
     * Receives the next message into {@code into} without allocating: waits until one has
     * arrived, copies it out of its registered receive buffer, reposts the buffer (returning the
     * credits in batches) and returns the message's length.
     *
     * @throws IllegalArgumentException when the message is longer than {@code into} (it stays
     *                                  the next message)
     * @throws ClosedChannelException   when the endpoint is closed, the peer disconnected or the
     *                                  connection failed (the cause says how)
     */
    public int receive(MemorySegment into) throws ClosedChannelException {
        return receiving.receive(into);
    }

    /**
     * Receives the next message where it arrived, in one of the endpoint's registered receive
     * buffers, with no copy: waits as {@link #receive(MemorySegment)} waits and lends the buffer
     * to the caller until {@link #release(ReceivedMessage)}, which posts it again. A buffer held
     * is a credit the peer lacks (see {@link ReceivedMessage}). Allocates nothing.
     *
     * @throws ClosedChannelException when the endpoint is closed, the peer disconnected or the
     *                                connection failed (the cause says how)
     */
    public ReceivedMessage receiveInPlace() throws ClosedChannelException {
        return receiving.receiveInPlace();
    }

    /**
     * Lends the receive buffer of the next message if one has arrived, as {@link #receiveInPlace()},
     * and returns {@code null} if none has, never waiting: the receiving counterpart of
     * {@link #tryClaimSendBuffer()}, which says when it polls the completion queue itself.
     * Allocates nothing.
     *
     * @throws ClosedChannelException when the endpoint is closed, the peer disconnected or the
     *                                connection failed (the cause says how)
     */
    public ReceivedMessage tryReceiveInPlace() throws ClosedChannelException {
        return receiving.tryReceiveInPlace();
    }

    /**
     * Gives back the receive buffer of a message lent by {@link #receiveInPlace()} or
     * {@link #tryReceiveInPlace()}: posts it
     * again, returning the credit to the peer (in batches, as every receive does).
     *
     * @throws IllegalArgumentException if {@code message} is another endpoint's, or released already
     */
    public void release(ReceivedMessage message) {
        receiving.release(message);
    }

    /** Whether what a blocking caller waits for ({@link CallerWait#ARRIVAL}, {@link CallerWait#FREE_SLOT}) may have happened. */
    boolean ready(int what) {
        return what == CallerWait.ARRIVAL ? receiving.anyArrived() : slots.anyFree() || lock.retirementPending();
    }

    /** Throws if the endpoint is closed or failed (the failure as the cause). */
    void throwIfEnded() throws ClosedChannelException {
        if (closing || failure != null) {
            ClosedChannelException closed = new ClosedChannelException();
            if (failure != null && !(failure instanceof ClosedChannelException)) {
                closed.initCause(failure);
            }
            throw closed;
        }
    }

    private void failIfClosed() {
        if (closing || failure != null) {
            failAll(failure != null ? failure : new ClosedChannelException());
        }
    }

    /** Posts what is ready from the caller's thread; what waits for a credit is the group's thread's to post. */
    private void postOrHandOver() {
        if (started) {
            post();
        }
        if (hasBacklog()) {
            group.handOver();
        }
    }

    /** Whether messages or one-sided operations wait for a credit or a send slot. */
    boolean hasBacklog() {
        return slots.anyFilled() || sendChain.hasQueued();
    }

    /**
     * The group thread's turn: posts what the credits and send slots allow, delivers arrived
     * messages to waiting futures, and every few milliseconds looks for the peer's disconnect; a
     * failure ends the endpoint ({@link #isDone}).
     */
    boolean work() {
        if (!started || isDone()) {
            return false;
        }
        try {
            if (lock.retirementPending()) {
                lock.retireIfFree();
            }
            boolean busy = hasBacklog() && postUnlessBusy();
            busy |= receiving.deliver();
            if (System.nanoTime() - nextCmCheck > 0) {
                CmEvent event = channel.getEvent(Duration.ZERO);
                if (event != null && event.type() == CmEventType.DISCONNECTED) {
                    fail(new ClosedChannelException());
                }
                nextCmCheck = System.nanoTime() + CM_CHECK_NANOS;
            }
            return busy;
        } catch (RuntimeException e) {
            fail(e);
            return true;
        }
    }

    /** The thread polling the group's completion queue hands over completion {@code i} of {@code wcs}, one of this endpoint's queue pair. */
    void completion(WcBuffer wcs, int i) {
        if (isDone()) {
            return;
        }
        try {
            wcs.check(i);
        } catch (RuntimeException e) {
            fail(e);
            return;
        }
        long wrId = wcs.wrId(i);
        long kind = wrId & KIND;
        if (kind == RECV_ID) {
            receiving.arrived((int) (wrId & ~KIND), wcs.byteLen(i));
        } else {
            // a message, a one-sided operation, or a credit write: the sends posted before it are done
            lock.sendsCompleted(kind == CREDIT_WRITE_ID ? wrId & ~KIND : (wrId & ~KIND) + 1);
        }
    }

    /** The number of the endpoint's queue pair, which its work completions carry. */
    int qpNum() {
        return qp.qpNum();
    }

    /** Whether the group thread is done with this endpoint: it is closing or has failed. */
    boolean isDone() {
        return closing || failure != null;
    }

    /**
     * Ends the endpoint with {@code cause}, failing what is queued and what is posted (its
     * completions, flushed or late, are no longer looked at) and waking blocked callers.
     */
    void fail(Throwable cause) {
        if (failure == null) {
            // what fails while the endpoint closes (a post racing the close) is the close
            failure = closing ? new ClosedChannelException() : cause;
        }
        failAll(failure);
        lock.lock();
        try {
            slots.failPosted(failure);
        } finally {
            lock.unlock();
        }
        waiting.wakeAll();
    }

    /** The group thread no longer touches this endpoint. */
    void detached() {
        failAll(failure != null ? failure : new ClosedChannelException());
        detached.complete(null);
        waiting.wakeAll();
    }

    /** Where in the endpoint's registered memory receive buffer {@code slot} is: the receive buffers come first. */
    static long receiveOffset(int slot) {
        return (long) slot * MAX_MESSAGE;
    }

    /** Where in the endpoint's registered memory send slot {@code slot} is, after the receive buffers. */
    static long sendOffset(int slot) {
        return receiveOffset(RECEIVES + slot);
    }

    /**
     * Posts, in one chain, queued one-sided operations while send slots are free, then, while
     * there are credits, the messages blocking sends filled slots with and queued messages for
     * which a slot is free. Returns whether it posted any; a failure to post ends the endpoint.
     */
    boolean post() {
        lock.lock();
        try {
            return postLocked();
        } finally {
            lock.unlock();
        }
    }

    /**
     * {@link #post()} for the group's thread, unless a caller holds {@link #lock} now: that caller
     * is posting or receiving itself, and the thread, which must not spin against it (on a CPU
     * they share it would take the caller's time), looks again soon.
     */
    private boolean postUnlessBusy() {
        if (!lock.tryLock()) {
            return false;
        }
        try {
            return postLocked();
        } finally {
            lock.unlock();
        }
    }

    /** {@link #post()} for a caller holding {@link #lock}. */
    private boolean postLocked() {
        try {
            return !isDone() && sendChain.post();
        } catch (RuntimeException e) {
            fail(e);
            return true;
        }
    }

    private void failAll(Throwable cause) {
        sendChain.failQueued(cause);
        receiving.failWaiting(cause);
    }

    /** The peer's address. */
    public InetSocketAddress remoteAddress() {
        return id.peerAddress();
    }

    /**
     * Disconnects, waits until the group's thread lets go of the endpoint, fails what is pending with {@link ClosedChannelException},
     * and frees the queue pair, buffers and identifier.
     */
    @Override
    public void close() {
        synchronized (this) {
            if (closing) {
                return;
            }
            closing = true;
        }
        group.wake();
        detached.join();
        lock.lock();
        try {
            // posting looks at closing under this lock: nothing is posted after this block
            slots.failPosted(new ClosedChannelException());
        } finally {
            lock.unlock();
        }
        failAll(failure != null ? failure : new ClosedChannelException());
        try {
            id.disconnect();
        } catch (RuntimeException alreadyDown) {
            // the peer disconnected first, or the connection failed: nothing to tear down
        }
        channel.close();
        pd.close();
        arena.close();
        group.leave(this);
        if (ownGroup) {
            group.close();
        }
    }
}
