package org.jrdma.endpoint;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.ClosedChannelException;
import java.time.Duration;
import java.util.Objects;
import java.util.Queue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;
import org.jrdma.cm.CmEvent;
import org.jrdma.cm.CmEventType;
import org.jrdma.cm.ConnParam;
import org.jrdma.cm.EventChannel;
import org.jrdma.cm.PortSpace;
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
import org.jrdma.verbs.RecvWr;
import org.jrdma.verbs.SendFlags;
import org.jrdma.verbs.SendWr;
import org.jrdma.verbs.Sge;
import org.jrdma.verbs.WcBuffer;
import org.jrdma.verbs.WcOpcode;
import org.jrdma.verbs.WrOpcode;

/**
 * One reliable connection (RC over rdma_cm) carrying messages: {@link #send} and {@link #receive}
 * return {@link CompletableFuture}s, completed by the platform thread of the endpoint's
 * {@link EndpointGroup} that polls the completion queue, so a virtual thread waiting on
 * {@code join()} pins no carrier. Made by {@link #connect} or {@link RdmaServer#accept}, in a group
 * of its own or in one shared with other endpoints.
 *
 * <p>Flow control is credit based, and the credits cost no receive buffer: each side posts
 * {@link #RECEIVES} receives and announces, in the connection's private data, where an 8-byte
 * counter of its own lives (address and rkey). A received message keeps its buffer until the
 * application takes it with {@link #receive}; then the buffer is reposted and the number of
 * receives posted so far is RDMA-written into the peer's counter. A sender posts a message only
 * while it has sent fewer messages than the peer has posted receives, and queues it otherwise:
 * a fast sender waits for a slow receiver and never meets a receiver-not-ready NAK (the queue pair
 * is connected with no RNR retries, so one would fail the connection).
 *
 * <p>One-sided operations move data without the peer's CPU: the peer {@link #register}s memory
 * and hands its {@link RemoteBuffer} over in a message, then {@link #write} (RDMA WRITE) and
 * {@link #read} (RDMA READ) target it. They need no credit, so they may overtake messages still
 * waiting for one; each shares the send slots with messages.
 *
 * <p>Messages have two forms. The asynchronous one ({@link #send(ByteBuffer)},
 * {@link #receive()}) makes a future and a copy per message. The blocking one
 * ({@link #send(MemorySegment)}, {@link #send(MemorySegment, long)}, {@link #receive(MemorySegment)}) allocates nothing: a send copies
 * the message straight into one of the endpoint's registered send buffers (waiting while all
 * {@link #SEND_SLOTS} are in use) and returns, the group's thread posting it when a credit allows;
 * a receive waits for the next message and copies it out of its registered receive buffer, which
 * the group's thread then reposts. A caller waits parked, so a virtual thread releases its carrier.
 * The forms may be mixed: messages of one thread go out in the order of its calls in either
 * form, and each arrival goes to whichever receive asks first.
 *
 * <p>{@link #close()} disconnects and fails every pending send and receive with
 * {@link ClosedChannelException}; a disconnect by the peer does the same, and a blocking call
 * then throws it.
 */
public final class RdmaEndpoint implements AutoCloseable {
    /** The largest message, in bytes. */
    public static final int MAX_MESSAGE = 4096;
    /** Receives posted per endpoint, the peer's initial credits. */
    public static final int RECEIVES = 32;
    /** Messages and one-sided operations posted and not yet completed at once (at most 32: {@link #freeSlots} is a bit set). */
    static final int SEND_SLOTS = 16;
    /** The private data: receives (4 bytes), counter address (8), counter rkey (4), big-endian. */
    private static final int HELLO = 16;
    private static final ValueLayout.OfLong COUNTER = ValueLayout.JAVA_LONG;
    private static final long CM_CHECK_NANOS = 5_000_000L;
    private static final long RECV_ID = 1L << 32;
    private static final long CREDIT_WRITE_ID = 2L << 32;
    /** Where in {@link #mr} our counter is, which the peer RDMA-writes its posted receives into. */
    private static final long COUNTER_OFFSET = (long) (RECEIVES + SEND_SLOTS) * MAX_MESSAGE;
    /** Where in {@link #mr} the value we RDMA-write into the peer's counter is staged. */
    private static final long POSTED_OFFSET = COUNTER_OFFSET + 8;

