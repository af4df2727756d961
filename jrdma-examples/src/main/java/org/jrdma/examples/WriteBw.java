package org.jrdma.examples;

import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;
import org.jrdma.cm.RdmaCmId;
import org.jrdma.examples.BwWriter.BwException;
import org.jrdma.examples.PingpongExchange.ExchangeException;
import org.jrdma.iba.Gid;
import org.jrdma.iba.Mtu;
import org.jrdma.verbs.Access;
import org.jrdma.verbs.AhAttr;
import org.jrdma.verbs.Context;
import org.jrdma.verbs.Cq;
import org.jrdma.verbs.Mr;
import org.jrdma.verbs.Pd;
import org.jrdma.verbs.PortAttr;
import org.jrdma.verbs.Qp;
import org.jrdma.verbs.QpAttr;
import org.jrdma.verbs.QpCap;
import org.jrdma.verbs.QpInitAttr;
import org.jrdma.verbs.QpState;
import org.jrdma.verbs.QpType;
import org.jrdma.verbs.SendWr;
import org.jrdma.verbs.Sge;
import org.jrdma.verbs.Verbs;
import org.jrdma.verbs.WrOpcode;

/**
 * perftest's {@code ib_write_bw} in Java, for its default case: RC, RDMA writes from client to
 * server, unidirectional; one queue pair connected from the destinations exchanged, or with
 * {@code -R} one or more ({@code -q}) connected by rdma_cm ({@link PerftestCm}). It speaks
 * perftest 6.06's TCP side channel ({@link PerftestChannel}), so either side may be the C tool,
 * and prints perftest's test description, addresses and result table.
 *
 * <pre>
 * java --enable-native-access=ALL-UNNAMED -cp ... org.jrdma.examples.WriteBw -d rxe0 -x 0 -F           # server
 * java --enable-native-access=ALL-UNNAMED -cp ... org.jrdma.examples.WriteBw -d rxe0 -x 0 -F 10.0.0.1  # client
 * </pre>
 *
 * <p>The client writes ({@link BwWriter}); the server only waits, then prints the client's
 * report (of its last run, with {@code --runs}). Each side is one thread, and opens the device
 * confined to it ({@link Verbs#openConfined}). Not supported: other tests and transports
 * ({@code -c} other than RC), bidirectional runs ({@code -b}), all sizes ({@code -a}), several
 * QPs without {@code -R}, post lists,
 * inline data, rdma_cm for the side channel ({@code -z}), dual port, limits, counters and the rest of perftest's options outside
 * {@link BwSettings}; the page size and cache line are taken as 4096 and 64 bytes; relaxed
 * ordering is not used.
 */
public final class WriteBw {
    private static final int MIN_RNR_TIMER = 12;
    private static final SecureRandom RANDOM = new SecureRandom();

    private final BwSettings settings;
    private final Context ctx;
    private final String device;
    private final Arena arena;
    private final int myPsn = psn();

    private WriteBw(BwSettings settings, Context ctx, String device, Arena arena) {
        this.settings = settings;
        this.ctx = ctx;
        this.device = device;
        this.arena = arena;
    }

    /** Runs {@code ib_write_bw} with {@code args}; exits 0 on success, 1 on failure. */
    public static void main(String[] args) {
        Perftest.bwMain(args, BwSettings::parse, BwSettings.USAGE, WriteBw::test);
    }

    /** Runs one side; returns the exit status, printing what failed on standard error. */
    static int run(BwSettings settings) {
        return Perftest.runBw(settings, WriteBw::test);
    }

    private static int test(BwSettings settings, Context ctx, String device, Arena arena)
            throws ExchangeException, BwException, IOException {
        return new WriteBw(settings, ctx, device, arena).test();
    }

