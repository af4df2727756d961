package org.jrdma.examples;

import java.util.List;
import org.jrdma.examples.GetoptStyle.Unsupported;
import org.jrdma.iba.Mtu;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * What {@link RcPingpong} or {@link UdPingpong} is asked to do: {@code ibv_rc_pingpong}'s or
 * {@code ibv_ud_pingpong}'s options with their defaults, plus four Java-only ones for benchmarking.
 *
 * @param server   the server to connect to, or null to be the server
 * @param port     TCP port of the side channel ({@code -p}, 18515)
 * @param device   RDMA device ({@code -d}), or null for the first one found
 * @param ibPort   port of the device ({@code -i}, 1)
 * @param size     bytes per message ({@code -s}, 4096; UD 2048)
 * @param mtu      path MTU ({@code -m}, 1024; RC only)
 * @param rxDepth  receives kept posted ({@code -r}, 500)
 * @param iters    exchanges ({@code -n}, 1000)
 * @param sl       service level ({@code -l}, 0)
 * @param events   sleep on completion events instead of polling ({@code -e})
 * @param gidIndex local GID index ({@code -g}), -1 for none
 * @param check    validate the received buffer ({@code -c})
 * @param warmup   untimed exchanges before the timed ones ({@code --warmup}, Java only; both
 *                 sides must give the same number)
 * @param alloc    print the bytes the timed loops allocated ({@code --alloc}, Java only)
 * @param runs     timed runs of {@code iters} exchanges ({@code --runs}, 1, Java only; both sides
 *                 must give the same number); with more than one, each starts on a line of
 *                 standard input ({@link RunGate})
 * @param newSend  build each send through {@code ibv_wr_*} on an extended queue pair
 *                 ({@code -N}, as {@code ibv_rc_pingpong}'s; RC only)
 * @param cqEx     poll an extended CQ through {@code ibv_start_poll}/{@code ibv_next_poll}
 *                 ({@code --cq-ex}, Java only; {@code ibv_rc_pingpong} does so only with
 *                 completion timestamps, {@code -t})
 */
record PingpongSettings(String server, int port, String device, int ibPort, int size, Mtu mtu, int rxDepth,
        int iters, int sl, boolean events, int gidIndex, boolean check, int warmup, boolean alloc, int runs,
        boolean newSend, boolean cqEx) {
    /**
     * The options both tools have, with their defaults, the Java-only ones, and the operands; the
     * message size's default differs between the tools.
     */
    private static class Options {
        @Option(names = {"-p", "--port"}) long port = 18515;
        @Option(names = {"-d", "--ib-dev"}) String device;
        @Option(names = {"-i", "--ib-port"}) long ibPort = 1;
        @Option(names = {"-s", "--size"}) long size;
        @Option(names = {"-r", "--rx-depth"}) long rxDepth = 500;
        @Option(names = {"-n", "--iters"}) long iters = 1000;
        @Option(names = {"-l", "--sl"}) long sl;
        @Option(names = {"-e", "--events"}) boolean events;
        @Option(names = {"-g", "--gid-idx"}) long gidIndex = -1;
        @Option(names = {"-c", "--chk"}) boolean check;
        @Option(names = "--warmup") long warmup;
        @Option(names = "--alloc") boolean alloc;
        @Option(names = "--runs") long runs = 1;
        @Option(names = "--cq-ex") boolean cqEx;
        @Parameters List<String> operands;

        Options(int defaultSize) {
            this.size = defaultSize;
        }

        /** The path MTU in bytes: {@code ibv_ud_pingpong} takes the port's, and has no {@code -m}. */
        long mtu() {
            return 1024;
        }

        /** Whether sends go through {@code ibv_wr_*}: {@code ibv_ud_pingpong} has no {@code -N}. */
        boolean newSend() {
            return false;
        }
    }

    /** {@code rc_pingpong.c}'s options: the common ones and the path MTU. */
    private static final class RcOptions extends Options {
        @Option(names = {"-m", "--mtu"}) long mtu = 1024;
        @Option(names = {"-N", "--new_send"}) boolean newSend;

        RcOptions() {
            super(4096);
        }

        @Override
        long mtu() {
            return mtu;
        }

        @Override
        boolean newSend() {
            return newSend;
        }
    }

    /** The options {@code rc_pingpong.c} has and this does not implement: refused. */
    private static final List<Unsupported> RC_UNSUPPORTED = List.of(
            new Unsupported("odp", 'o', false),
            new Unsupported("iodp", 'O', false),
            new Unsupported("prefetch", 'P', false),
            new Unsupported("ts", 't', false),
            new Unsupported("dm", 'j', false));

    /** The usage text, {@code ibv_rc_pingpong}'s with the Java-only options added. */
    static final String USAGE = header("RcPingpong", 4096)
            + "  -m, --mtu=<size>       path MTU (default 1024)\n"
            + commonUsage("service level value")
            + "  -N, --new_send         use the new post send WR API (ibv_wr_*)\n"
            + "Not supported here: -o/--odp, -O/--iodp, -P/--prefetch, -t/--ts, -j/--dm\n";

    /** The usage text, {@code ibv_ud_pingpong}'s with the Java-only options added. */
    static final String UD_USAGE = header("UdPingpong", 2048)
            + commonUsage("send messages with service level <SL> (default 0)");

    /** The usage lines up to {@code -s} that both tools print. */
    private static String header(String tool, int defaultSize) {
        return """
                Usage:
                  %1$s            start a server and wait for connection
                  %1$s <host>     connect to server at <host>

                Options:
                  -p, --port=<port>      listen on/connect to port <port> (default 18515)
                  -d, --ib-dev=<dev>     use IB device <dev> (default first device found)
                  -i, --ib-port=<port>   use port <port> of IB device (default 1)
                  -s, --size=<size>      size of message to exchange (default %2$d)
                """.formatted(tool, defaultSize);
    }

    /** The usage lines after {@code -s}/{@code -m} that both tools print, {@code -l}'s text differing. */
    private static String commonUsage(String slText) {
        return """
                  -r, --rx-depth=<dep>   number of receives to post at a time (default 500)
                  -n, --iters=<iters>    number of exchanges (default 1000)
                  -l, --sl=<sl>          %s
                  -e, --events           sleep on CQ events (default poll)
                  -g, --gid-idx=<gid index> local port gid index
                  -c, --chk              validate received buffer
                Java only:
                      --warmup=<iters>   untimed exchanges first (give both sides the same number;
                                         20 x rx-depth compiles the receive refill too)
                      --alloc            print the bytes the timed loops allocated
                      --runs=<n>         timed runs of <iters> exchanges (default 1; give both
                                         sides the same number); with more, each run prints
                                         "ready for run <k>" and starts on a line of stdin
                      --cq-ex            poll an extended CQ (ibv_start_poll/ibv_next_poll)
                """.formatted(slText);
    }

    /**
     * Reads the command line of {@link RcPingpong}.
     *
     * @throws UsageException when {@code ibv_rc_pingpong} would print its usage
     */
    static PingpongSettings parse(String[] args) throws UsageException {
        return parse(args, new RcOptions(), RC_UNSUPPORTED);
    }

    /**
     * Reads the command line of {@link UdPingpong}.
     *
     * @throws UsageException when {@code ibv_ud_pingpong} would print its usage
     */
    static PingpongSettings parseUd(String[] args) throws UsageException {
        return parse(args, new Options(2048), List.of());
    }

    private static PingpongSettings parse(String[] args, Options line, List<Unsupported> unsupported)
            throws UsageException {
        GetoptStyle.parse(line, args, unsupported);
        List<String> operands = line.operands == null ? List.of() : line.operands;
        if (operands.size() > 1) {
            throw new UsageException("at most one server name, not " + operands);
        }
        if (line.port < 0 || line.port > 65535 || line.ibPort < 1 || line.ibPort > 255) {
            throw new UsageException("port must be 0 to 65535 and ib-port 1 to 255");
        }
        Mtu mtu;
        try {
            mtu = Mtu.fromBytes((int) line.mtu());
        } catch (IllegalArgumentException e) {
            throw new UsageException(e.getMessage());
        }
        int size = positive(line.size, "size");
        int rxDepth = positive(line.rxDepth, "rx-depth");
        int iters = positive(line.iters, "iters");
        int runs = positive(line.runs, "runs");
        if (line.warmup < 0 || line.warmup + (long) runs * iters > Integer.MAX_VALUE) {
            throw new UsageException("--warmup must be 0 or more, and with --runs times --iters at most "
                    + Integer.MAX_VALUE);
        }
        return new PingpongSettings(operands.isEmpty() ? null : operands.getFirst(), (int) line.port, line.device,
                (int) line.ibPort, size, mtu, rxDepth, iters, (int) line.sl, line.events, (int) line.gidIndex,
                line.check, (int) line.warmup, line.alloc, runs, line.newSend(), line.cqEx);
    }

    private static int positive(long value, String name) throws UsageException {
        if (value < 1 || value > Integer.MAX_VALUE) {
            throw new UsageException("--" + name + " must be at least 1");
        }
        return (int) value;
    }

    /** Whether this side is the client. */
    boolean isClient() {
        return server != null;
    }
}
