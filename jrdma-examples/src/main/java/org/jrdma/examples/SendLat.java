package org.jrdma.examples;

import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.Arrays;
import java.util.List;
import java.util.function.Function;
import org.jrdma.cm.CmEvent;
import org.jrdma.cm.RdmaCmId;
import org.jrdma.cm.UdParam;
import org.jrdma.examples.PingpongExchange.ExchangeException;
import org.jrdma.iba.Gid;
import org.jrdma.iba.Mtu;
import org.jrdma.verbs.Access;
import org.jrdma.verbs.Ah;
import org.jrdma.verbs.AhAttr;
import org.jrdma.verbs.Context;
import org.jrdma.verbs.Cq;
import org.jrdma.verbs.Mr;
import org.jrdma.verbs.Pd;
import org.jrdma.verbs.PortAttr;
import org.jrdma.verbs.PreparedRecv;
import org.jrdma.verbs.PreparedSend;
import org.jrdma.verbs.Qp;
import org.jrdma.verbs.QpCap;
import org.jrdma.verbs.QpInitAttr;
import org.jrdma.verbs.QpType;
import org.jrdma.verbs.RecvWr;
import org.jrdma.verbs.SendFlags;
import org.jrdma.verbs.SendWr;
import org.jrdma.verbs.Sge;
import org.jrdma.verbs.Verbs;
import org.jrdma.verbs.WcBuffer;
import org.jrdma.verbs.WrOpcode;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * perftest's {@code ib_send_lat -R} in Java: sends ping-ponged between client and server on
 * one RC or UD ({@code -c UD}) queue pair connected by rdma_cm ({@link PerftestCm}), over
 * perftest 6.06's side channel ({@link PerftestChannel}), so either side may be the C tool.
 * A UD pair is "connected" by SIDR, then as perftest's {@code rdma_cm_establish_ud_connection}:
 * the client sends to the address, QPN and Q_Key of its ESTABLISHED event, and first sends the
 * server its own QPN as the immediate data of a 4-byte SEND_WITH_IMM, which the server, having
 * posted a receive for it before accepting, answers to (its address handle made from the
 * connect request's GIDs, the Q_Key librdmacm's {@code RDMA_UDP_QKEY}); each UD receive has 40
 * bytes more for the GRH. The client sends first;
 * each side, after each receive, sends (signalled) and waits for that send's completion, as
 * perftest's {@code run_iter_lat_send} with its latency defaults ({@code cq_mod} 1). Each side
 * prints perftest's latency row: the gaps between successive sends, halved (a round trip is two
 * messages), the two largest left out, as {@code print_report_lat}; times are
 * {@link System#nanoTime()} where perftest counts CPU cycles.
 *
 * <pre>
 * java ... org.jrdma.examples.SendLat -d rxe0 -x 0 -F -R           # server
 * java ... org.jrdma.examples.SendLat -d rxe0 -x 0 -F -R 10.0.0.1  # client
 * </pre>
 *
 * <p>Options: {@code -c -d -i -s -n -x -p -F -R} as perftest's ({@code -c} RC or UD; {@code -R}
 * required: this connects only with rdma_cm); {@code --output=latency} prints only the average,
 * as perftest does.
 */
public final class SendLat {
    /** perftest's {@code LAT_MEASURE_TAIL}: the largest gaps left out of the statistics. */
    private static final int MEASURE_TAIL = 2;
    private static final int MAX_RX = 128;
    private static final long SPIN_LIMIT_NANOS = 30_000_000_000L;
    /** The hop limit of the server's UD address handle. */
    private static final int HOP_LIMIT = 64;

    /** The options of {@code ib_send_lat} this implements, with perftest's defaults, and the operand. */
    private static final class Options {
        @Option(names = {"-d", "--ib-dev"}) String device;
        @Option(names = {"-i", "--ib-port"}) long ibPort = 1;
        @Option(names = {"-s", "--size"}) long size = 2;
        @Option(names = {"-n", "--iters"}) long iters = 1000;
        @Option(names = {"-x", "--gid-index"}) long gidIndex = -1;
        @Option(names = {"-p", "--port"}) long port = 18515;
        @Option(names = {"-F", "--CPU-freq"}) boolean cpuFreq;
        @Option(names = {"-R", "--rdma_cm"}) boolean rdmaCm;
        @Option(names = {"-c", "--connection"}) String connection = "RC";
        @Option(names = "--output") String output;
        @Parameters List<String> operands;
    }