    private int test() throws ExchangeException, BwException, IOException {
        PortAttr port = ctx.queryPort(settings.ibPort());
        boolean ethernet = port.linkLayer() == PortAttr.LINK_LAYER_ETHERNET;
        int gidIndex = settings.gidIndex() == -1 && ethernet ? 0 : settings.gidIndex();
        if (!settings.isClient()) {
            Perftest.printWaiting();
        }
        try (PerftestChannel channel = settings.rdmaCm()
                ? settings.isClient() ? PerftestChannel.connectCm(settings.server(), settings.port())
                        : PerftestChannel.acceptCm(settings.port())
                : settings.isClient() ? PerftestChannel.connect(settings.server(), settings.port())
                        : PerftestChannel.accept(settings.port())) {
            double version = channel.exchangeVersions();
            if (version < PerftestChannel.OLDEST_VERSION) {
                throw new IOException("perftest version " + version + " on the other side is older than "
                        + PerftestChannel.OLDEST_VERSION + ", which this does not speak");
            }
            int cycleBuffer = Math.max(Perftest.CYCLE_BUFFER, channel.exchange(Perftest.CYCLE_BUFFER));
            int cacheLine = Math.max(Perftest.CACHE_LINE, channel.exchange(Perftest.CACHE_LINE));
            Mtu mtu = localMtu(settings, port);
            Mtu remoteMtu = Mtu.fromValueOrNull(channel.exchangeMtu(mtu.value()));
            if (remoteMtu != null && remoteMtu.value() < mtu.value()) {
                mtu = remoteMtu;
            }
            printTestInfo(mtu, ethernet, gidIndex);
            return exchangeAndRun(channel, port, mtu, gidIndex, cycleBuffer, cacheLine);
        }
    }

    private int exchangeAndRun(PerftestChannel channel, PortAttr port, Mtu mtu, int gidIndex, int cycleBuffer,
            int cacheLine) throws IOException, BwException {
        int buffSize = Math.max(settings.size(), cycleBuffer);
        int qps = settings.qps();
        MemorySegment buf = arena.allocate(2L * qps * buffSize, Perftest.CYCLE_BUFFER);
        Gid gid = gidIndex >= 0 ? ctx.queryGid(settings.ibPort(), gidIndex) : null;
        if (settings.rdmaCm()) {
            Resources[] made = new Resources[1];
            Function<RdmaCmId, Qp> makeQp = id -> (made[0] = resources(id, buf, made[0])).qp();
            try (PerftestCm cm = settings.isClient()
                    ? PerftestCm.connect(channel, settings.server(), settings.port(), qps, false, makeQp, (i, e) -> { })
                    : PerftestCm.accept(channel, settings.port(), qps, false, makeQp, (i, e) -> { })) {
                Mr mr = made[0].mr;
                List<Qp> connected = cm.qps();
                PerftestDest[] mine = new PerftestDest[qps];
                for (int i = 0; i < qps; i++) {
                    mine[i] = new PerftestDest(port.lid(), 1, connected.get(i).qpNum(), i == 0 ? myPsn : psn(), mr.rkey(),
                            mr.addr() + (long) (qps + i) * buffSize, gid, 0);
                    channel.handshake(mine[i]);
                }
                for (PerftestDest dest : mine) {
                    System.out.println(dest.describe("local"));
                }
                PerftestDest[] remote = new PerftestDest[qps];
                for (int i = 0; i < qps; i++) {
                    remote[i] = channel.handshake(mine[i]);
                    System.out.println(remote[i].describe("remote"));
                }
                channel.handshake(mine[0]);
                return run(channel, made[0].cq, connected, mr, buffSize, mine[0], remote, cycleBuffer, cacheLine);
            }
        }
        Resources r = resources(ctx.pd(), buf);
        r.qp.modify(new QpAttr().qpState(QpState.INIT).pkeyIndex(0).portNum(settings.ibPort())
                .qpAccessFlags(Access.LOCAL_WRITE | Access.REMOTE_WRITE));
        PerftestDest mine = new PerftestDest(port.lid(), 1, r.qp.qpNum(), myPsn, r.mr.rkey(), r.mr.addr() + buffSize,
                gid, 0);
        System.out.println(mine.describe("local"));
        PerftestDest remote = channel.handshake(mine);
        System.out.println(remote.describe("remote"));
        if (gid != null && isIpv4(gid) != isIpv4(remote.gid())) {
            throw new IOException("\n Found Incompatibility issue with GID types.\n Please Try to use a different IP version.\n");
        }
        connect(r.qp, remote, mtu, gidIndex);
        channel.handshake(mine);
        channel.handshake(mine);
        return run(channel, r.cq, List.of(r.qp), r.mr, buffSize, mine, new PerftestDest[] {remote}, cycleBuffer,
                cacheLine);
    }

