package org.jrdma.examples;

import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.function.Function;
import org.jrdma.cm.RdmaCmId;
import org.jrdma.cm.UdParam;
import org.jrdma.examples.BwWriter.BwException;
import org.jrdma.iba.Gid;
import org.jrdma.iba.Mtu;
import org.jrdma.verbs.Access;
import org.jrdma.verbs.Ah;
import org.jrdma.verbs.Context;
import org.jrdma.verbs.Cq;
import org.jrdma.verbs.Mr;
import org.jrdma.verbs.Pd;
import org.jrdma.verbs.PortAttr;
import org.jrdma.verbs.PreparedRecv;
import org.jrdma.verbs.Qp;
import org.jrdma.verbs.QpCap;
import org.jrdma.verbs.QpInitAttr;
import org.jrdma.verbs.QpType;
import org.jrdma.verbs.RecvWr;
import org.jrdma.verbs.SendWr;
import org.jrdma.verbs.Sge;
import org.jrdma.verbs.WcBuffer;
import org.jrdma.verbs.WrOpcode;

/**
 * perftest's {@code ib_send_bw -R} in Java: SENDs from client to server, unidirectional, on one
 * or more ({@code -q}) RC or UD ({@code -c UD}) queue pairs connected by rdma_cm
 * ({@link PerftestCm}; UD ones by SIDR, the client sending to the address, QPN and Q_Key of the
 * server's ESTABLISHED event), over perftest 6.06's side channel ({@link PerftestChannel}), so
 * either side may be the C tool. It prints perftest's test description, addresses and result
 * table.
 *
 * <pre>
 * java ... org.jrdma.examples.SendBw -d rxe0 -x 0 -F -R           # server
 * java ... org.jrdma.examples.SendBw -d rxe0 -x 0 -F -R 10.0.0.1  # client
 * </pre>
 *
 * <p>The client sends ({@link BwWriter}, as perftest's {@code run_iter_bw}) and prints its
 * report; the server keeps {@code rx-depth} receives posted on each queue pair, posts one again
 * for each message until {@code -n} are posted (perftest's {@code run_iter_bw_server}), times
 * from the first message received to the last and prints its own report, without a peak as
 * perftest's server. A UD receive has 40 bytes more for the GRH; a UD message is at most the MTU
 * ({@code -s} is cut to it, as perftest's {@code check_link} does). The server's receives all
 * land at the start of their queue pair's part of the buffer, where perftest's walk through the
 * cycle buffer: only the addresses differ, not what travels. Not supported: the TCP side channel
 * (no {@code -R}), durations ({@code -D}), bidirectional runs, SRQ, post lists, inline data,
 * events and perftest's other options outside {@link BwSettings}; the Java-only
 * {@code --warmup} and {@code --runs}, whose extra sends the server would not expect.
 */
public final class SendBw {
    /** perftest's {@code CTX_POLL_BATCH}: completions taken per poll. */
    private static final int POLL_BATCH = 16;
    /** How long the server waits for the next message: perftest's {@code check_alive}, two 60 s alarms. */
    private static final long ALIVE_NANOS = 120_000_000_000L;
    private static final long NANOS_PER_SECOND = 1_000_000_000L;
    private static final long MIB = 0x100000;
    private static final long GBIT = 125_000_000;
    private static final SecureRandom RANDOM = new SecureRandom();

    private BwSettings settings;
    private final String device;
    private final Arena arena;
    private final Context named;

    /** What the connection made: the buffer's registration, the completion queues, UD targets. */
    private Mr mr;
    private Cq sendCq;
    private Cq recvCq;
    private Ah[] ahs;
    private int[] remoteQpns;
    private int[] remoteQkeys;

    private SendBw(BwSettings settings, Context named, String device, Arena arena) {
        this.settings = settings;
        this.named = named;
        this.device = device;
        this.arena = arena;
    }

    /** Runs {@code ib_send_bw -R} with {@code args}; exits 0 on success, 1 on failure. */
    public static void main(String[] args) {
        Perftest.bwMain(args, BwSettings::parseSend, BwSettings.SEND_USAGE, SendBw::test);
    }

    /** Runs one side; returns the exit status, printing what failed on standard error. */
    static int run(BwSettings settings) {
        return Perftest.runBw(settings, SendBw::test);
    }

    private static int test(BwSettings settings, Context named, String device, Arena arena) throws BwException, IOException {
        return new SendBw(settings, named, device, arena).test();
    }

