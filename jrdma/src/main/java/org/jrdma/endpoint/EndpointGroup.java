package org.jrdma.endpoint;

import java.nio.channels.ClosedChannelException;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.locks.LockSupport;
import org.jrdma.verbs.Context;
import org.jrdma.verbs.Cq;
import org.jrdma.verbs.WcBuffer;

/**
 * Endpoints sharing one completion queue and the one platform thread that polls it: the thread
 * routes each work completion to its endpoint by the completion's QP number, then lets each
 * endpoint post its queued work, deliver arrived messages and look at its connection's events.
 * Endpoints made without a group ({@link RdmaEndpoint#connect(java.net.InetSocketAddress,
 * java.time.Duration)}, {@link RdmaServer#accept(java.time.Duration)}) each get a group of their
 * own. The completion queue is made on the device of the first endpoint; all must be on it.
 *
 * <p>{@link #close()} closes the group's endpoints, stops the thread and destroys the completion
 * queue.
 */
public final class EndpointGroup implements AutoCloseable {
    /** Completion queue entries each endpoint may need at once: its receives, sends and credit writes. */
    static final int ENTRIES_PER_ENDPOINT = 2 * (RdmaEndpoint.RECEIVES + RdmaEndpoint.SEND_SLOTS);
    /** Idle, the thread first parks briefly (low latency), then for longer (little CPU). */
    private static final long SHORT_PARK_NANOS = 10_000L;
    private static final long LONG_PARK_NANOS = 1_000_000L;
    private static final int SHORT_PARKS = 1000;

    private final int maxEndpoints;
    /** Endpoints made in this group and not yet closed. */
    private final List<RdmaEndpoint> members = new CopyOnWriteArrayList<>();
    /**
     * The endpoints the thread serves, copied on change: the thread walks it by index and finds a
     * completion's endpoint by QP number, allocating nothing.
     */
    private volatile RdmaEndpoint[] attached = new RdmaEndpoint[0];
    private final WcBuffer wcs = new WcBuffer(16);
    private final Thread poller;
    private volatile Cq cq;
    private volatile boolean closing;

    /** A group for at most {@code maxEndpoints} endpoints at once; its thread starts now. */
    public EndpointGroup(int maxEndpoints) {
        if (maxEndpoints < 1) {
            throw new IllegalArgumentException("maxEndpoints " + maxEndpoints);
        }
        this.maxEndpoints = maxEndpoints;
        this.poller = Thread.ofPlatform().daemon().name("rdma-endpoint-group").start(this::poll);
    }

    /** How many endpoints this group holds now. */
    public int size() {
        return members.size();
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
            cq = ctx.cq(maxEndpoints * ENTRIES_PER_ENDPOINT);
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

    void wake() {
        LockSupport.unpark(poller);
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
            boolean busy = false;
            Cq polled = cq;
            if (polled != null) {
                int n = polled.poll(wcs);
                for (int i = 0; i < n; i++) {
                    // an endpoint already let go of (closed or failed) drops its flushed work
                    RdmaEndpoint[] endpoints = attached;
                    int qpNum = wcs.qpNum(i);
                    for (RdmaEndpoint endpoint : endpoints) {
                        if (endpoint.qpNum() == qpNum) {
                            endpoint.completion(wcs, i);
                            break;
                        }
                    }
                }
                busy = n > 0;
            }
            for (RdmaEndpoint endpoint : attached) {
                busy |= endpoint.work();
                if (endpoint.isDone()) {
                    detach(endpoint);
                }
            }
            idle = busy ? 0 : idle + 1;
            if (idle > 0) {
                LockSupport.parkNanos(idle < SHORT_PARKS ? SHORT_PARK_NANOS : LONG_PARK_NANOS);
            }
        }
    }

    /** Closes every endpoint of the group, stops its thread and destroys its completion queue. */
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
        if (cq != null) {
            cq.close();
        }
    }
}
