package org.jrdma.endpoint;

import java.nio.channels.ClosedChannelException;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;
import java.util.concurrent.locks.ReentrantLock;
import org.jrdma.ffi.EventFd;
import org.jrdma.ffi.Libc;
import org.jrdma.verbs.CompChannel;
import org.jrdma.verbs.Context;
import org.jrdma.verbs.Cq;
import org.jrdma.verbs.EventWaitCalls;
import org.jrdma.verbs.WcBuffer;
import org.jrdma.verbs.ffi.PollFds;

/**
 * Endpoints sharing one completion queue, its completion channel and one platform thread:
 * whichever thread polls the queue (the group's thread, or a caller waiting in a blocking
 * send or receive when the {@link PollingMode} lets callers poll) routes each work completion to
 * its endpoint by the completion's QP number. The group's thread also posts what callers could
 * not (messages waiting for a credit), completes the futures of the asynchronous form and looks
 * at each connection's events. Idle, it arms the completion queue ({@code ibv_req_notify_cq})
 * and sleeps in {@code poll(2)} on the completion channel and an eventfd that wakes it for new
 * work: an idle group uses no CPU.
 *
 * <p>Endpoints made without a group ({@link RdmaEndpoint#connect(java.net.InetSocketAddress,
 * java.time.Duration)}, {@link RdmaServer#accept(java.time.Duration)}) each get a group of their
 * own in {@link PollingMode#EVENT}. The completion queue is made on the device of the first
 * endpoint; all must be on it.
 *
 * <p>The thread is named {@code rdma-endpoint-group-N}, N counting the groups made in this JVM
 * ({@link #threadName()}), so thread dumps and profiles tell groups apart.
 *
 * <p>{@link #close()} closes the group's endpoints, stops the thread and destroys the completion
 * queue and channel.
 */
public final class EndpointGroup implements AutoCloseable {
    /** The prefix of every group thread's name. */
    public static final String THREAD_NAME_PREFIX = "rdma-endpoint-group-";
    private static final AtomicInteger GROUPS = new AtomicInteger();
    /** Completion queue entries each endpoint may need at once: its receives, sends and credit writes. */
    static final int ENTRIES_PER_ENDPOINT = 2 * (RdmaEndpoint.RECEIVES + SendSlots.COUNT);
    /** How long an {@link PollingMode#ADAPTIVE} caller polls the completion queue without pause. */
    static final int SPIN_MICROS = 500;
    static final long SPIN_NANOS = SPIN_MICROS * 1_000L;
    /**
     * How long an {@link PollingMode#ADAPTIVE} caller polls in all, parked {@link #PARKED_POLL_NANOS}
     * between polls after the spin, before it parks for the group's thread to unpark it (which
     * costs the thread a completion event, and the caller a hand-off).
     */
    static final long POLL_NANOS = 20_000_000L;
    static final long PARKED_POLL_NANOS = 20_000L;
    /** In {@link PollingMode#EVENT}, the thread first parks briefly (low latency) this many times in a row before it sleeps. */
    private static final int SHORT_PARKS = 1000;
    private static final long SHORT_PARK_NANOS = 10_000L;
    /** While messages wait for credits (which arrive by RDMA WRITE, with no completion), the thread looks this often once idle. */
    private static final long LONG_PARK_NANOS = 1_000_000L;
    /**
     * After a caller last polled, the thread leaves the completion queue to callers for one to two
     * such periods, without arming it: it looks every this many milliseconds whether a caller
     * was active since it last looked.
     */
    private static final int LINGER_MILLIS = 2;
    /** The longest sleep, after which the thread looks at the connections' events (a peer's disconnect). */
    private static final int SLEEP_MILLIS = 100;

