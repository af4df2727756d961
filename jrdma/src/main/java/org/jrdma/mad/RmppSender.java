package org.jrdma.mad;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import org.jrdma.iba.mad.RmppHeader;
import org.jrdma.iba.wire.Bits;

/**
 * The sending end of one RMPP transfer (IBA 13.6.3.2), for transports that leave RMPP to jrdma:
 * sends the DATA segments of a transfer window by window as the receiver's ACKs open them
 * (starting with a window of one segment), resends from the last acknowledged segment when no ACK
 * comes in time or when the receiver acknowledges the same segment again (it does so when it
 * waited in vain for the next, IBA 13.6.3.1: a segment after it was lost), and ends when the last
 * segment is acknowledged. The receiver's STOP or ABORT ends
 * the transfer with an exception; a receiver that stays silent past the retries is sent an ABORT.
 */
final class RmppSender {
    private final MadEngine engine;
    private final List<byte[]> segments;
    private final MadAddress to;
    private final Duration timeout;
    private final int retries;

    /**
     * @param engine   the engine to send through; it hands this sender the receiver's packets
     * @param transfer the transfer in the form {@link Rmpp} describes, its TID that of the request it answers
     * @param to       the receiver
     * @param timeout  how long to wait for each ACK
     * @param retries  how many times to resend a window before giving up
     */
    RmppSender(MadEngine engine, byte[] transfer, MadAddress to, Duration timeout, int retries) {
        this.engine = engine;
        this.segments = Rmpp.segments(transfer);
        this.to = to;
        this.timeout = timeout;
        this.retries = retries;
    }

    /**
     * Sends every segment and returns once the receiver acknowledged the last. Returns at once if
     * a transfer with the same TID is being sent: it answers an earlier copy of the same request.
     *
     * @throws MadException        when the receiver stops or aborts the transfer, or breaks the protocol
     * @throws MadTimeoutException when the receiver leaves a window unacknowledged past the retries
     */
    void send() {
        byte[] first = segments.getFirst();
        int tid = (int) Bits.u32(first, 12);
        BlockingQueue<ReceivedMad> acks = engine.openRmppSender(tid);
        if (acks == null) {
            return;
        }
        try {
            int count = segments.size();
            long windowLast = 1;
            long acknowledged = 0;
            long next = 1;
            int attempts = 0;
            while (true) {
                for (; next <= Math.min(windowLast, count); next++) {
                    engine.send(segments.get((int) next - 1), to);
                }
                ReceivedMad in = engine.await(acks, timeout);
                if (in == null) {
                    if (++attempts > retries) {
                        abort(Rmpp.STATUS_TMR);
                        throw new MadTimeoutException(String.format("RMPP transfer to LID %d: segment %d of %d unacknowledged after %d attempt%s of %d ms",
                                to.lid(), acknowledged + 1, count, attempts, attempts == 1 ? "" : "s", timeout.toMillis()), exchange());
                    }
                    next = acknowledged + 1;
                    continue;
                }
                RmppHeader h = Rmpp.header(in.mad());
                switch (h.rmppType()) {
                    case Rmpp.TYPE_ACK -> {
                        if (h.data1() > count) {
                            throw abort(Rmpp.STATUS_S2B, "segment " + h.data1() + " acknowledged of " + count);
                        }
                        if (h.data2() < h.data1()) {
                            throw abort(Rmpp.STATUS_W2S, "NewWindowLast " + h.data2() + " below the acknowledged segment " + h.data1());
                        }
                        if (h.data1() == acknowledged && next > acknowledged + 1) {
                            next = acknowledged + 1; // acknowledged again: the receiver lacks what follows, resend it now
                        }
                        if (h.data1() >= acknowledged) {
                            acknowledged = h.data1();
                            windowLast = Math.max(windowLast, h.data2());
                            next = Math.max(next, acknowledged + 1);
                            attempts = 0;
                        }
                        if (acknowledged == count) {
                            return;
                        }
                    }
                    case Rmpp.TYPE_STOP, Rmpp.TYPE_ABORT -> throw new MadException(String.format("the receiver at LID %d %s the RMPP transfer at segment %d of %d: %s",
                            to.lid(), h.rmppType() == Rmpp.TYPE_STOP ? "stopped" : "aborted", acknowledged, count,
                            Rmpp.statusName(h.rmppStatus())), exchange());
                    default -> throw abort(Rmpp.STATUS_BADT, "RMPPType " + h.rmppType() + " sent to the sender");
                }
            }
        } finally {
            engine.closeRmppSender(tid);
        }
    }

    private MadException abort(int status, String why) {
        abort(status);
        return new MadException("RMPP transfer to LID " + to.lid() + " aborted (" + Rmpp.statusName(status) + "): " + why, exchange());
    }

    private void abort(int status) {
        engine.send(Rmpp.control(segments.getFirst(), false, Rmpp.TYPE_ABORT, status, 0, 0), to);
    }

    private MadException.Exchange exchange() {
        return new MadException.Exchange(null, segments.getFirst(), null);
    }
}
