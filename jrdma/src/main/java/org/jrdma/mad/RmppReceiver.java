package org.jrdma.mad;

import java.time.Duration;
import java.util.concurrent.BlockingQueue;
import org.jrdma.iba.mad.RmppHeader;
import org.jrdma.iba.wire.MadDecoder;

/**
 * The receiving end of one RMPP transfer (IBA 13.6.3.1), for transports that leave RMPP to
 * jrdma: takes the DATA segments of a response in order, acknowledges each window (the sender
 * starts with a window of one segment; every ACK grants {@value #WINDOW} more), acknowledges
 * again when a segment comes twice or nothing comes in time, and reassembles the transfer into
 * the form {@link Rmpp} describes, up to the last byte the segments carried (ibsim relays a segment
 * with the length it was written with). A segment that breaks the protocol is answered with an ABORT
 * naming the fault, and so is a transfer that stalls past its retries.
 */
final class RmppReceiver {
    /** Segments granted by each ACK. */
    static final int WINDOW = 32;
    /** The most data a transfer may carry: a bound on memory against a sender that never stops. */
    static final int MAX_TRANSFER = 32 << 20;
    /** The most room reserved up front for the length the first segment announces, which is untrusted. */
    private static final long INITIAL_CAPACITY = 64 << 10;

    private final MadEngine engine;
    private final byte[] request;
    private final ReceivedMad first;
    private final BlockingQueue<ReceivedMad> inbox;
    private final Duration timeout;
    private final int retries;
    private final int header;
    private final int room;
    private byte[] transfer;
    /** Where the next segment's data goes: the end of the segments' data areas so far. */
    private int length;
    /** Where the bytes the segments actually carried end (a segment relayed short carries less than its area). */
    private int carried;
    private long received;
    private long windowLast;

    /**
     * @param engine  the engine to send ACKs and ABORTs through
     * @param request the request the transfer answers (for error reports)
     * @param first   the first DATA segment, already received
     * @param inbox   where the engine puts the further packets of the transfer
     * @param timeout how long to wait for each segment
     * @param retries how many times to acknowledge again before giving up
     */
    RmppReceiver(MadEngine engine, byte[] request, ReceivedMad first, BlockingQueue<ReceivedMad> inbox, Duration timeout,
            int retries) {
        this.engine = engine;
        this.request = request;
        this.first = first;
        this.inbox = inbox;
        this.timeout = timeout;
        this.retries = retries;
        this.header = Rmpp.headerLength(first.mad()[1] & 0xFF);
        this.room = MadDecoder.MAD_SIZE - header;
    }