    private final int maxEndpoints;
    private final PollingMode mode;
    /** Endpoints made in this group and not yet closed. */
    private final List<RdmaEndpoint> members = new CopyOnWriteArrayList<>();
    /**
     * The endpoints served, copied on change: a completion's endpoint is found by QP number with
     * a scan of the array, allocating nothing.
     */
    private volatile RdmaEndpoint[] attached = new RdmaEndpoint[0];
    /**
     * Held by the one thread polling the completion queue (others do not wait for it), and by
     * the queue's destruction ({@link Cq#guardWith}): polls pass the queue by address.
     */
    private final ReentrantLock polling = new ReentrantLock();
    private final WcBuffer wcs = new WcBuffer(32);
    /** Callers polling the completion queue now. */
    private final AtomicInteger spinners = new AtomicInteger();
    /** Callers parked until a completion's poller unparks them: while there are any, the thread polls too. */
    private final AtomicInteger parkedCallers = new AtomicInteger();
    /**
     * Whether a caller polled, or a blocking sender returned, since the thread last looked: set by
     * callers (a volatile write, no clock read), cleared by the lingering thread before each look.
     */
    private volatile boolean callerActive;
    private final EventFd wakeup = new EventFd();
    private final PollFds fds = new PollFds();
    private final Thread poller;
    private volatile CompChannel channel;
    private volatile Cq cq;
    /** Whether the thread is in (or about to enter) {@code poll(2)}, where only the eventfd wakes it. */
    private volatile boolean sleeping;
    /** Whether that sleep is on the armed completion queue, up to {@value #SLEEP_MILLIS} ms, rather than a lingering one. */
    private volatile boolean armed;
    private volatile boolean closing;

    /** A group for at most {@code maxEndpoints} endpoints at once, in {@link PollingMode#EVENT}; its thread starts now. */
    public EndpointGroup(int maxEndpoints) {
        this(maxEndpoints, PollingMode.EVENT);
    }

    /** A group for at most {@code maxEndpoints} endpoints at once whose callers wait as {@code mode} says; its thread starts now. */
    public EndpointGroup(int maxEndpoints, PollingMode mode) {
        if (maxEndpoints < 1) {
            throw new IllegalArgumentException("maxEndpoints " + maxEndpoints);
        }
        this.maxEndpoints = maxEndpoints;
        this.mode = Objects.requireNonNull(mode, "mode");
        Libc.customizeInvokers(); // the thread sleeps on its eventfd before any endpoint joins
        this.poller = Thread.ofPlatform().daemon().name(THREAD_NAME_PREFIX + GROUPS.incrementAndGet()).start(this::poll);
    }

    /** The name of this group's thread: {@link #THREAD_NAME_PREFIX} and the group's number in this JVM. */
    public String threadName() {
        return poller.getName();
    }

    /** How many endpoints this group holds now. */
    public int size() {
        return members.size();
    }

    /** How callers wait for completions. */
    public PollingMode pollingMode() {
        return mode;
    }

    /** Adds a new endpoint on {@code ctx}, returning the completion queue it must use. */
    synchronized Cq join(RdmaEndpoint endpoint, Context ctx) {
        if (closing) {
            throw new IllegalStateException("endpoint group closed");
        }
        if (members.size() >= maxEndpoints) {
            throw new IllegalStateException("endpoint group full: " + maxEndpoints + " endpoints");
        }
        if (cq == null) {
            EventWaitCalls.customize(ctx); // before this group's thread can sleep a 128th time
            channel = ctx.compChannel();
            Cq made = ctx.cq(maxEndpoints * ENTRIES_PER_ENDPOINT, channel);
            made.guardWith(polling);
            cq = made; // guarded before any thread can poll it
        } else if (cq.context() != ctx) {
            throw new IllegalArgumentException("endpoint on " + ctx.deviceName() + ", group's completion queue on "
                    + cq.context().deviceName());
        }
        members.add(endpoint);
        return cq;
    }

    /** Starts serving a connected endpoint. */
    synchronized void attach(RdmaEndpoint endpoint) {
        RdmaEndpoint[] more = Arrays.copyOf(attached, attached.length + 1);
        more[attached.length] = endpoint;
        attached = more;
        wake();
    }