    private final Options options;
    private final String server;
    private final boolean ud;
    private final int size;
    private final int iters;
    private final WcBuffer wcs = new WcBuffer(1);
    private final long[] tposted;

    private Ah ah;
    private int remoteQpn;
    private int remoteQkey;

    private SendLat(Options options, boolean ud) {
        this.options = options;
        this.ud = ud;
        this.server = options.operands == null || options.operands.isEmpty() ? null : options.operands.getFirst();
        this.size = (int) options.size;
        this.iters = (int) options.iters;
        this.tposted = new long[iters];
    }

    /** Runs {@code ib_send_lat -R} with {@code args}; exits 0 on success, 1 on failure. */
    public static void main(String[] args) {
        Options options = new Options();
        boolean ud;
        try {
            GetoptStyle.parse(options, args, List.of());
            ud = BwSettings.connection(options.connection, true);
            if (!options.rdmaCm) {
                throw new UsageException(" the Java ib_send_lat connects with rdma_cm only: give -R");
            }
            if (options.iters < 5 || options.iters > Integer.MAX_VALUE || options.size < 1
                    || options.size > Integer.MAX_VALUE) {
                throw new UsageException(" iters should be at least 5 and size at least 1");
            }
        } catch (UsageException e) {
            System.err.println(e.getMessage());
            System.exit(1);
            return;
        }
        try {
            System.exit(new SendLat(options, ud).test());
        } catch (IOException | ExchangeException | RuntimeException e) {
            System.err.println(e.getMessage() != null ? e.getMessage() : e.toString());
            System.exit(1);
        }
    }