    private final RdmaCmId id;
    private final EventChannel channel;
    private final EndpointGroup group;
    /** Whether {@link #group} was made for this endpoint alone, and closes with it. */
    private final boolean ownGroup;
    private final Pd pd;
    private final Cq cq;
    private final Qp qp;
    private final Arena arena = Arena.ofShared();
    /** Receive buffers, then send slots, then our counter, then the value we write into the peer's counter. */
    private final Mr mr;
    private long peerCounterAddr;
    private int peerCounterRkey;
    private int peerReceives;

    private final Queue<Pending> sends = new ConcurrentLinkedQueue<>();
    private final Queue<OneSided> oneSided = new ConcurrentLinkedQueue<>();
    private final Queue<CompletableFuture<ByteBuffer>> receives = new ConcurrentLinkedQueue<>();
    /**
     * Messages received and not yet taken (a ring of receive slots and lengths, at most
     * {@link #RECEIVES}), and receive slots taken by {@link #receive(MemorySegment)} for the
     * group's thread to repost: guarded by {@link #arrivalLock}, shared by the group's thread and
     * blocking receivers.
     */
    private final Object arrivalLock = new Object();
    private final int[] arrivedSlots = new int[RECEIVES];
    private final int[] arrivedLengths = new int[RECEIVES];
    private int arrivedHead;
    private int arrivedCount;
    private final int[] takenSlots = new int[RECEIVES];
    private int takenCount;
    /**
     * Send slots filled by {@link #send(MemorySegment)} and not yet posted, in order (slot and
     * length): guarded by {@link #filledLock}.
     */
    private final Object filledLock = new Object();
    private final int[] filledSlots = new int[SEND_SLOTS];
    private final int[] filledLengths = new int[SEND_SLOTS];
    private int filledHead;
    private int filledCount;
    /** Free send slots, one bit each: claimed by the group's thread and by blocking senders. */
    private final AtomicInteger freeSlots = new AtomicInteger((int) ((1L << SEND_SLOTS) - 1));
    /** A thread parked in a blocking send or receive, to unpark when a slot frees or a message arrives. */
    private volatile Thread sendWaiter;
    private volatile Thread receiveWaiter;
    /** Group-thread state, reused so that the thread makes no garbage per message: counts and the work requests. */
    private final RecvWr recvWr = new RecvWr();
    private final SendWr sendWr = new SendWr();
    private final Sge sge = new Sge(0, 0, 0);
    private final CompletableFuture<?>[] inFlight = new CompletableFuture<?>[SEND_SLOTS];
    private long sent;
    private long receivesPosted;
    /** Receives reposted since the count was last RDMA-written to the peer. */
    private int unannounced;
    private long nextCmCheck;
    /** Completed by the group's thread once it no longer touches this endpoint. */
    private final CompletableFuture<Void> detached = new CompletableFuture<>();
    private volatile boolean closing;
    /** Whether {@link #start} has the peer's counter: until then the group's thread only queues arrivals. */
    private volatile boolean started;
    private volatile Throwable failure;

    private record Pending(ByteBuffer message, CompletableFuture<Void> done) {
    }

    /** An RDMA WRITE or READ between local {@code sge} and the peer's {@code remoteAddr}. */
    private record OneSided(WrOpcode opcode, Sge sge, long remoteAddr, int rkey, CompletableFuture<Void> done) {
    }