    private int test() throws BwException, IOException {
        PortAttr port = named.queryPort(settings.ibPort());
        boolean ethernet = port.linkLayer() == PortAttr.LINK_LAYER_ETHERNET;
        int gidIndex = settings.gidIndex() == -1 && ethernet ? 0 : settings.gidIndex();
        Mtu mtu = WriteBw.localMtu(settings, port);
        if (settings.ud() && settings.size() > mtu.bytes()) {
            settings = settings.withSize(mtu.bytes());
        }
        if (!settings.isClient()) {
            Perftest.printWaiting();
        }
        try (PerftestChannel channel = settings.isClient() ? PerftestChannel.connectCm(settings.server(), settings.port())
                : PerftestChannel.acceptCm(settings.port())) {
            double version = channel.exchangeVersions();
            if (version < PerftestChannel.OLDEST_VERSION) {
                throw new IOException("perftest version " + version + " on the other side is older than "
                        + PerftestChannel.OLDEST_VERSION + ", which this does not speak");
            }
            int cycleBuffer = Math.max(Perftest.CYCLE_BUFFER, channel.exchange(Perftest.CYCLE_BUFFER));
            int cacheLine = Math.max(Perftest.CACHE_LINE, channel.exchange(Perftest.CACHE_LINE));
            Mtu remoteMtu = Mtu.fromValueOrNull(channel.exchangeMtu(mtu.value()));
            if (remoteMtu != null && remoteMtu.value() < mtu.value()) {
                mtu = remoteMtu;
            }
            Gid gid = gidIndex >= 0 ? named.queryGid(settings.ibPort(), gidIndex) : null;
            return connectAndRun(channel, port, gid, mtu, ethernet, gidIndex, cycleBuffer, cacheLine);
        }
    }

    private int connectAndRun(PerftestChannel channel, PortAttr port, Gid gid, Mtu mtu, boolean ethernet, int gidIndex,
            int cycleBuffer, int cacheLine) throws IOException, BwException {
        int qps = settings.qps();
        int buffSize = Math.max(settings.size(), cycleBuffer);
        long slot = (buffSize + cacheLine - 1L) / cacheLine * cacheLine;
        MemorySegment buf = arena.allocate(2 * qps * slot + (settings.ud() ? cacheLine : 0), Perftest.CYCLE_BUFFER);
        ahs = new Ah[qps];
        remoteQpns = new int[qps];
        remoteQkeys = new int[qps];
        Function<RdmaCmId, Qp> makeQp = id -> makeQp(id, buf);
        PerftestCm.Connected connected = (index, event) -> {
            if (settings.ud() && settings.isClient()) {
                UdParam ud = event.ud();
                ahs[index] = mr.pd().ah(ud.ahAttr());
                remoteQpns[index] = ud.qpNum();
                remoteQkeys[index] = ud.qkey();
            }
        };
        try (PerftestCm cm = settings.isClient()
                ? PerftestCm.connect(channel, settings.server(), settings.port(), qps, settings.ud(), makeQp, connected)
                : PerftestCm.accept(channel, settings.port(), qps, settings.ud(), makeQp, connected)) {
            printTestInfo(mtu, ethernet, gidIndex);
            List<Qp> connectedQps = cm.qps();
            PerftestDest[] mine = new PerftestDest[qps];
            for (int i = 0; i < qps; i++) {
                mine[i] = new PerftestDest(port.lid(), 1, connectedQps.get(i).qpNum(), RANDOM.nextInt() & 0xffffff,
                        mr.rkey(), mr.addr() + (qps + i) * slot, gid, 0);
                channel.handshake(mine[i]);
            }
            channel.handshake(mine[0]);
            for (PerftestDest dest : mine) {
                System.out.println(dest.describe("local", false));
            }
            for (int i = 0; i < qps; i++) {
                System.out.println(channel.handshake(mine[i]).describe("remote", false));
            }
            System.out.println(BwReport.RESULT_LINE);
            System.out.println(BwReport.header(settings.gbits()));
            BwReport report;
            long allocated = 0;
            long ops = 0;
            if (settings.isClient()) {
                List<BwWriter.Lane> lanes = new ArrayList<>();
                for (int i = 0; i < qps; i++) {
                    long local = mr.addr() + i * slot;
                    SendWr send = new SendWr().opcode(WrOpcode.SEND).sge(new Sge(local, settings.size(), mr.lkey()));
                    if (settings.ud()) {
                        send.ud(ahs[i], remoteQpns[i], remoteQkeys[i]);
                    }
                    lanes.add(new BwWriter.Lane(connectedQps.get(i), send, local, 0));
                }
                BwWriter writer = new BwWriter(sendCq, settings, lanes, cycleBuffer, cacheLine);
                channel.handshake(mine[0]);
                report = writer.run();
                allocated = writer.allocated();
                ops = writer.ops();
            } else {
                PreparedRecv[] recvs = postReceives(connectedQps, qps * slot);
                channel.handshake(mine[0]);
                report = receive(recvs);
            }
            System.out.println(report.row(settings.gbits()));
            System.out.println(BwReport.RESULT_LINE);
            if (settings.alloc() && settings.isClient()) {
                System.out.println(AllocationMeter.report(allocated, ops));
            }
            channel.finish(mine[0]);
            return 0;
        }
    }

