package org.jrdma.examples;

import java.util.List;
import org.jrdma.examples.GetoptStyle.Unsupported;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * What {@link WriteBw} is asked to do: the options of perftest's {@code ib_write_bw} this
 * implements, with perftest's defaults and the adjustments of its {@code force_dependecies}
 * already applied, plus two Java-only ones for benchmarking.
 *
 * @param server    the server to connect to, or null to be the server
 * @param port      TCP port of the side channel ({@code -p}, 18515)
 * @param device    RDMA device ({@code -d}), or null for the first one found
 * @param ibPort    port of the device ({@code -i}, 1)
 * @param size      bytes per RDMA write ({@code -s}, 65536)
 * @param iters     writes to time ({@code -n}, 5000); 0 with a duration
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
 */
record BwSettings(String server, int port, String device, int ibPort, int size, int iters, int duration,
        int gidIndex, int mtu, int txDepth, int cqMod, boolean noPeak, boolean gbits, int sl, int qpTimeout,
        int warmup, boolean alloc, int runs, boolean rdmaCm) {
    /** perftest's message size above which CQ moderation is off by default ({@code MSG_SIZE_CQ_MOD_LIMIT}). */
    private static final int CQ_MOD_SIZE_LIMIT = 8192;
    /** The most iterations perftest computes the peak bandwidth for. */
    private static final int PEAK_ITERS_LIMIT = 20000;

    /** The options of {@code ib_write_bw} this implements, with perftest's defaults, and the operands. */
    private static final class Options {
        @Option(names = {"-d", "--ib-dev"}) String device;
        @Option(names = {"-i", "--ib-port"}) long ibPort = 1;
        @Option(names = {"-s", "--size"}) long size = 65536;
        @Option(names = {"-n", "--iters"}) long iters = 5000;
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
            new Unsupported("connection", 'c', true),
            new Unsupported("margin", 'f', true),
            new Unsupported("inline_size", 'I', true),
            new Unsupported("post_list", 'l', true),
            new Unsupported("hop_limit", 'L', true),
            new Unsupported("dualport", 'O', false),
            new Unsupported("qp", 'q', true),
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

    /** The usage text: the options implemented. */
    static final String USAGE = """
            Usage:
              WriteBw            start a server and wait for connection
              WriteBw <host>     connect to server at <host>

            Options (ib_write_bw's; RC RDMA write, one QP, unidirectional):
              -d, --ib-dev=<dev>  Use IB device <dev> (default first device found)
              -D, --duration  Run test for a customized period of seconds.
              -F, --CPU-freq  Do not show a warning even if cpufreq_ondemand module is loaded (no effect here)
              -h, --help  Show this help screen.
              -i, --ib-port=<port>  Use port <port> of IB device (default 1)
              -m, --mtu=<mtu>  MTU size : 256 - 4096 (default port mtu)
              -n, --iters=<iters>  Number of exchanges (at least 5, default 5000)
              -N, --noPeak Cancel peak-bw calculation (default with peak up to iters=20000)
              -p, --port=<port>  Listen on/connect to port <port> (default 18515)
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

    /**
     * Reads the command line; null after {@code -h}, which prints the usage.
     *
     * @throws UsageException for options perftest would refuse or this does not implement
     */
    static BwSettings parse(String[] args) throws UsageException {
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
        int iters = duration > 0 ? 0 : (int) range(line.iters, "iters", 5, Integer.MAX_VALUE);
        int size = (int) range(line.size, "size", 1, Integer.MAX_VALUE);
        int txDepth = (int) range(line.txDepth, "tx-depth", 1, 65535);
        if (duration == 0) {
            txDepth = Math.min(txDepth, iters);
        }
        int cqMod = (int) range(line.cqMod == null ? 100 : line.cqMod, "cq-mod", 1, 1024);
        if (size > CQ_MOD_SIZE_LIMIT && line.cqMod == null) {
            cqMod = 1;
        }
        cqMod = Math.min(cqMod, txDepth);
        boolean noPeak = line.noPeak || duration > 0 || iters > PEAK_ITERS_LIMIT;
        if (duration > 0 && line.warmup != null) {
            throw new UsageException(" --warmup works with -n, not with -D");
        }
        return new BwSettings(operands.isEmpty() ? null : operands.getFirst(),
                (int) range(line.port, "port", 0, 65535), line.device, (int) range(line.ibPort, "ib-port", 1, 255),
                size, iters, duration, (int) range(line.gidIndex, "gid-index", -1, 255), (int) line.mtu, txDepth,
                cqMod, noPeak, line.gbits, (int) range(line.sl, "sl", 0, 15),
                (int) range(line.qpTimeout, "qp-timeout", 0, 31), warmup(line.warmup), line.alloc,
                (int) range(line.runs, "runs", 1, Integer.MAX_VALUE), line.rdmaCm);
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

    /** Whether this side is the client, the one that writes. */
    boolean isClient() {
        return server != null;
    }

    /** perftest's warm-up margin of a duration run: a quarter of it, in whole seconds. */
    int margin() {
        return duration / 4;
    }
}
