package org.jrdma.endpoint;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.ClosedChannelException;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.Objects;
import java.util.Queue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedQueue;
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
 * <p>{@link #close()} disconnects and fails every pending send and receive with
 * {@link ClosedChannelException}; a disconnect by the peer does the same.
 */
public final class RdmaEndpoint implements AutoCloseable {
    /** The largest message, in bytes. */
    public static final int MAX_MESSAGE = 4096;
    /** Receives posted per endpoint, the peer's initial credits. */
    public static final int RECEIVES = 16;
    /** Messages and one-sided operations posted and not yet completed at once. */
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
     * Group-thread state, reused so that the thread makes no garbage per message besides the
     * delivered copy: messages received and not yet asked for (a ring of receive slots and
     * lengths, at most {@link #RECEIVES}), free send slots, counts, and the work requests.
     */
    private final int[] arrivedSlots = new int[RECEIVES];
    private final int[] arrivedLengths = new int[RECEIVES];
    private int arrivedHead;
    private int arrivedCount;
    private final RecvWr recvWr = new RecvWr();
    private final SendWr sendWr = new SendWr();
    private final Sge sge = new Sge(0, 0, 0);
    private final ArrayDeque<Integer> freeSlots = new ArrayDeque<>();
    private final CompletableFuture<?>[] inFlight = new CompletableFuture<?>[SEND_SLOTS];
    private long sent;
    private long receivesPosted;
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
        for (int i = 0; i < SEND_SLOTS; i++) {
            freeSlots.add(i);
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
            boolean busy = postSends();
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
            int tail = (arrivedHead + arrivedCount++) % RECEIVES;
            arrivedSlots[tail] = (int) (wrId - RECV_ID);
            arrivedLengths[tail] = wcs.byteLen(i);
        } else if (wrId < SEND_SLOTS) {
            int slot = (int) wrId;
            @SuppressWarnings("unchecked")
            CompletableFuture<Void> done = (CompletableFuture<Void>) inFlight[slot];
            inFlight[slot] = null;
            freeSlots.add(slot);
            done.complete(null);
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

    /** Ends the endpoint with {@code cause}, failing what is queued. */
    void fail(Throwable cause) {
        if (failure == null) {
            failure = cause;
        }
        failAll(failure);
    }

    /** The group thread no longer touches this endpoint. */
    void detached() {
        failAll(failure != null ? failure : new ClosedChannelException());
        detached.complete(null);
    }

    private void postReceive(int slot) {
        sge.set(mr.addr() + (long) slot * MAX_MESSAGE, MAX_MESSAGE, mr.lkey());
        qp.postRecv(recvWr.wrId(RECV_ID + slot).sge(sge));
        receivesPosted++;
    }

    /** RDMA-writes how many receives we have posted into the peer's counter: its credits. */
    private void writeCredits() {
        mr.memory().set(COUNTER, POSTED_OFFSET, receivesPosted);
        sge.set(mr.addr() + POSTED_OFFSET, 8, mr.lkey());
        qp.postSend(sendWr.wrId(CREDIT_WRITE_ID).opcode(WrOpcode.RDMA_WRITE).sge(sge)
                .flags(SendFlags.SIGNALED).rdma(peerCounterAddr, peerCounterRkey));
    }

    /** Posts queued one-sided operations while there are free send slots, then messages while there are credits too. */
    private boolean postSends() {
        boolean posted = false;
        while (!freeSlots.isEmpty() && !oneSided.isEmpty()) {
            OneSided op = oneSided.poll();
            int slot = freeSlots.poll();
            inFlight[slot] = op.done();
            qp.postSend(sendWr.wrId(slot).opcode(op.opcode()).sge(op.sge()).flags(SendFlags.SIGNALED)
                    .rdma(op.remoteAddr(), op.rkey()));
            posted = true;
        }
        long peerPosted = Math.max(peerReceives, mr.memory().get(COUNTER, COUNTER_OFFSET));
        while (sent < peerPosted && !freeSlots.isEmpty() && !sends.isEmpty()) {
            Pending p = sends.poll();
            int slot = freeSlots.poll();
            long offset = (long) (RECEIVES + slot) * MAX_MESSAGE;
            MemorySegment.copy(MemorySegment.ofBuffer(p.message()), 0, mr.memory(), offset, p.message().remaining());
            inFlight[slot] = p.done();
            sge.set(mr.addr() + offset, p.message().remaining(), mr.lkey());
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
        while (arrivedCount > 0 && !receives.isEmpty()) {
            int slot = arrivedSlots[arrivedHead];
            byte[] data = new byte[arrivedLengths[arrivedHead]];
            arrivedHead = (arrivedHead + 1) % RECEIVES;
            arrivedCount--;
            MemorySegment.copy(mr.memory(), ValueLayout.JAVA_BYTE, (long) slot * MAX_MESSAGE, data, 0, data.length);
            ByteBuffer message = ByteBuffer.wrap(data);
            postReceive(slot);
            writeCredits();
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