    /**
     * {@code ctx_init} and {@code create_qp_main} with rdma_cm: on the first identifier the
     * buffer's registration and the completion queues ({@code tx-depth} and {@code rx-depth}
     * completions of each queue pair), then on each its queue pair, made by
     * {@code rdma_create_qp} (librdmacm takes a UD one to RTS with its Q_Key).
     */
    private Qp makeQp(RdmaCmId id, MemorySegment buf) {
        if (mr == null) {
            Pd pd = id.context().pd();
            mr = pd.mr(buf, Access.LOCAL_WRITE);
            sendCq = id.context().cq(settings.txDepth() * settings.qps());
            recvCq = id.context().cq(settings.rxDepth() * settings.qps());
        }
        return id.createQp(mr.pd(), new QpInitAttr(settings.ud() ? QpType.UD : QpType.RC, sendCq, recvCq)
                .cap(new QpCap(settings.txDepth(), settings.rxDepth(), 1, 1, 0)));
    }

    /**
     * {@code ctx_set_recv_wqes}: {@code rx-depth} receives on each queue pair, its
     * {@code wr_id} the queue pair's index, into its part of the receive half of the buffer
     * (which starts {@code receiveHalf} bytes in), with room for the GRH on UD.
     */
    private PreparedRecv[] postReceives(List<Qp> qps, long receiveHalf) {
        int length = settings.size() + (settings.ud() ? Perftest.UD_ADDITION : 0);
        long slot = receiveHalf / qps.size();
        PreparedRecv[] recvs = new PreparedRecv[qps.size()];
        for (int i = 0; i < qps.size(); i++) {
            long addr = mr.addr() + receiveHalf + i * slot;
            recvs[i] = qps.get(i).prepareRecv(new RecvWr().wrId(i).sge(new Sge(addr, length, mr.lkey())));
            for (int j = 0; j < settings.rxDepth(); j++) {
                recvs[i].post();
            }
        }
        return recvs;
    }

    /**
     * {@code run_iter_bw_server} and {@code print_report_bw} for the server: takes the
     * {@code -n} messages of every queue pair, posting a receive again for each until
     * {@code -n} were posted on its queue pair, and reports from the first message to the last.
     */
    private BwReport receive(PreparedRecv[] recvs) throws BwException {
        int iters = settings.iters();
        long total = (long) iters * recvs.length;
        long[] posted = new long[recvs.length];
        Arrays.fill(posted, settings.rxDepth());
        WcBuffer wcs = new WcBuffer(POLL_BATCH);
        long rcnt = 0;
        long first = 0;
        long progress = System.nanoTime();
        while (rcnt < total) {
            int ne = recvCq.poll(wcs);
            if (ne == 0) {
                if (System.nanoTime() - progress > ALIVE_NANOS) {
                    throw new BwException(" Did not get Message for 120 Seconds, exiting..\n Total Received=" + rcnt
                            + ", Total Iters Required=" + total);
                }
                continue;
            }
            progress = System.nanoTime();
            if (rcnt == 0) {
                first = progress;
            }
            for (int i = 0; i < ne; i++) {
                int lane = (int) wcs.wrId(i);
                if (!wcs.isSuccess(i)) {
                    throw new BwException(" Completion with error at server\n Failed status " + wcs.status(i).value()
                            + ": wr_id " + lane + " syndrom 0x" + Integer.toHexString(wcs.vendorErr(i)) + "\n rcnt="
                            + rcnt + " (" + wcs.status(i).text() + ")");
                }
                rcnt++;
                if (posted[lane] < iters) {
                    recvs[lane].post();
                    posted[lane]++;
                }
            }
        }
        double nanos = System.nanoTime() - first;
        long format = settings.gbits() ? GBIT : MIB;
        double average = (double) settings.size() * total * NANOS_PER_SECOND / (nanos * format);
        double msgRate = total * NANOS_PER_SECOND / (nanos * 1_000_000);
        return new BwReport(settings.size(), total, 0, average, msgRate);
    }

    /** {@code ctx_print_test_info} for this test. */
    private void printTestInfo(Mtu mtu, boolean ethernet, int gidIndex) {
        System.out.println(BwReport.RESULT_LINE);
        System.out.println("                    Send BW Test");
        System.out.println(" Dual-port       : OFF\t\tDevice         : " + device);
        System.out.println(" Number of qps   : " + settings.qps() + "\t\tTransport type : IB");
        System.out.println(" Connection type : " + (settings.ud() ? "UD" : "RC") + "\t\tUsing SRQ      : OFF");
        System.out.println(" PCIe relax order: OFF");
        System.out.println(" ibv_wr* API     : OFF");
        if (settings.isClient()) {
            System.out.println(" TX depth        : " + settings.txDepth());
        } else {
            System.out.println(" RX depth        : " + settings.rxDepth());
        }
        System.out.println(" CQ Moderation   : " + settings.cqMod());
        Perftest.printLinkAndExchange(mtu, ethernet, gidIndex, true);
    }
}