    /** A random first packet sequence number, as perftest's {@code lrand48() & 0xffffff}. */
    private static int psn() {
        return RANDOM.nextInt() & 0xffffff;
    }

    /** The buffer's registration, the completion queue and the (first) queue pair of the test. */
    private record Resources(Mr mr, Cq cq, Qp qp) {
    }

    /** {@code ctx_init} without rdma_cm: the test's resources on the device opened by name. */
    private Resources resources(Pd pd, MemorySegment buf) {
        Mr mr = pd.mr(buf, Access.LOCAL_WRITE | Access.REMOTE_WRITE);
        Cq cq = pd.context().cq(settings.txDepth());
        return new Resources(mr, cq, pd.qp(init(cq)));
    }

    /**
     * {@code ctx_init} with rdma_cm: the resources on the device of {@code id} (those of
     * {@code previous}, an earlier queue pair's or try's, when not null; the completion queue
     * holds {@code tx-depth} completions of each queue pair), its queue pair made by
     * {@code rdma_create_qp} (librdmacm moves it to INIT with remote writes allowed).
     */
    private Resources resources(RdmaCmId id, MemorySegment buf, Resources previous) {
        if (previous != null) {
            return new Resources(previous.mr, previous.cq, id.createQp(previous.mr.pd(), init(previous.cq)));
        }
        Pd pd = id.context().pd();
        Mr mr = pd.mr(buf, Access.LOCAL_WRITE | Access.REMOTE_WRITE);
        Cq cq = id.context().cq(settings.txDepth() * settings.qps());
        return new Resources(mr, cq, id.createQp(pd, init(cq)));
    }

    private QpInitAttr init(Cq cq) {
        return new QpInitAttr(QpType.RC, cq, cq).cap(new QpCap(settings.txDepth(), 1, 1, 1, 0));
    }

    /**
     * From the result header on: the client writes on each of {@code qps} (from its part of the
     * buffer, {@code buffSize} bytes each, to the {@code remote} one's) and reports, the server
     * prints the client's report.
     */
    private int run(PerftestChannel channel, Cq cq, List<Qp> qps, Mr mr, int buffSize, PerftestDest mine,
            PerftestDest[] remote, int cycleBuffer, int cacheLine) throws IOException, BwException {
        System.out.println(BwReport.RESULT_LINE);
        System.out.println(BwReport.header(settings.gbits()));
        if (!settings.isClient()) {
            channel.handshake(mine);
            BwReport theirs = channel.exchange(new BwReport(0, 0, 0, 0, 0));
            System.out.println(theirs.row(settings.gbits()));
            channel.finish(mine);
            System.out.println(BwReport.RESULT_LINE);
            return 0;
        }
        List<BwWriter.Lane> lanes = new ArrayList<>();
        for (int i = 0; i < qps.size(); i++) {
            long local = mr.addr() + (long) i * buffSize;
            lanes.add(new BwWriter.Lane(qps.get(i), new SendWr().opcode(WrOpcode.RDMA_WRITE)
                    .sge(new Sge(local, settings.size(), mr.lkey())).rdma(remote[i].vaddr(), remote[i].rkey()), local,
                    remote[i].vaddr()));
        }
        BwWriter writer = new BwWriter(cq, settings, lanes, cycleBuffer, cacheLine);
        writer.warmUp();
        if (settings.warmup() > 0) {
            writer.untimed(settings.warmup());
        }
        RunGate gate = new RunGate(settings.runs());
        BwReport report = null;
        long allocated = 0;
        long ops = 0;
        for (int run = 1; run <= gate.runs(); run++) {
            gate.await(run);
            report = writer.run();
            allocated += writer.allocated();
            ops += writer.ops();
            System.out.println(report.row(settings.gbits()));
        }
        System.out.println(BwReport.RESULT_LINE);
        if (settings.alloc()) {
            System.out.println(AllocationMeter.report(allocated, ops));
        }
        channel.handshake(mine);
        channel.exchange(report);
        channel.finish(mine);
        return 0;
    }