    private synchronized void detach(RdmaEndpoint endpoint) {
        attached = Arrays.stream(attached).filter(e -> e != endpoint).toArray(RdmaEndpoint[]::new);
        endpoint.detached();
    }

    /** Forgets a closed endpoint (it no longer uses the completion queue). */
    void leave(RdmaEndpoint endpoint) {
        members.remove(endpoint);
    }

    /** Whether the thread still serves endpoints. */
    boolean isPolling() {
        return poller.isAlive();
    }

    /**
     * An endpoint has messages waiting for credits: has the group's thread post them, unless
     * callers poll the completion queue now ({@link PollingMode#ADAPTIVE}, {@link PollingMode#BUSY}):
     * they post such messages as they wait, and the thread, lingering, looks every
     * {@value #LINGER_MILLIS} ms anyway. So a sender short of credits costs no hand-off per message.
     */
    void handOver() {
        if (mode == PollingMode.EVENT || !callersPoll()) {
            wake();
        }
    }

    /**
     * A blocking sender returns, its message posted or, with {@code backlog}, left in a send slot
     * for lack of a credit. In {@link PollingMode#EVENT} a backlog is the thread's to post: it is
     * woken. Otherwise the sender counts as a caller polling: it posts its backlog itself as it
     * sends on or waits, so it wakes nobody, and the thread lingers (it neither polls nor arms the
     * completion queue, whose events would cost a wake-up of the thread and of the kernel's
     * softirq thread per completion) and posts what a sender left behind at its second look
     * after the sender's last send, {@value #LINGER_MILLIS} to twice that many ms later. Before,
     * each send short of a credit woke the thread, which then armed the queue: a streaming sender
     * spent 15 % of its CPU on those wake-ups. Marking the sender active is a volatile write, not a
     * clock read (which under the VM's emulation costs about half a microsecond).
     */
    void senderReturned(boolean backlog) {
        if (mode == PollingMode.EVENT) {
            if (backlog) {
                wake();
            }
            return;
        }
        callerActive = true;
        if (backlog && armed) {
            wake();
        }
    }

    /** Whether callers poll the completion queue now, or did (or a blocking sender returned) since the thread last looked. */
    private boolean callersPoll() {
        return spinners.get() > 0 || callerActive;
    }

    /** Has the group's thread look at its endpoints again soon: unparks it, or signals its eventfd while it sleeps. */
    void wake() {
        if (sleeping) {
            wakeup.signal();
        } else {
            LockSupport.unpark(poller);
        }
    }

    /**
     * Polls the completion queue once, unless another thread is polling it, and hands each
     * completion to its endpoint; returns how many there were. An endpoint already let go of
     * (closed or failed) drops its flushed work.
     */
    int pollCompletions() {
        if (!polling.tryLock()) {
            return 0;
        }
        try {
            Cq polled = cq;
            if (polled == null) {
                return 0;
            }
            int n = polled.pollGuarded(wcs);
            RdmaEndpoint[] endpoints = attached;
            for (int i = 0; i < n; i++) {
                int qpNum = wcs.qpNum(i);
                for (RdmaEndpoint endpoint : endpoints) {
                    if (endpoint.qpNum() == qpNum) {
                        endpoint.completion(wcs, i);
                        break;
                    }
                }
            }
            return n;
        } finally {
            polling.unlock();
        }
    }

    /** A caller starts polling the completion queue while it waits. */
    void spinStarted() {
        spinners.incrementAndGet();
    }

    /** Whether more than one caller polls: each then yields its CPU between polls. */
    boolean crowded() {
        return spinners.get() > 1;
    }

    /**
     * A caller parks until a poller of the completion queue unparks it ({@code parks}), or is
     * back ({@code !parks}). The first to park wakes the thread, which may be lingering, leaving
     * the queue to callers: it polls again while any caller is parked.
     */
    void callerParked(boolean parks) {
        if (parks) {
            if (parkedCallers.incrementAndGet() == 1 && mode != PollingMode.EVENT) {
                wake();
            }
        } else {
            parkedCallers.decrementAndGet();
        }
    }

