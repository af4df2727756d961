package org.jrdma.examples;

import java.util.List;
import org.jrdma.examples.GetoptStyle.Unsupported;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * What {@link WriteBw} or {@link SendBw} is asked to do: the options of perftest's
 * {@code ib_write_bw} or {@code ib_send_bw} this implements, with perftest's defaults and the
 * adjustments of its {@code force_dependecies} already applied, plus Java-only ones for
 * benchmarking.
 *
 * @param server    the server to connect to, or null to be the server
 * @param port      TCP port of the side channel ({@code -p}, 18515)
 * @param device    RDMA device ({@code -d}), or null for the first one found
 * @param ibPort    port of the device ({@code -i}, 1)
 * @param size      bytes per RDMA write ({@code -s}, 65536)
 * @param iters     messages to time per queue pair ({@code -n}, 5000 writes, 1000 sends); 0 with a duration
 * @param duration  seconds to run ({@code -D}), 0 to run {@code iters} writes
 * @param gidIndex  GID index ({@code -x}), -1 for perftest's default (none on InfiniBand, 0 on RoCE)
 * @param mtu       path MTU in bytes ({@code -m}), 0 for the port's active MTU
 * @param txDepth   writes kept outstanding ({@code -t}, 128, at most {@code iters})
 * @param cqMod     writes per signalled completion ({@code -Q}, 100; 1 above 8 KiB unless given)
 * @param noPeak    skip the peak bandwidth ({@code -N}; forced with a duration or above 20000 iterations)
 * @param gbits     report Gbit/s instead of MiB/s ({@code --report_gbits})
 * @param sl        service level ({@code -S}, 0)
 * @param qpTimeout local ACK timeout exponent ({@code -u}, 14)
 * @param warmup    untimed writes before the timed ones, after perftest's own warm-up
 *                  ({@code --warmup}, Java only, client only, not with {@code -D})
 * @param alloc     print the bytes the timed loops allocated ({@code --alloc}, Java only)
 * @param runs      timed runs ({@code --runs}, 1, Java only, client only), each printing its row;
 *                  with more than one, each starts on a line of standard input ({@link RunGate})
 * @param rdmaCm    connect the queue pairs with rdma_cm ({@code -R}, {@link PerftestCm})
 * @param qps       queue pairs ({@code -q}, 1; more only with {@code -R}), each carrying {@code iters} messages
 * @param ud        UD queue pairs ({@code -c UD}, sends only, with {@code -R}) instead of RC
 * @param rxDepth   receives kept posted per queue pair by a send test's server: perftest's 512, at
 *                  most {@code iters} (with UD all {@code iters} up to 16000), made even
 * @param send      whether this is {@code ib_send_bw} (SEND) rather than {@code ib_write_bw}
 */
