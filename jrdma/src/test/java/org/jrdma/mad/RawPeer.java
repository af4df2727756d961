package org.jrdma.mad;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.function.Predicate;
import org.jrdma.iba.Mad;
import org.jrdma.iba.mad.RmppHeader;
import org.jrdma.iba.mad.SaFormat;
import org.jrdma.iba.sa.SaNodeRecord;
import org.jrdma.iba.wire.Bits;
import org.jrdma.iba.wire.MadDecoder;
import org.jrdma.mad.sim.IbsimClient;
import org.jrdma.testkit.fabric.Fabric;

/**
 * The other end of an RMPP transfer played by hand, for tests: an ibsim client declared its port's
 * SM (so ibsim hands it the SA and vendor MADs sent to its LID), with no engine, sending exactly
 * the packets a test needs.
 */
final class RawPeer implements AutoCloseable {
    private final IbsimClient client;

    RawPeer(Fabric fabric, String node) {
        client = IbsimClient.attach(fabric.socketName(), node);
        client.setIsSm(true);
    }

    int lid() {
        return client.endPort().lid();
    }

    /** The next SA or vendor (class 0x30-0x4F) packet (ibsim also hands this SM-declared port OpenSM's SMInfo queries), within 10 s. */
    byte[] next(Predicate<byte[]> wanted) {
        return packet(wanted).mad();
    }

    IbsimClient.SimPacket packet(Predicate<byte[]> wanted) {
        long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
        while (System.nanoTime() < deadline) {
            IbsimClient.SimPacket p = client.receive(100);
            if (p != null && Rmpp.hasRmppHeader(p.mad()[1] & 0xFF) && wanted.test(p.mad())) {
                return p;
            }
        }
        throw new AssertionError("nothing came");
    }

    IbsimClient.SimPacket nextRequest() {
        return packet(m -> m[3] == Mad.METHOD_GET_TABLE && !Rmpp.isActive(m, m.length));
    }

    /**
     * What a receiver does when the sender stalls after segment 1: acknowledges it with the next
     * window, acknowledges again after a timeout, then aborts (the transfer took too long).
     */
    void expectStallAborted() {
        RmppHeader ack = Rmpp.header(nextControl());
        assertEquals(Rmpp.TYPE_ACK, ack.rmppType());
        assertEquals(1, ack.data1());
        assertEquals(1 + RmppReceiver.WINDOW, ack.data2(), "the next window");
        assertEquals(Rmpp.TYPE_ACK, Rmpp.header(nextControl()).rmppType(), "acknowledged again after a timeout");
        RmppHeader abort = Rmpp.header(nextControl());
        assertEquals(Rmpp.TYPE_ABORT, abort.rmppType());
        assertEquals(Rmpp.STATUS_T2L, abort.rmppStatus());
    }

    byte[] nextControl() {
        return next(m -> Rmpp.isActive(m, m.length) && Rmpp.header(m).rmppType() != Rmpp.TYPE_DATA);
    }

    /** The segments of a reply to {@code request} holding {@code count} records. */
    List<byte[]> segments(IbsimClient.SimPacket request, int count) {
        int stride = SaNodeRecord.SIZE;
        byte[] transfer = Arrays.copyOf(MadReplies.response(request.mad(), 0), MadDecoder.SA_DATA_OFFSET + count * stride);
        new SaFormat(transfer, 0).attributeOffset(stride / 8);
        List<SaNodeRecord> records = RmppTest.records(count);
        for (int i = 0; i < count; i++) {
            records.get(i).pack(transfer, MadDecoder.SA_DATA_OFFSET + i * stride);
        }
        return Rmpp.segments(transfer);
    }

    void sendTo(IbsimClient.SimPacket request, byte[] mad) {
        client.send(mad, request.slid(), request.sqp(), 1);
    }

    void send(byte[] mad, int lid) {
        client.send(mad, lid, 1, 1);
    }

    /** Sends a NodeRecord GetTable to the SA-like server at {@code lid}; returns its TID. */
    long sendGetTable(int lid) {
        byte[] mad = new byte[MadDecoder.MAD_SIZE];
        mad[0] = Mad.BASE_VERSION;
        mad[1] = Mad.CLASS_SUBN_ADM;
        mad[2] = RmppTest.SA_VERSION;
        mad[3] = Mad.METHOD_GET_TABLE;
        long tid = 0x7261770000000001L;
        Bits.u64(mad, 8, tid);
        Bits.u16(mad, 16, SaNodeRecord.ATTRIBUTE_ID);
        send(mad, lid);
        return tid;
    }

    @Override
    public void close() {
        client.close();
    }
}
