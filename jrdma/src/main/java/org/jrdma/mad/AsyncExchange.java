package org.jrdma.mad;

import java.time.Duration;

/**
 * One request of {@link MadEngine#submit}: sent, resent on its timeout with the same TID, and
 * finished by the engine's receiver thread, which calls its {@link Completion} with the response
 * or the failure, so that no thread waits for it.
 */
final class AsyncExchange {
    final byte[] request;
    final MadAddress to;
    final long tid;
    final Duration timeout;
    final int retries;
    final MadEngine.Completion done;
    int attempts;
    /** When the attempt under way times out (or, after a busy reply, when to send again), in nanoTime. */
    long deadline;
    /** The last reply, when it said the responder is busy: resent at the deadline rather than awaited. */
    ReceivedMad busy;

    AsyncExchange(byte[] request, MadAddress to, long tid, Duration timeout, int retries, MadEngine.Completion done) {
        this.request = request;
        this.to = to;
        this.tid = tid;
        this.timeout = timeout;
        this.retries = retries;
        this.done = done;
    }
}