    private int test() throws IOException, ExchangeException {
        String device = Perftest.device(options.device);
        if (device == null) {
            return 1;
        }
        int ibPort = (int) options.ibPort;
        try (Arena arena = Arena.ofConfined(); Context named = Verbs.openConfined(device)) {
            PortAttr port = named.queryPort(ibPort);
            boolean ethernet = port.linkLayer() == PortAttr.LINK_LAYER_ETHERNET;
            int gidIndex = options.gidIndex == -1 && ethernet ? 0 : (int) options.gidIndex;
            Gid gid = gidIndex >= 0 ? named.queryGid(ibPort, gidIndex) : null;
            if (server == null) {
                Perftest.printWaiting();
            }
            try (PerftestChannel channel = server != null ? PerftestChannel.connectCm(server, (int) options.port)
                    : PerftestChannel.acceptCm((int) options.port)) {
                if (channel.exchangeVersions() < PerftestChannel.OLDEST_VERSION) {
                    throw new IOException("the perftest version on the other side is older than "
                            + PerftestChannel.OLDEST_VERSION + ", which this does not speak");
                }
                channel.exchange(Perftest.CYCLE_BUFFER);
                channel.exchange(Perftest.CACHE_LINE);
                Mtu mtu = port.activeMtu();
                Mtu remoteMtu = Mtu.fromValueOrNull(channel.exchangeMtu(mtu.value()));
                if (remoteMtu != null && remoteMtu.value() < mtu.value()) {
                    mtu = remoteMtu;
                }
                int slot = Math.max(size + Perftest.UD_ADDITION, Perftest.CACHE_LINE);
                MemorySegment buf = arena.allocate(2L * slot, Perftest.CYCLE_BUFFER);
                int rx = Math.min(iters, MAX_RX);
                Mr[] mr = new Mr[1];
                Cq[] cqs = new Cq[2];
                Function<RdmaCmId, Qp> makeQp = id -> {
                    if (mr[0] == null) {
                        Pd pd = id.context().pd();
                        mr[0] = pd.mr(buf, Access.LOCAL_WRITE);
                        cqs[0] = id.context().cq(1);
                        cqs[1] = id.context().cq(rx);
                    }
                    Qp qp = id.createQp(mr[0].pd(), new QpInitAttr(ud ? QpType.UD : QpType.RC, cqs[0], cqs[1])
                            .cap(new QpCap(1, rx, 1, 1, 0)));
                    if (ud && server == null) {
                        qp.postRecv(new RecvWr().wrId(0).sge(new Sge(mr[0].addr() + slot, Perftest.UD_ADDITION + Integer.BYTES,
                                mr[0].lkey())));
                    }
                    return qp;
                };
                PerftestCm.Connected connected = (index, event) -> {
                    if (ud) {
                        udConnected(event, mr[0], cqs[0], cqs[1]);
                    }
                };
                try (PerftestCm cm = server != null
                        ? PerftestCm.connect(channel, server, (int) options.port, 1, ud, makeQp, connected)
                        : PerftestCm.accept(channel, (int) options.port, 1, ud, makeQp, connected)) {
                    Qp qp = cm.qp();
                    printTestInfo(device, mtu, ethernet, gidIndex);
                    PerftestDest mine = new PerftestDest(port.lid(), 0, qp.qpNum(), 0, mr[0].rkey(), mr[0].addr(), gid, 0);
                    channel.handshake(mine);
                    channel.handshake(mine);
                    System.out.println(mine.describe("local", false));
                    PerftestDest remote = channel.handshake(mine);
                    System.out.println(remote.describe("remote", false));
                    if (!"latency".equals(options.output)) {
                        System.out.println(BwReport.RESULT_LINE);
                        System.out.println(" #bytes #iterations    t_min[usec]    t_max[usec]  t_typical[usec]    t_avg[usec]"
                                + "    t_stdev[usec]   99% percentile[usec]   99.9% percentile[usec] ");
                    }
                    SendWr ping = new SendWr().wrId(0).opcode(WrOpcode.SEND)
                            .sge(new Sge(mr[0].addr(), size, mr[0].lkey())).flags(SendFlags.SIGNALED);
                    PreparedSend send = qp.prepareSend(ud ? ping.ud(ah, remoteQpn, remoteQkey) : ping);
                    PreparedRecv recv = qp.prepareRecv(new RecvWr().wrId(0).sge(new Sge(mr[0].addr() + slot,
                            size + (ud ? Perftest.UD_ADDITION : 0), mr[0].lkey())));
                    for (int i = 0; i < rx; i++) {
                        recv.post();
                    }
                    channel.handshake(mine);
                    pingPong(send, recv, cqs[0], cqs[1], rx);
                    System.out.println(report());
                    if (!"latency".equals(options.output)) {
                        System.out.println(BwReport.RESULT_LINE);
                    }
                    channel.finish(mine);
                }
            }
        }
        return 0;
    }

    /**
     * A UD pair's step after SIDR ({@code rdma_cm_establish_ud_connection} and
     * {@code rdma_cm_initialize_ud_connection_parameters}): the client takes the server's
     * address, QPN and Q_Key from {@code event} (ESTABLISHED) and sends its own QPN; the server
     * takes the client's QPN from that message, which the receive posted before accepting
     * holds, and makes its address handle from the connect request's identifier.
     */
    private void udConnected(CmEvent event, Mr mr, Cq sendCq, Cq recvCq) throws IOException {
        RdmaCmId id = event.id();
        if (server != null) {
            UdParam param = event.ud();
            ah = mr.pd().ah(param.ahAttr());
            remoteQpn = param.qpNum();
            remoteQkey = param.qkey();
            id.qp().postSend(new SendWr().wrId(0).opcode(WrOpcode.SEND_WITH_IMM).immData(id.qp().qpNum())
                    .sge(new Sge(mr.addr(), Integer.BYTES, mr.lkey())).flags(SendFlags.SIGNALED)
                    .ud(ah, remoteQpn, remoteQkey));
            await(sendCq, "send of the UD connection parameters", 0);
            return;
        }
        await(recvCq, "receive of the UD connection parameters", 0);
        remoteQpn = wcs.immData(0);
        remoteQkey = RdmaCmId.UDP_QKEY;
        ah = mr.pd().ah(new AhAttr().grh(id.dgid(), gidIndex(id), HOP_LIMIT).portNum(id.portNum()));
    }

