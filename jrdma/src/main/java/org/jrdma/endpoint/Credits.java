package org.jrdma.endpoint;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.VarHandle;

/**
 * Credit-based flow control of one connection, with no receive spent on credits: each side
 * RDMA-writes the count of receives it has posted into an 8-byte counter of the peer's (announced
 * in the connection's private data), and sends a message only while it has sent fewer than the
 * peer's count. Receives reposted are announced in batches of {@link #BATCH}. Guarded by the
 * endpoint's lock, but for {@link #available()}'s read of the counter, which the peer's
 * RDMA WRITE changes.
 */
final class Credits {
    /**
     * Reposted receives announced at once. Holding back fewer than half of the receives never
     * stalls the two sides: a sender out of credits has at least {@code RECEIVES - BATCH}
     * messages under way to the receiver, which will take and repost them.
     */
    static final int BATCH = RdmaEndpoint.RECEIVES / 4;
    private static final VarHandle LONG = ValueLayout.JAVA_LONG.varHandle();

    /** Our counter, which the peer writes its posted receives into. */
    private final MemorySegment counter;
    private int peerReceives;
    private long peerCounterAddr;
    private int peerCounterRkey;
    private long sent;
    private long receivesPosted;
    private int unannounced;

    /** Credits kept in {@code counter}, 8 bytes of registered memory open to the peer's RDMA WRITE. */
    Credits(MemorySegment counter) {
        this.counter = counter;
    }

    /** The peer's initial receives and where its counter is (address and rkey). */
    void start(int receives, long counterAddr, int counterRkey) {
        this.peerReceives = receives;
        this.peerCounterAddr = counterAddr;
        this.peerCounterRkey = counterRkey;
    }

    /** How many more messages may be sent now: the peer's receives posted less those sent. */
    long available() {
        return Math.max(peerReceives, (long) LONG.getVolatile(counter, 0L)) - sent;
    }

    /** Counts a message posted. */
    void sent() {
        sent++;
    }

    /** Counts a receive posted before the connection, announced in the private data. */
    void postedInitially() {
        receivesPosted++;
    }

    /** Counts a receive reposted; returns whether the count is now due to the peer. */
    boolean reposted() {
        receivesPosted++;
        if (++unannounced >= BATCH) {
            unannounced = 0;
            return true;
        }
        return false;
    }

    /** The receives posted so far, which the peer's counter should hold. */
    long receivesPosted() {
        return receivesPosted;
    }

    long peerCounterAddr() {
        return peerCounterAddr;
    }

    int peerCounterRkey() {
        return peerCounterRkey;
    }
}