    /**
     * Receives the rest of the transfer and returns it reassembled.
     *
     * @throws MadException        when the sender aborts or stops, or a segment breaks the protocol (then aborted)
     * @throws MadTimeoutException when the sender stalls past the retries (then aborted)
     */
    ReceivedMad receive() {
        RmppHeader h = Rmpp.header(first.mad());
        if (h.rmppVersion() != Rmpp.VERSION) {
            throw abort(Rmpp.STATUS_UNV, "RMPPVersion " + h.rmppVersion() + " is not " + Rmpp.VERSION);
        }
        if ((h.rmppFlags() & Rmpp.FLAG_FIRST) == 0 || h.data1() != 1) {
            throw abort(Rmpp.STATUS_BAD_SEG, "the first segment is numbered " + h.data1() + " with flags 0x"
                    + Integer.toHexString(h.rmppFlags()));
        }
        transfer = new byte[(int) Math.max(MadDecoder.MAD_SIZE, Math.min(h.data2() + header, INITIAL_CAPACITY))];
        System.arraycopy(first.mad(), 0, transfer, 0, MadDecoder.MAD_SIZE);
        length = MadDecoder.MAD_SIZE;
        carried = Math.min(first.length(), MadDecoder.MAD_SIZE);
        received = 1;
        windowLast = 1;
        long firstPayload = h.data2();
        if (accept(h)) {
            return finish(h, firstPayload);
        }
        int attempts = 0;
        while (true) {
            ReceivedMad in = engine.await(inbox, timeout);
            if (in == null || in.dropped()) {
                if (++attempts > retries) {
                    abortQuietly(Rmpp.STATUS_T2L);
                    throw new MadTimeoutException(String.format("RMPP transfer from LID %d stalled after segment %d: no segment in %d ms, %d attempt%s",
                            first.from().lid(), received, timeout.toMillis(), attempts, attempts == 1 ? "" : "s"), exchange());
                }
                acknowledge();
                continue;
            }
            if (!Rmpp.isActive(in.mad(), in.length())) {
                continue; // a copy of a plain response to an earlier attempt
            }
            RmppHeader seg = Rmpp.header(in.mad());
            if (seg.rmppType() == Rmpp.TYPE_ABORT || seg.rmppType() == Rmpp.TYPE_STOP) {
                throw new MadException(String.format("the sender %s the RMPP transfer after %d segments: %s",
                        seg.rmppType() == Rmpp.TYPE_ABORT ? "aborted" : "stopped", received, Rmpp.statusName(seg.rmppStatus())), exchange());
            }
            if (seg.rmppType() != Rmpp.TYPE_DATA) {
                throw abort(Rmpp.STATUS_BADT, "RMPPType " + seg.rmppType() + " sent to the receiver");
            }
            if (seg.rmppVersion() != Rmpp.VERSION) {
                throw abort(Rmpp.STATUS_UNV, "RMPPVersion " + seg.rmppVersion() + " is not " + Rmpp.VERSION);
            }
            long number = seg.data1();
            if (number <= received) {
                acknowledge(); // a resent segment: our ACK was lost or late
                continue;
            }
            if (number > windowLast) {
                throw abort(Rmpp.STATUS_S2B, "segment " + number + " is past the window, which ends at " + windowLast);
            }
            if (number > received + 1) {
                continue; // out of order: the sender resends from the last acknowledged segment
            }
            if ((seg.rmppFlags() & Rmpp.FLAG_FIRST) != 0) {
                throw abort(Rmpp.STATUS_BAD_SEG, "segment " + number + " is flagged First");
            }
            if ((long) length + room > MAX_TRANSFER) {
                throw abort(Rmpp.STATUS_S2B, "the transfer exceeds " + MAX_TRANSFER + " bytes");
            }
            transfer = Rmpp.grow(transfer, length + room);
            System.arraycopy(in.mad(), header, transfer, length, room);
            carried = length + Math.max(0, Math.min(in.length(), MadDecoder.MAD_SIZE) - header);
            length += room;
            received = number;
            attempts = 0;
            if (accept(seg)) {
                return finish(seg, firstPayload);
            }
        }
    }

    /** After segment {@link #received} arrived: acknowledges it if it ends the window or the transfer; true if it ends the transfer. */
    private boolean accept(RmppHeader segment) {
        boolean last = (segment.rmppFlags() & Rmpp.FLAG_LAST) != 0;
        if (last || received == windowLast) {
            if (!last) {
                windowLast = received + WINDOW;
            }
            acknowledge();
        }
        return last;
    }

    private ReceivedMad finish(RmppHeader last, long firstPayload) {
        long pad = Rmpp.SEGMENT_PAYLOAD - last.data2();
        if (pad < 0 || pad > room) {
            throw abort(Rmpp.STATUS_BAD_LEN, "the last segment's PayloadLength " + last.data2() + " is outside "
                    + (Rmpp.SEGMENT_PAYLOAD - room) + ".." + Rmpp.SEGMENT_PAYLOAD);
        }
        long total = received * Rmpp.SEGMENT_PAYLOAD - pad;
        if (firstPayload != 0 && firstPayload != total) {
            throw abort(Rmpp.STATUS_BAD_LEN, "the first segment announced " + firstPayload + " payload bytes, the segments carry " + total);
        }
        int size = (int) Math.min(length - pad, carried);
        byte[] whole = new byte[Math.max(MadDecoder.MAD_SIZE, size)];
        System.arraycopy(transfer, 0, whole, 0, size);
        return new ReceivedMad(whole, size, first.from(), false);
    }

    /** The number of segments received so far: after {@link #receive} returned, the transfer's last. */
    long segments() {
        return received;
    }

    private void acknowledge() {
        engine.send(Rmpp.control(first.mad(), true, Rmpp.TYPE_ACK, 0, received, windowLast), first.from());
    }

    private MadException abort(int status, String why) {
        abortQuietly(status);
        return new MadException("RMPP transfer from LID " + first.from().lid() + " aborted (" + Rmpp.statusName(status) + "): " + why,
                exchange());
    }

    private void abortQuietly(int status) {
        engine.send(Rmpp.control(first.mad(), true, Rmpp.TYPE_ABORT, status, 0, 0), first.from());
    }

    private MadException.Exchange exchange() {
        return new MadException.Exchange(request, first.mad(), null);
    }
}
