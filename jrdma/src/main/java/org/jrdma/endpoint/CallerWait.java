package org.jrdma.endpoint;

import java.nio.channels.ClosedChannelException;
import java.util.concurrent.locks.LockSupport;

/**
 * How a caller of an endpoint's blocking methods waits for what it needs, a message to arrive
 * ({@link #ARRIVAL}) or a send slot to free ({@link #FREE_SLOT}), as its group's
 * {@link PollingMode} says, and the waking of a parked caller by whoever sees it happen.
 */
final class CallerWait {
    /** A blocking receive waits for a message to arrive. */
    static final int ARRIVAL = 0;
    /** A blocking send waits for one of the endpoint's send slots to free. */
    static final int FREE_SLOT = 1;
    /** How often a waiting caller of {@link PollingMode#ADAPTIVE} reads the clock: every this many polls. */
    private static final int CLOCK_EVERY = 64;

    private final RdmaEndpoint endpoint;
    private final EndpointGroup group;
    /** A thread parked in a blocking send or receive, to unpark when a slot frees or a message arrives. */
    private volatile Thread sendWaiter;
    private volatile Thread receiveWaiter;

    CallerWait(RdmaEndpoint endpoint, EndpointGroup group) {
        this.endpoint = endpoint;
        this.group = group;
    }

    /**
     * Waits until {@code what} may have happened (a message arrived, a send slot freed), the
     * endpoint ended, or a spurious wake-up: in {@link PollingMode#ADAPTIVE} and
     * {@link PollingMode#BUSY} polls the completion queue itself (and posts what waits for
     * credits), in {@code ADAPTIVE} spinning for a while, then parked briefly between polls for a
     * while longer, then parks until the thread that sees it unparks it. The spin reads the clock
     * every {@value #CLOCK_EVERY} polls only: under emulation a clock read is dearer than a poll.
     */
    void await(int what) throws ClosedChannelException {
        PollingMode mode = group.pollingMode();
        if (mode != PollingMode.EVENT) {
            long start = mode == PollingMode.ADAPTIVE ? System.nanoTime() : 0;
            group.spinStarted();
            boolean parks = false;
            boolean pausing = false;
            try {
                for (int polls = 1;; polls++) {
                    pollAndPost();
                    if (endpoint.ready(what)) {
                        return;
                    }
                    endpoint.throwIfEnded();
                    if (mode == PollingMode.ADAPTIVE && (pausing || polls % CLOCK_EVERY == 0)) {
                        long waited = System.nanoTime() - start;
                        if (waited > EndpointGroup.POLL_NANOS) {
                            parks = true;
                            break;
                        }
                        pausing = waited > EndpointGroup.SPIN_NANOS;
                    }
                    if (pausing) {
                        LockSupport.parkNanos(EndpointGroup.PARKED_POLL_NANOS);
                    } else if (group.crowded()) {
                        Thread.yield();
                    } else {
                        Thread.onSpinWait();
                    }
                }
            } finally {
                group.spinEnded(parks);
            }
        }
        Thread me = Thread.currentThread();
        if (what == ARRIVAL) {
            receiveWaiter = me;
        } else {
            sendWaiter = me;
        }
        group.callerParked(true);
        try {
            if (endpoint.hasBacklog()) {
                group.wake();
            }
            if (!endpoint.ready(what)) {
                endpoint.throwIfEnded();
                LockSupport.park(endpoint);
            }
        } finally {
            group.callerParked(false);
            if (what == ARRIVAL) {
                receiveWaiter = null;
            } else {
                sendWaiter = null;
            }
        }
    }

    /**
     * One turn of a caller that does not wait ({@link RdmaEndpoint#tryClaimSendBuffer},
     * {@link RdmaEndpoint#tryReceiveInPlace}): in {@link PollingMode#ADAPTIVE} and
     * {@link PollingMode#BUSY} polls the completion queue once and posts what waits for credits,
     * as one turn of {@link #await}'s spin, and returns true; in {@link PollingMode#EVENT} the
     * group's thread polls, and this returns false.
     */
    boolean pollOnce() {
        if (group.pollingMode() == PollingMode.EVENT) {
            return false;
        }
        group.spinStarted();
        try {
            pollAndPost();
        } finally {
            group.spinEnded(false);
        }
        return true;
    }

    /** One turn of a polling caller: polls the group's completion queue once, then posts what waits for credits. */
    private void pollAndPost() {
        group.pollCompletions();
        if (endpoint.hasBacklog()) {
            endpoint.post();
        }
    }

    /** Unparks a caller waiting for a send slot. */
    void wakeSender() {
        unpark(sendWaiter);
    }

    /** Unparks a caller waiting for a message. */
    void wakeReceiver() {
        unpark(receiveWaiter);
    }

    /** Unparks every waiting caller: the endpoint ended. */
    void wakeAll() {
        unpark(sendWaiter);
        unpark(receiveWaiter);
    }

    private static void unpark(Thread waiter) {
        if (waiter != null) {
            LockSupport.unpark(waiter);
        }
    }
}
