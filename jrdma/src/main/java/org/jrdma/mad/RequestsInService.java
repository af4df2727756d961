package org.jrdma.mad;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The requests from other nodes that a {@link MadEngine} has queued or is answering, by requester
 * LID, QP and TID low bits, so that a copy of one is dropped rather than answered twice. A
 * requester resends a request under the same TID when the response is late (IBA 13.4.6.4); a
 * responder slower than the requester's timeout otherwise queues each copy, answers the first, and
 * then spends as long answering copies nobody waits for (an RMPP transfer to a requester that has
 * its answer is acknowledged by nobody, and runs to its retries), while the requester's next
 * requests wait behind them and time out in turn.
 *
 * <p>A request stops being in service when a response with its TID is sent to its requester; one
 * left unanswered (a Send, a handler that gave up) stops after {@link #WINDOW_NANOS}. A copy that
 * comes after the answer is served again: the answer may have been lost.
 */
final class RequestsInService {
    /** How long a request left unanswered keeps its copies away. */
    static final long WINDOW_NANOS = 5_000_000_000L;
    /** Above this many entries, those past the window are swept out. */
    private static final int SWEEP_ABOVE = 4096;

    /** When each request came in service, by requester and TID low bits (umad rewrites the high ones). */
    private final Map<MadEngine.RequestTransfer, Long> since = new ConcurrentHashMap<>();

    /**
     * Takes a request into service unless a copy of it is in service already.
     *
     * @return true if it is new (or its earlier copy was answered, or is past the window), false for a copy to drop
     */
    boolean admit(MadAddress from, int tid, long now) {
        MadEngine.RequestTransfer key = new MadEngine.RequestTransfer(from.lid(), from.qpn(), tid);
        Long earlier = since.get(key);
        if (earlier != null && now - earlier < WINDOW_NANOS) {
            return false;
        }
        if (since.size() > SWEEP_ABOVE) {
            since.values().removeIf(t -> now - t >= WINDOW_NANOS);
        }
        since.put(key, now);
        return true;
    }

    /** A response with TID low bits {@code tid} went to {@code to}: the request it answers is out of service. */
    void answered(MadAddress to, int tid) {
        since.remove(new MadEngine.RequestTransfer(to.lid(), to.qpn(), tid));
    }
}