    /** perftest's {@code set_mtu}: the port's active MTU unless a smaller valid one was asked for. */
    static Mtu localMtu(BwSettings settings, PortAttr port) {
        Mtu active = port.activeMtu();
        if (settings.mtu() == 0) {
            return active;
        }
        Mtu asked;
        try {
            asked = Mtu.fromBytes(settings.mtu());
        } catch (IllegalArgumentException e) {
            System.err.println(" Invalid MTU - " + settings.mtu() + " ");
            System.err.println(" Please choose mtu from {256,512,1024,2048,4096}");
            System.err.println(" Will run with the port active mtu - " + active.value());
            return active;
        }
        if (asked.value() > active.value()) {
            System.out.println("Requested mtu is higher than active mtu ");
            System.out.println("Changing to active mtu - " + active.value());
            return active;
        }
        return asked;
    }

    /** {@code ctx_print_test_info} for this test. */
    private void printTestInfo(Mtu mtu, boolean ethernet, int gidIndex) {
        System.out.println(BwReport.RESULT_LINE);
        System.out.println("                    RDMA_Write BW Test");
        System.out.println(" Dual-port       : OFF\t\tDevice         : " + device);
        System.out.println(" Number of qps   : " + settings.qps() + "\t\tTransport type : IB");
        System.out.println(" Connection type : RC\t\tUsing SRQ      : OFF");
        System.out.println(" PCIe relax order: OFF");
        System.out.println(" ibv_wr* API     : OFF");
        if (settings.isClient()) {
            System.out.println(" TX depth        : " + settings.txDepth());
        }
        System.out.println(" CQ Moderation   : " + settings.cqMod());
        Perftest.printLinkAndExchange(mtu, ethernet, gidIndex, settings.rdmaCm());
    }

    /** perftest's {@code ctx_modify_qp_to_rtr} and {@code _rts} for an RC write test. */
    private void connect(Qp qp, PerftestDest remote, Mtu mtu, int gidIndex) throws IOException {
        AhAttr ah = new AhAttr().dlid(remote.lid()).sl(settings.sl()).srcPathBits(0).portNum(settings.ibPort());
        try {
            if (gidIndex >= 0) {
                ah.grh(remote.gid(), gidIndex, 0xff);
            }
            qp.modify(new QpAttr().qpState(QpState.RTR).pathMtu(mtu).destQpNum(remote.qpn()).rqPsn(remote.psn())
                    .maxDestRdAtomic(1).minRnrTimer(MIN_RNR_TIMER).ahAttr(ah));
            qp.modify(new QpAttr().qpState(QpState.RTS).timeout(settings.qpTimeout()).retryCnt(7).rnrRetry(7)
                    .sqPsn(myPsn).maxRdAtomic(1));
        } catch (RuntimeException e) {
            throw new IOException(" Unable to Connect the HCA's through the link: " + e.getMessage(), e);
        }
    }

    /** perftest's {@code ipv6_addr_v4mapped}: an IPv4-mapped GID, unicast or multicast. */
    private static boolean isIpv4(Gid gid) {
        return (gid.prefix() == 0 || gid.prefix() == 0xff0e_0000_0000_0000L) && gid.interfaceId() >>> 32 == 0xffff;
    }
}