    /**
     * A caller stops polling: if it {@code parks}, the group's thread must take the completion
     * queue over at once (it may be leaving it to callers).
     */
    void spinEnded(boolean parks) {
        callerActive = !parks;
        if (spinners.decrementAndGet() == 0 && parks) {
            wake();
        }
    }

    private void poll() {
        try {
            serve();
        } finally {
            for (RdmaEndpoint endpoint : attached) {
                endpoint.fail(new ClosedChannelException());
                detach(endpoint);
            }
        }
    }

    private void serve() {
        int idle = 0;
        while (!closing) {
            // while callers poll, the completion queue is theirs: the thread only posts, delivers
            // and looks at events, and lingers (no CPU taken from them, no completion event armed)
            boolean callers = mode != PollingMode.EVENT && parkedCallers.get() == 0 && callersPoll();
            boolean busy = !callers && pollCompletions() > 0;
            busy |= work();
            if (busy) {
                idle = 0;
                continue;
            }
            idle++;
            if (callers) {
                callerActive = false;
                sleep(false, LINGER_MILLIS);
            } else if (backlog()) {
                LockSupport.parkNanos(idle < SHORT_PARKS ? SHORT_PARK_NANOS : LONG_PARK_NANOS);
            } else if (mode == PollingMode.EVENT && idle < SHORT_PARKS) {
                LockSupport.parkNanos(SHORT_PARK_NANOS);
            } else {
                sleep(true, SLEEP_MILLIS);
            }
        }
    }

    /** Lets each endpoint post, deliver and look at its events; lets go of those done. */
    private boolean work() {
        boolean busy = false;
        for (RdmaEndpoint endpoint : attached) {
            busy |= endpoint.work();
            if (endpoint.isDone()) {
                detach(endpoint);
            }
        }
        return busy;
    }

    /** Whether an endpoint has messages waiting for credits or send slots. */
    private boolean backlog() {
        for (RdmaEndpoint endpoint : attached) {
            if (endpoint.hasBacklog()) {
                return true;
            }
        }
        return false;
    }

    /**
     * Sleeps in {@code poll(2)} up to {@code millis} on the eventfd and, when {@code arm}, on
     * the completion channel after arming the completion queue (polled once more after arming,
     * for what completed before); acknowledges the event that woke it.
     */
    private void sleep(boolean arm, int millis) {
        sleeping = true;
        armed = arm;
        try {
            Cq armedCq = arm ? cq : null;
            if (armedCq != null) {
                armedCq.reqNotify(false);
                if (pollCompletions() > 0) {
                    return;
                }
            }
            // a lingering thread looks again soon anyway: only an armed one must not sleep on work,
            // nor while a caller polls or a sender just returned (which read armed after writing
            // callerActive, as this reads callerActive after writing armed: one of the two sees the other)
            if (closing || armedCq != null && (callersPoll() || backlog() || work())) {
                return;
            }
            int ready = fds.pollIn(armedCq != null ? channel.fd() : -1, wakeup.fd(), millis);
            if ((ready & 1) != 0) {
                channel.getEvent(Duration.ZERO);
            }
            if ((ready & 2) != 0) {
                wakeup.drain();
            }
        } finally {
            sleeping = false;
            armed = false;
        }
    }

    /** Closes every endpoint of the group, stops its thread and destroys its completion queue and channel. */
    @Override
    public void close() {
        synchronized (this) {
            if (closing && !poller.isAlive()) {
                return;
            }
        }
        for (RdmaEndpoint endpoint : members) {
            endpoint.close();
        }
        synchronized (this) {
            closing = true;
        }
        wake();
        try {
            poller.join();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        synchronized (this) {
            Cq closed;
            polling.lock();
            try {
                // a caller polling after this finds no queue rather than a closed one
                closed = cq;
                cq = null;
            } finally {
                polling.unlock();
            }
            if (closed != null) {
                closed.close();
                channel.close();
            }
        }
        wakeup.close();
    }
}