    /** The index of {@code id}'s source GID in its port's GID table. */
    private static int gidIndex(RdmaCmId id) throws IOException {
        Context ctx = id.context();
        for (int i = 0; i < ctx.queryPort(id.portNum()).gidTblLen(); i++) {
            if (ctx.queryGid(id.portNum(), i).equals(id.sgid())) {
                return i;
            }
        }
        throw new IOException("no GID " + id.sgid() + " on port " + id.portNum());
    }

    /** {@code run_iter_lat_send}: the server receives first; every send waits for its completion. */
    private void pingPong(PreparedSend send, PreparedRecv recv, Cq sendCq, Cq recvCq, int rx) throws IOException {
        int scnt = 0;
        int rcnt = 0;
        boolean client = server != null;
        while (scnt < iters || rcnt < iters) {
            if (rcnt < iters && !(scnt < 1 && client)) {
                await(recvCq, "receive", rcnt);
                rcnt++;
                if (rcnt + rx <= iters) {
                    recv.post();
                }
            }
            if (scnt < iters) {
                tposted[scnt++] = System.nanoTime();
                send.post();
                await(sendCq, "send", scnt);
            }
        }
    }

    private void await(Cq cq, String what, int count) throws IOException {
        long start = System.nanoTime();
        while (cq.poll(wcs) == 0) {
            if (System.nanoTime() - start > SPIN_LIMIT_NANOS) {
                throw new IOException("no " + what + " completion after " + count + " in 30 s");
            }
        }
        if (!wcs.isSuccess(0)) {
            throw new IOException("Completion with error at " + what + " " + count + ": " + wcs.status(0));
        }
    }

    /** {@code print_report_lat}'s row, or with {@code --output=latency} the average alone. */
    private String report() {
        int measured = iters - 1;
        long[] delta = new long[measured];
        for (int i = 0; i < measured; i++) {
            delta[i] = tposted[i + 1] - tposted[i];
        }
        Arrays.sort(delta);
        int n = measured - MEASURE_TAIL;
        double median = (n - 1) % 2 != 0 ? (delta[n / 2] + delta[n / 2 - 1]) / 2.0 : delta[n / 2];
        double sum = 0;
        for (int i = 0; i < n; i++) {
            sum += usec(delta[i]);
        }
        double average = sum / n;
        double squares = 0;
        for (int i = 0; i < n; i++) {
            squares += Math.pow(average - usec(delta[i]), 2);
        }
        if ("latency".equals(options.output)) {
            return String.format("%f", average);
        }
        int p99 = (int) Math.ceil(n * 0.99);
        int p999 = (int) Math.ceil(n * 0.999);
        return " " + CFormat.left(Integer.toString(size), 7) + " " + iters + "          "
                + CFormat.fixedLeft(usec(delta[0]), 7, 2) + "        " + CFormat.fixedLeft(usec(delta[n]), 7, 2)
                + "      " + CFormat.fixedLeft(median / 2000.0, 7, 2) + "  \t       " + CFormat.fixedLeft(average, 7, 2)
                + "     \t" + CFormat.fixedLeft(Math.sqrt(squares / n), 7, 2) + "\t\t"
                + CFormat.fixedLeft(usec(delta[p99]), 7, 2) + " \t\t" + CFormat.fixedLeft(usec(delta[p999]), 7, 2);
    }

    /** A gap between two sends in microseconds of one-way latency: half of it. */
    private static double usec(long nanos) {
        return nanos / 2000.0;
    }

    private void printTestInfo(String device, Mtu mtu, boolean ethernet, int gidIndex) {
        System.out.println(BwReport.RESULT_LINE);
        System.out.println("                    Send Latency Test");
        System.out.println(" Dual-port       : OFF\t\tDevice         : " + device);
        System.out.println(" Number of qps   : 1\t\tTransport type : IB");
        System.out.println(" Connection type : " + (ud ? "UD" : "RC") + "\t\tUsing SRQ      : OFF");
        System.out.println(" TX depth        : 1");
        System.out.println(" RX depth        : " + Math.min(iters, MAX_RX));
        Perftest.printLinkAndExchange(mtu, ethernet, gidIndex, true);
    }
}
