package org.jrdma.endpoint;

/**
 * Who polls an {@link EndpointGroup}'s completion queue while a caller waits in a blocking
 * {@link RdmaEndpoint#send(java.lang.foreign.MemorySegment) send} or
 * {@link RdmaEndpoint#receive(java.lang.foreign.MemorySegment) receive}. Posting is always done by
 * the caller itself (a send is on the wire when {@code send} returns, if the peer has a receive
 * posted); the modes differ in how a caller waits for a completion (IBA 11.4.2: polling the CQ or
 * waiting for its completion event).
 *
 * <p>In every mode the group's thread sleeps on the completion channel
 * ({@code ibv_req_notify_cq}, then {@code poll(2)} on the channel) once nothing has happened for
 * a while, so an idle group costs no CPU.
 */
public enum PollingMode {
    /**
     * Callers park, and the group's thread polls the completion queue and unparks them: a
     * virtual thread waiting releases its carrier. For services with many connections. The
     * default.
     */
    EVENT,
    /**
     * A caller polls the completion queue itself for a bounded time ({@value EndpointGroup#SPIN_MICROS}
     * microseconds without pause, then parked 20 µs between polls up to 20 ms) and then parks as in
     * {@link #EVENT}: one thread per side carries a round trip, as in {@code ib_send_lat}, while
     * the wait is short. For latency-bound connections.
     */
    ADAPTIVE,
    /**
     * A caller polls the completion queue until its completion comes, never parking: the lowest
     * latency, a CPU per waiting caller. A virtual thread waiting this way keeps its carrier.
     */
    BUSY
}
