package org.jrdma.examples;

import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.time.Duration;
import org.jrdma.cm.CmEvent;
import org.jrdma.cm.CmEventType;
import org.jrdma.cm.ConnParam;
import org.jrdma.cm.EventChannel;
import org.jrdma.cm.PortSpace;
import org.jrdma.cm.RdmaCmId;
import org.jrdma.verbs.Access;
import org.jrdma.verbs.Context;
import org.jrdma.verbs.Cq;
import org.jrdma.verbs.Mr;
import org.jrdma.verbs.Pd;
import org.jrdma.verbs.PreparedRecv;
import org.jrdma.verbs.PreparedSend;
import org.jrdma.verbs.Qp;
import org.jrdma.verbs.QpCap;
import org.jrdma.verbs.QpInitAttr;
import org.jrdma.verbs.QpType;
import org.jrdma.verbs.RecvWr;
import org.jrdma.verbs.SendFlags;
import org.jrdma.verbs.SendWr;
import org.jrdma.verbs.WcBuffer;
import org.jrdma.verbs.WrOpcode;

/**
 * perftest's side channel over rdma_cm, which {@code -R} implies ({@code use_rdma_cm}, as
 * {@code -z}; {@code rdma_client_connect} and {@code rdma_server_connect},
 * {@code rdma_write_data} and {@code rdma_read_data} in perftest 6.06): instead of a TCP
 * connection, an RC queue pair connected by rdma_cm on the test's port ({@code RDMA_PS_TCP}, the
 * server bound to any address), with one receive of {@link #MESSAGE} bytes posted before the
 * connection is made and posted again after each message is read; each part of the exchange is
 * one signalled SEND, each side waiting for its completion. The connect carries 7 retries and 7
 * RNR retries (a message may arrive before the peer has posted its next receive) and no private
 * data; the client tries once, so the server must listen first.
 */
final class PerftestCmComm implements AutoCloseable {
    /** {@code sizeof(struct pingpong_dest)}: the receive's length, the largest message. */
    static final int MESSAGE = PerftestDest.STRUCT_SIZE;
    private static final Duration RESOLVE = Duration.ofSeconds(2);
    private static final Duration WAIT = Duration.ofSeconds(30);
    private static final Duration WAIT_FOR_CLIENT = Duration.ofMinutes(2);
    private static final long POLL_LIMIT_NANOS = 120_000_000_000L;

    private final EventChannel events;
    private final RdmaCmId id;
    private final boolean client;
    private final Arena arena = Arena.ofShared();
    private final MemorySegment buf;
    private final Context ctx;
    private final Mr mr;
    private final Cq sendCq;
    private final Cq recvCq;
    private final PreparedRecv recv;
    private final WcBuffer wcs = new WcBuffer(1);

    private PerftestCmComm(EventChannel events, RdmaCmId id, boolean client) {
        this.events = events;
        this.id = id;
        this.client = client;
        this.buf = arena.allocate(2 * MESSAGE, 64);
        this.ctx = id.context();
        Pd pd = ctx.pd();
        this.mr = pd.mr(buf, Access.LOCAL_WRITE);
        this.sendCq = ctx.cq(1);
        this.recvCq = ctx.cq(1);
        Qp qp = id.createQp(pd, new QpInitAttr(QpType.RC, sendCq, recvCq).cap(new QpCap(1, 1, 1, 1, 0)));
        this.recv = qp.prepareRecv(new RecvWr().wrId(0).sge(mr.sge(MESSAGE, MESSAGE)));
        recv.post();
    }

    /** The client's channel to {@code server:port}. */
    static PerftestCmComm connect(String server, int port) throws IOException {
        EventChannel events = EventChannel.create();
        try {
            RdmaCmId id = events.createId(PortSpace.TCP);
            id.resolveAddr(null, new InetSocketAddress(InetAddress.getByName(server), port), RESOLVE);
            expect(events, CmEventType.ADDR_RESOLVED, WAIT);
            id.resolveRoute(RESOLVE);
            expect(events, CmEventType.ROUTE_RESOLVED, WAIT);
            PerftestCmComm comm = new PerftestCmComm(events, id, true);
            id.connect(new ConnParam().retryCount(7).rnrRetryCount(7));
            expect(events, CmEventType.ESTABLISHED, WAIT);
            return comm;
        } catch (IOException | RuntimeException e) {
            events.close();
            throw e;
        }
    }

    /** The server's channel, to the first client that connects to {@code port}. */
    static PerftestCmComm accept(int port) throws IOException {
        EventChannel events = EventChannel.create();
        try {
            PerftestCmComm comm;
            try (RdmaCmId listener = events.createId(PortSpace.TCP)) {
                listener.bindAddr(new InetSocketAddress(port));
                listener.listen(1);
                RdmaCmId id = expect(events, CmEventType.CONNECT_REQUEST, WAIT_FOR_CLIENT).id();
                comm = new PerftestCmComm(events, id, false);
                id.accept(new ConnParam().retryCount(7).rnrRetryCount(7));
            }
            expect(events, CmEventType.ESTABLISHED, WAIT);
            return comm;
        } catch (IOException | RuntimeException e) {
            events.close();
            throw e;
        }
    }

    static CmEvent expect(EventChannel events, CmEventType type, Duration timeout) throws IOException {
        CmEvent event = events.getEvent(timeout);
        if (event == null || event.type() != type) {
            throw new IOException("RDMA CM: expected " + type.text() + ", got "
                    + (event == null ? "nothing in " + timeout.toSeconds() + " s" : event));
        }
        return event;
    }

    /** {@code rdma_write_data}: {@code data} in one signalled SEND, waiting for its completion. */
    void write(byte[] data) throws IOException {
        MemorySegment.copy(data, 0, buf, ValueLayout.JAVA_BYTE, 0, data.length);
        PreparedSend send = id.qp().prepareSend(new SendWr().wrId(0).opcode(WrOpcode.SEND)
                .sge(mr.sge(0, data.length)).flags(SendFlags.SIGNALED));
        send.post();
        await(sendCq, "send");
    }

    /** {@code rdma_read_data}: the next message's first {@code size} bytes; posts the receive again. */
    byte[] read(int size) throws IOException {
        await(recvCq, "receive");
        byte[] data = new byte[size];
        MemorySegment.copy(buf, ValueLayout.JAVA_BYTE, MESSAGE, data, 0, size);
        recv.post();
        return data;
    }

    private void await(Cq cq, String what) throws IOException {
        long start = System.nanoTime();
        while (cq.poll(wcs) == 0) {
            if (System.nanoTime() - start > POLL_LIMIT_NANOS) {
                throw new IOException("Couldn't read remote data: no " + what + " completion on the rdma_cm side channel");
            }
            Thread.onSpinWait();
        }
        if (!wcs.isSuccess(0)) {
            throw new IOException("Bad wc status on the rdma_cm side channel: " + wcs.status(0));
        }
    }

    /**
     * Closes the connection: the client disconnects first and waits for DISCONNECTED, as
     * perftest's {@code destroy_ctx} of the side channel does; then the identifier, its queue
     * pair and the rest.
     */
    @Override
    public void close() {
        try {
            if (client) {
                id.disconnect();
                events.getEvent(WAIT);
            }
        } finally {
            events.close();
            ctx.close();
            arena.close();
        }
    }
}