    private RdmaEndpoint(RdmaCmId id, EventChannel channel, EndpointGroup group, boolean ownGroup) {
        this.id = id;
        this.channel = channel;
        this.group = group;
        this.ownGroup = ownGroup;
        Context ctx = id.context();
        this.cq = group.join(this, ctx);
        try {
            this.pd = ctx.pd();
            this.qp = id.createQp(pd, new QpInitAttr(QpType.RC, cq, cq).cap(new QpCap(SEND_SLOTS + RECEIVES, RECEIVES, 1, 1, 0)));
            this.mr = pd.mr(arena.allocate(POSTED_OFFSET + 8, 4096), Access.LOCAL_WRITE | Access.REMOTE_WRITE);
        } catch (RuntimeException e) {
            group.leave(this);
            throw e;
        }
        for (int i = 0; i < RECEIVES; i++) {
            postReceive(i);
        }
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
            return connect(remote, own, true, timeout);
        } catch (RuntimeException e) {
            own.close();
            throw e;
        }
    }

    /**
     * Connects as {@link #connect(InetSocketAddress, Duration)} does, with the endpoint in
     * {@code group}: its completions are polled with the group's other endpoints'.
     *
     * @throws IllegalStateException when the group is full or closed
     */
    public static RdmaEndpoint connect(InetSocketAddress remote, EndpointGroup group, Duration timeout) {
        return connect(remote, Objects.requireNonNull(group, "group"), false, timeout);
    }

    private static RdmaEndpoint connect(InetSocketAddress remote, EndpointGroup group, boolean ownGroup,
            Duration timeout) {
        EventChannel channel = EventChannel.create();
        try {
            RdmaCmId id = channel.createId(PortSpace.TCP);
            id.resolveAddr(null, Objects.requireNonNull(remote, "remote"), timeout);
            channel.expect(CmEventType.ADDR_RESOLVED, timeout);
            id.resolveRoute(timeout);
            channel.expect(CmEventType.ROUTE_RESOLVED, timeout);
            RdmaEndpoint endpoint = new RdmaEndpoint(id, channel, group, ownGroup);
            try {
                id.connect(endpoint.param());
                CmEvent established = channel.expect(CmEventType.ESTABLISHED, timeout);
                endpoint.start(established.privateData());
                return endpoint;
            } catch (RuntimeException e) {
                endpoint.close();
                throw e;
            }
        } catch (RuntimeException e) {
            channel.close();
            throw e;
        }
    }

    /** The passive side of a connect request that {@link RdmaServer} moved to {@code channel}: accepts it. */
    static RdmaEndpoint accept(RdmaCmId request, EventChannel channel, byte[] hello, EndpointGroup group,
            boolean ownGroup, Duration timeout) {
        RdmaEndpoint endpoint = new RdmaEndpoint(request, channel, group, ownGroup);
        try {
            request.accept(endpoint.param());
            channel.expect(CmEventType.ESTABLISHED, timeout);
            endpoint.start(hello);
            return endpoint;
        } catch (RuntimeException e) {
            endpoint.close();
            throw e;
        }
    }

    private ConnParam param() {
        ByteBuffer hello = ByteBuffer.allocate(HELLO).order(ByteOrder.BIG_ENDIAN);
        hello.putInt(RECEIVES).putLong(mr.addr() + COUNTER_OFFSET).putInt(mr.rkey());
        return new ConnParam().privateData(hello.array()).responderResources(1).initiatorDepth(1).retryCount(7)
                .rnrRetryCount(0);
    }

    private void start(byte[] peerHello) {
        ByteBuffer hello = ByteBuffer.wrap(peerHello).order(ByteOrder.BIG_ENDIAN);
        peerReceives = hello.getInt();
        peerCounterAddr = hello.getLong();
        peerCounterRkey = hello.getInt();
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
        sends.add(new Pending(copy, done));
        group.wake();
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
        oneSided.add(new OneSided(opcode, sge, remote.address() + remoteOffset, remote.rkey(), done));
        group.wake();
        failIfClosed();
        return done;
    }

    /** The next message, in order: completes when it arrives, or exceptionally when the connection ends first. */
    public CompletableFuture<ByteBuffer> receive() {
        CompletableFuture<ByteBuffer> next = new CompletableFuture<>();
        receives.add(next);
        group.wake();
        failIfClosed();
        return next;
    }

    /**
     * Sends the bytes of {@code message} (at most {@link #MAX_MESSAGE}) without allocating: waits
     * until one of the endpoint's registered send buffers is free, copies the message into it and
     * returns; the group's thread posts it after the messages sent before it, once the peer has a
     * receive posted. A failure of the connection after this returns is seen by the next call.
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
        int slot = claimSlot();
        if (slot < 0) {
            Thread me = Thread.currentThread();
            while (true) {
                sendWaiter = me;
                slot = claimSlot();
                if (slot >= 0) {
                    sendWaiter = null;
                    break;
                }
                throwIfEnded();
                LockSupport.park(this);
            }
        }
        MemorySegment.copy(buffer, 0, mr.memory(), (long) (RECEIVES + slot) * MAX_MESSAGE, length);
        synchronized (filledLock) {
            int tail = (filledHead + filledCount++) % SEND_SLOTS;
            filledSlots[tail] = slot;
            filledLengths[tail] = (int) length;
        }
        group.wake();
        throwIfEnded();
    }

    /**
     * Receives the next message into {@code into} without allocating: waits until one has
     * arrived, copies it out of its registered receive buffer and returns its length; the group's
     * thread reposts the buffer and returns the credit.
     *
     * @throws IllegalArgumentException when the message is longer than {@code into} (it stays
     *                                  the next message)
     * @throws ClosedChannelException   when the endpoint is closed, the peer disconnected or the
     *                                  connection failed (the cause says how)
     */
    public int receive(MemorySegment into) throws ClosedChannelException {
        Thread me = Thread.currentThread();
        while (true) {
            receiveWaiter = me;
            throwIfEnded();
            synchronized (arrivalLock) {
                if (arrivedCount > 0) {
                    receiveWaiter = null;
                    int slot = arrivedSlots[arrivedHead];
                    int length = arrivedLengths[arrivedHead];
                    if (length > into.byteSize()) {
                        throw new IllegalArgumentException("message of " + length + " bytes, buffer of " + into.byteSize());
                    }
                    arrivedHead = (arrivedHead + 1) % RECEIVES;
                    arrivedCount--;
                    MemorySegment.copy(mr.memory(), (long) slot * MAX_MESSAGE, into, 0, length);
                    takenSlots[takenCount++] = slot;
                    group.wake();
                    return length;
                }
            }
            LockSupport.park(this);
        }
    }

    private void throwIfEnded() throws ClosedChannelException {
        if (closing || failure != null) {
            ClosedChannelException closed = new ClosedChannelException();
            if (failure != null && !(failure instanceof ClosedChannelException)) {
                closed.initCause(failure);
            }
            throw closed;
        }
    }

    /** Takes a free send slot, or returns -1 if none is free. */
    private int claimSlot() {
        while (true) {
            int free = freeSlots.get();
            if (free == 0) {
                return -1;
            }
            int slot = Integer.numberOfTrailingZeros(free);
            if (freeSlots.compareAndSet(free, free & ~(1 << slot))) {
                return slot;
            }
        }
    }

    private void releaseSlot(int slot) {
        int free;
        do {
            free = freeSlots.get();
        } while (!freeSlots.compareAndSet(free, free | 1 << slot));
        unpark(sendWaiter);
    }

    private void failIfClosed() {
        if (closing || failure != null) {
            failAll(failure != null ? failure : new ClosedChannelException());
        }
    }

    /**
     * The group thread's turn: posts what the credits and send slots allow, delivers arrived
     * messages, and every few milliseconds looks for the peer's disconnect; a failure ends the
     * endpoint ({@link #isDone}).
     */
    boolean work() {
        if (!started || isDone()) {
            return false;
        }
        try {
            boolean busy = repostTaken();
            busy |= postSends();
            busy |= deliver();
            if (System.nanoTime() > nextCmCheck) {
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

    /** The group thread hands over completion {@code i} of {@code wcs}, one of this endpoint's queue pair. */
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
        if (wcs.opcode(i) == WcOpcode.RECV) {
            synchronized (arrivalLock) {
                int tail = (arrivedHead + arrivedCount++) % RECEIVES;
                arrivedSlots[tail] = (int) (wrId - RECV_ID);
                arrivedLengths[tail] = wcs.byteLen(i);
            }
            unpark(receiveWaiter);
        } else if (wrId < SEND_SLOTS) {
            int slot = (int) wrId;
            @SuppressWarnings("unchecked")
            CompletableFuture<Void> done = (CompletableFuture<Void>) inFlight[slot];
            inFlight[slot] = null;
            releaseSlot(slot);
            if (done != null) {
                done.complete(null);
            }
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

    /** Ends the endpoint with {@code cause}, failing what is queued and waking blocked callers. */
    void fail(Throwable cause) {
        if (failure == null) {
            failure = cause;
        }
        failAll(failure);
        wakeWaiters();
    }

    private void wakeWaiters() {
        unpark(sendWaiter);
        unpark(receiveWaiter);
    }

    private static void unpark(Thread waiter) {
        if (waiter != null) {
            LockSupport.unpark(waiter);
        }
    }

    /** The group thread no longer touches this endpoint. */
    void detached() {
        failAll(failure != null ? failure : new ClosedChannelException());
        detached.complete(null);
        wakeWaiters();
    }

    private void postReceive(int slot) {
        sge.set(mr.addr() + (long) slot * MAX_MESSAGE, MAX_MESSAGE, mr.lkey());
        qp.postRecv(recvWr.wrId(RECV_ID + slot).sge(sge));
        receivesPosted++;
    }

    /**
     * Counts {@code n} receives reposted, and once they are half of {@link #RECEIVES} returns them
     * as credits. Holding fewer back never stalls the two sides: a sender out of credits has
     * at least {@code RECEIVES - unannounced} messages under way to us, which will arrive, be
     * taken and reposted.
     */
    private void reposted(int n) {
        unannounced += n;
        if (unannounced >= RECEIVES / 2) {
            writeCredits();
            unannounced = 0;
        }
    }

    /** RDMA-writes how many receives we have posted into the peer's counter: its credits. */
    private void writeCredits() {
        mr.memory().set(COUNTER, POSTED_OFFSET, receivesPosted);
        sge.set(mr.addr() + POSTED_OFFSET, 8, mr.lkey());
        qp.postSend(sendWr.wrId(CREDIT_WRITE_ID).opcode(WrOpcode.RDMA_WRITE).sge(sge)
                .flags(SendFlags.SIGNALED).rdma(peerCounterAddr, peerCounterRkey));
    }

    /** Reposts the receive buffers that blocking receives took messages from, and returns their credits. */
    private boolean repostTaken() {
        synchronized (arrivalLock) {
            if (takenCount == 0) {
                return false;
            }
            for (int i = 0; i < takenCount; i++) {
                postReceive(takenSlots[i]);
            }
            reposted(takenCount);
            takenCount = 0;
        }
        return true;
    }

    /**
     * Posts queued one-sided operations while there are free send slots, then, while there are
     * credits, the messages blocking sends filled slots with and queued messages for which a
     * slot is free.
     */
    private boolean postSends() {
        boolean posted = false;
        while (!oneSided.isEmpty()) {
            int slot = claimSlot();
            if (slot < 0) {
                break;
            }
            OneSided op = oneSided.poll();
            inFlight[slot] = op.done();
            qp.postSend(sendWr.wrId(slot).opcode(op.opcode()).sge(op.sge()).flags(SendFlags.SIGNALED)
                    .rdma(op.remoteAddr(), op.rkey()));
            posted = true;
        }
        long peerPosted = Math.max(peerReceives, mr.memory().get(COUNTER, COUNTER_OFFSET));
        while (sent < peerPosted) {
            int slot;
            int length;
            synchronized (filledLock) {
                if (filledCount > 0) {
                    slot = filledSlots[filledHead];
                    length = filledLengths[filledHead];
                    filledHead = (filledHead + 1) % SEND_SLOTS;
                    filledCount--;
                } else {
                    slot = -1;
                    length = 0;
                }
            }
            if (slot < 0) {
                if (sends.isEmpty() || (slot = claimSlot()) < 0) {
                    break;
                }
                Pending p = sends.poll();
                length = p.message().remaining();
                MemorySegment.copy(MemorySegment.ofBuffer(p.message()), 0, mr.memory(),
                        (long) (RECEIVES + slot) * MAX_MESSAGE, length);
                inFlight[slot] = p.done();
            }
            sge.set(mr.addr() + (long) (RECEIVES + slot) * MAX_MESSAGE, length, mr.lkey());
            qp.postSend(sendWr.wrId(slot).opcode(WrOpcode.SEND).sge(sge)
                    .flags(SendFlags.SIGNALED));
            sent++;
            posted = true;
        }
        return posted;
    }

    /**
     * Hands arrived messages to waiting receives, in order: copies each out of its receive
     * buffer, reposts the buffer and returns the credit. A message nobody asked for keeps its
     * buffer, so a slow receiver stops the sender.
     */
    private boolean deliver() {
        boolean delivered = false;
        while (!receives.isEmpty()) {
            int slot;
            byte[] data;
            synchronized (arrivalLock) {
                if (arrivedCount == 0) {
                    break;
                }
                slot = arrivedSlots[arrivedHead];
                data = new byte[arrivedLengths[arrivedHead]];
                arrivedHead = (arrivedHead + 1) % RECEIVES;
                arrivedCount--;
            }
            MemorySegment.copy(mr.memory(), ValueLayout.JAVA_BYTE, (long) slot * MAX_MESSAGE, data, 0, data.length);
            ByteBuffer message = ByteBuffer.wrap(data);
            postReceive(slot);
            reposted(1);
            receives.poll().complete(message);
            delivered = true;
        }
        return delivered;
    }

    private void failAll(Throwable cause) {
        for (Pending p; (p = sends.poll()) != null;) {
            p.done().completeExceptionally(cause);
        }
        for (OneSided op; (op = oneSided.poll()) != null;) {
            op.done().completeExceptionally(cause);
        }
        for (CompletableFuture<ByteBuffer> r; (r = receives.poll()) != null;) {
            r.completeExceptionally(cause);
        }
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
        for (CompletableFuture<?> f : inFlight) {
            if (f != null) {
                f.completeExceptionally(new ClosedChannelException());
            }
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