record BwSettings(String server, int port, String device, int ibPort, int size, int iters, int duration,
        int gidIndex, int mtu, int txDepth, int cqMod, boolean noPeak, boolean gbits, int sl, int qpTimeout,
        int warmup, boolean alloc, int runs, boolean rdmaCm, int qps, boolean ud, int rxDepth, boolean send) {
    /** perftest's message size above which CQ moderation is off by default ({@code MSG_SIZE_CQ_MOD_LIMIT}). */
    private static final int CQ_MOD_SIZE_LIMIT = 8192;
    /** The most iterations perftest computes the peak bandwidth for. */
    private static final int PEAK_ITERS_LIMIT = 20000;
    /** perftest's {@code DEF_RX_SEND}: receives a send test's server keeps posted. */
    private static final int DEF_RX_SEND = 512;
    /** perftest's {@code UC_MAX_RX}: the most receives posted by default for UC and UD. */
    private static final int UD_MAX_RX = 16000;
    /** perftest's {@code MAX_QP_NUM}. */
    private static final int MAX_QPS = 16384;
    /** The connection types perftest knows ({@code connStr}) that are not implemented here. */
    private static final List<String> OTHER_CONNECTIONS = List.of("UC", "RawEth", "XRC", "DC", "SRD");

    /** The options of {@code ib_write_bw} this implements, with perftest's defaults, and the operands. */
    private static final class Options {
        @Option(names = {"-d", "--ib-dev"}) String device;
        @Option(names = {"-i", "--ib-port"}) long ibPort = 1;
        @Option(names = {"-s", "--size"}) long size = 65536;
        @Option(names = {"-n", "--iters"}) Long iters;
        @Option(names = {"-D", "--duration"}) long duration;
        @Option(names = {"-x", "--gid-index"}) long gidIndex = -1;
        @Option(names = {"-p", "--port"}) long port = 18515;
        /** Accepted as perftest accepts it; there is no cpufreq warning to silence here. */
        @Option(names = {"-F", "--CPU-freq"}) boolean cpuFreq;
        @Option(names = {"-m", "--mtu"}) long mtu;
        @Option(names = {"-t", "--tx-depth"}) long txDepth = 128;
        @Option(names = {"-Q", "--cq-mod"}) Long cqMod;
        @Option(names = {"-N", "--noPeak"}) boolean noPeak;
        @Option(names = {"-S", "--sl"}) long sl;
        @Option(names = {"-u", "--qp-timeout"}) long qpTimeout = 14;
        @Option(names = "--report_gbits") boolean gbits;
        @Option(names = {"-R", "--rdma_cm"}) boolean rdmaCm;
        @Option(names = {"-q", "--qp"}) long qps = 1;
        @Option(names = {"-c", "--connection"}) String connection = "RC";
        @Option(names = {"-h", "--help"}) boolean help;
        @Option(names = "--warmup") Long warmup;
        @Option(names = "--alloc") boolean alloc;
        @Option(names = "--runs") long runs = 1;
        @Parameters List<String> operands;
    }

    /** The options of {@code ib_write_bw} this does not implement: refused. */
    private static final List<Unsupported> UNSUPPORTED = List.of(
            new Unsupported("all", 'a', false),
            new Unsupported("bidirectional", 'b', false),
            new Unsupported("margin", 'f', true),
            new Unsupported("inline_size", 'I', true),
            new Unsupported("post_list", 'l', true),
            new Unsupported("hop_limit", 'L', true),
            new Unsupported("dualport", 'O', false),
            new Unsupported("tos", 'T', true),
            new Unsupported("version", 'V', false),
            new Unsupported("limit_bw", 'w', true),
            new Unsupported("report-counters", 'W', true),
            new Unsupported("limit_msgrate", 'y', true),
            new Unsupported("com_rdma_cm", 'z', false),
            new Unsupported("run_infinitely", (char) 0, false),
            new Unsupported("reversed", (char) 0, false),
            new Unsupported("dont_xchg_versions", (char) 0, false),
            new Unsupported("use_old_post_send", (char) 0, false));

    /** The usage text of {@link WriteBw}: the options implemented. */
    static final String USAGE = """
            Usage:
              WriteBw            start a server and wait for connection
              WriteBw <host>     connect to server at <host>

            Options (ib_write_bw's; RC RDMA write, unidirectional):
              -c, --connection=<RC>  Connection type RC (the only one of RDMA writes here)
              -d, --ib-dev=<dev>  Use IB device <dev> (default first device found)
              -D, --duration  Run test for a customized period of seconds.
              -F, --CPU-freq  Do not show a warning even if cpufreq_ondemand module is loaded (no effect here)
              -h, --help  Show this help screen.
              -i, --ib-port=<port>  Use port <port> of IB device (default 1)
              -m, --mtu=<mtu>  MTU size : 256 - 4096 (default port mtu)
              -n, --iters=<iters>  Number of exchanges (at least 5, default 5000)
              -N, --noPeak Cancel peak-bw calculation (default with peak up to iters=20000)
              -p, --port=<port>  Listen on/connect to port <port> (default 18515)
              -q, --qp=<num of qp's>  Num of qp's (default 1; more than 1 with -R only)
              -R, --rdma_cm  Connect QPs with rdma_cm and run test on those QPs
              -Q, --cq-mod  Generate Cqe only after <--cq-mod> completion
              -s, --size=<size>  Size of message to exchange (default 65536)
              -S, --sl=<sl>  SL (default 0)
              -t, --tx-depth=<dep>  Size of tx queue (default 128)
              -u, --qp-timeout=<timeout>  QP timeout, timeout value is 4 usec * 2 ^(timeout), default 14
              -x, --gid-index=<index>  Test uses GID with GID index (Default : IB - no gid . ETH - 0)
                  --report_gbits  Report Max/Average BW of test in Gbit/sec (instead of MiB/sec)
            Java only:
                  --warmup=<iters>  untimed writes before the timed ones (client; not with -D)
                  --alloc  print the bytes the timed loops allocated (client)
                  --runs=<n>  timed runs, each printing its row (client, default 1); with more,
                      each prints "ready for run <k>" and starts on a line of stdin
            """;

    /** The usage text of {@link SendBw}: the options implemented. */
    static final String SEND_USAGE = """
            Usage:
              SendBw -R          start a server and wait for connection
              SendBw -R <host>   connect to server at <host>

            Options (ib_send_bw's; SEND, unidirectional, connected by rdma_cm):
              -c, --connection=<RC/UD>  Connection type RC/UD (default RC)
              -d, --ib-dev=<dev>  Use IB device <dev> (default first device found)
              -F, --CPU-freq  Do not show a warning even if cpufreq_ondemand module is loaded (no effect here)
              -h, --help  Show this help screen.
              -i, --ib-port=<port>  Use port <port> of IB device (default 1)
              -m, --mtu=<mtu>  MTU size : 256 - 4096 (default port mtu)
              -n, --iters=<iters>  Number of exchanges (at least 5, default 1000)
              -N, --noPeak Cancel peak-bw calculation (default with peak up to iters=20000)
              -p, --port=<port>  Listen on/connect to port <port> (default 18515)
              -q, --qp=<num of qp's>  Num of qp's (default 1)
              -R, --rdma_cm  Connect QPs with rdma_cm and run test on those QPs (required)
              -Q, --cq-mod  Generate Cqe only after <--cq-mod> completion
              -s, --size=<size>  Size of message to exchange (default 65536; UD: at most the MTU)
              -t, --tx-depth=<dep>  Size of tx queue (default 128)
              -x, --gid-index=<index>  Test uses GID with GID index (Default : IB - no gid . ETH - 0)
                  --report_gbits  Report Max/Average BW of test in Gbit/sec (instead of MiB/sec)
            Java only:
                  --alloc  print the bytes the timed loops allocated (client)
            """;

    /**
     * Reads {@code ib_write_bw}'s command line; null after {@code -h}, which prints the usage.
     *
     * @throws UsageException for options perftest would refuse or this does not implement
     */
    static BwSettings parse(String[] args) throws UsageException {
        return parse(args, false);
    }

    /**
     * Reads {@code ib_send_bw}'s command line; null after {@code -h}. Besides what
     * {@link #parse(String[])} refuses, it refuses what {@link SendBw} does not implement: no
     * {@code -R}, a duration ({@code -D}) and the Java-only {@code --warmup} and {@code --runs},
     * whose extra sends the server would not expect.
     *
     * @throws UsageException for options perftest would refuse or this does not implement
     */
    static BwSettings parseSend(String[] args) throws UsageException {
        BwSettings settings = parse(args, true);
        if (settings != null && !settings.rdmaCm()) {
            throw new UsageException(" the Java ib_send_bw connects with rdma_cm only: give -R");
        }
        if (settings != null && (settings.duration() > 0 || settings.warmup() > 0 || settings.runs() > 1)) {
            throw new UsageException(" the Java ib_send_bw runs -n iterations only: no -D, --warmup or --runs");
        }
        return settings;
    }

    private static BwSettings parse(String[] args, boolean send) throws UsageException {
        Options line = new Options();
        GetoptStyle.parse(line, args, UNSUPPORTED);
        if (line.help) {
            return null;
        }
        List<String> operands = line.operands == null ? List.of() : line.operands;
        if (operands.size() > 1) {
            throw new UsageException(" Invalid Command line. Please check command rerun ");
        }
        int duration = (int) range(line.duration, "duration", 0, Integer.MAX_VALUE);
        long givenIters = line.iters != null ? line.iters : send ? 1000 : 5000;
        int iters = duration > 0 ? 0 : (int) range(givenIters, "iters", 5, Integer.MAX_VALUE);
        boolean ud = connection(line.connection, send);
        int qps = (int) range(line.qps, "num of Qps", 1, MAX_QPS);
        if ((qps > 1 || ud) && !line.rdmaCm) {
            throw new UsageException(" several QPs (-q) and UD (-c UD) are implemented with -R only");
        }
        int size = (int) range(line.size, "size", 1, Integer.MAX_VALUE);
        int txDepth = (int) range(line.txDepth, "tx-depth", 1, 65535);
        if (duration == 0) {
            txDepth = Math.min(txDepth, iters);
        }
        int cqMod = (int) range(line.cqMod == null ? 100 : line.cqMod, "cq-mod", 1, 1024);
        if (size > CQ_MOD_SIZE_LIMIT && line.cqMod == null && !ud) {
            cqMod = 1;
        }
        cqMod = Math.min(cqMod, txDepth);
        boolean isServer = operands.isEmpty();
        boolean noPeak = line.noPeak || duration > 0 || iters > PEAK_ITERS_LIMIT || send && isServer;
        int rxDepth = Math.min(DEF_RX_SEND, iters);
        if (ud) {
            rxDepth = Math.min(iters, UD_MAX_RX);
        }
        rxDepth += rxDepth % 2;
        if (duration > 0 && line.warmup != null) {
            throw new UsageException(" --warmup works with -n, not with -D");
        }
        return new BwSettings(operands.isEmpty() ? null : operands.getFirst(),
                (int) range(line.port, "port", 0, 65535), line.device, (int) range(line.ibPort, "ib-port", 1, 255),
                size, iters, duration, (int) range(line.gidIndex, "gid-index", -1, 255), (int) line.mtu, txDepth,
                cqMod, noPeak, line.gbits, (int) range(line.sl, "sl", 0, 15),
                (int) range(line.qpTimeout, "qp-timeout", 0, 31), warmup(line.warmup), line.alloc,
                (int) range(line.runs, "runs", 1, Integer.MAX_VALUE), line.rdmaCm, qps, ud, rxDepth, send);
    }

    /**
     * {@code -c}, as perftest's {@code change_conn_type} reads it: whether UD (RC otherwise).
     *
     * @throws UsageException for UD in a write test, a type not implemented here, or an unknown one
     */
    static boolean connection(String type, boolean send) throws UsageException {
        if (type.equals("RC")) {
            return false;
        }
        if (type.equals("UD")) {
            if (!send) {
                throw new UsageException(" UD connection only possible in SEND verb");
            }
            return true;
        }
        if (OTHER_CONNECTIONS.contains(type)) {
            throw new UsageException(" connection type " + type + " is not implemented by the Java version");
        }
        throw new UsageException(" Invalid Connection type. Please choose from {RC,UC,UD,XRC,DC,SRD}");
    }

    /** {@code --warmup}: 0, or at least 5 writes as {@code -n} (a single write would go unsignalled). */
    private static int warmup(Long given) throws UsageException {
        long warmup = given == null ? 0 : given;
        if (warmup != 0 && (warmup < 5 || warmup > Integer.MAX_VALUE)) {
            throw new UsageException(" --warmup should be 0 or between 5 and " + Integer.MAX_VALUE);
        }
        return (int) warmup;
    }

    private static long range(long value, String name, long min, long max) throws UsageException {
        if (value < min || value > max) {
            throw new UsageException(" " + name + " should be between " + min + " and " + max);
        }
        return value;
    }

    /** These settings with messages of {@code bytes} (a UD send test's, cut to the MTU). */
    BwSettings withSize(int bytes) {
        return new BwSettings(server, port, device, ibPort, bytes, iters, duration, gidIndex, mtu, txDepth, cqMod, noPeak,
                gbits, sl, qpTimeout, warmup, alloc, runs, rdmaCm, qps, ud, rxDepth, send);
    }

    /** Whether this side is the client, the one that writes or sends. */
    boolean isClient() {
        return server != null;
    }

    /** perftest's warm-up margin of a duration run: a quarter of it, in whole seconds. */
    int margin() {
        return duration / 4;
    }
}
