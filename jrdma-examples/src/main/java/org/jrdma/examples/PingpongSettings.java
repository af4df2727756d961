package org.jrdma.examples;

import java.util.List;
import java.util.stream.Stream;
import org.jrdma.examples.CommandLine.Option;
import org.jrdma.examples.CommandLine.UsageException;
import org.jrdma.iba.Mtu;

/**
 * What {@link RcPingpong} or {@link UdPingpong} is asked to do: {@code ibv_rc_pingpong}'s or
 * {@code ibv_ud_pingpong}'s options with their defaults, plus three Java-only ones for benchmarking.
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
 */
record PingpongSettings(String server, int port, String device, int ibPort, int size, Mtu mtu, int rxDepth,
        int iters, int sl, boolean events, int gidIndex, boolean check, int warmup, boolean alloc, int runs) {
    /** The options both tools have, and the Java-only ones. */
    private static final List<Option> COMMON = List.of(
            Option.of("port", 'p', true),
            Option.of("ib-dev", 'd', true),
            Option.of("ib-port", 'i', true),
            Option.of("size", 's', true),
            Option.of("rx-depth", 'r', true),
            Option.of("iters", 'n', true),
            Option.of("sl", 'l', true),
            Option.of("events", 'e', false),
            Option.of("gid-idx", 'g', true),
            Option.of("chk", 'c', false),
            Option.of("warmup", (char) 0, true),
            Option.of("alloc", (char) 0, false),
            Option.of("runs", (char) 0, true));

    /** {@code rc_pingpong.c}'s options; those it has and this does not implement are refused. */
    static final List<Option> OPTIONS = concat(COMMON, List.of(
            Option.of("mtu", 'm', true),
            Option.unsupported("odp", 'o', false),
            Option.unsupported("iodp", 'O', false),
            Option.unsupported("prefetch", 'P', false),
            Option.unsupported("ts", 't', false),
            Option.unsupported("dm", 'j', false),
            Option.unsupported("new_send", 'N', false)));

    /** {@code ud_pingpong.c}'s options, all implemented. */
    static final List<Option> UD_OPTIONS = COMMON;

    /** The usage text, {@code ibv_rc_pingpong}'s with the Java-only options added. */
    static final String USAGE = header("RcPingpong", 4096)
            + "  -m, --mtu=<size>       path MTU (default 1024)\n"
            + commonUsage("service level value")
            + "Not supported here: -o/--odp, -O/--iodp, -P/--prefetch, -t/--ts, -j/--dm, -N/--new_send\n";

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
                """.formatted(slText);
    }

    /**
     * Reads the command line of {@link RcPingpong}.
     *
     * @throws UsageException when {@code ibv_rc_pingpong} would print its usage
     */
    static PingpongSettings parse(String[] args) throws UsageException {
        return parse(args, OPTIONS, 4096);
    }

    /**
     * Reads the command line of {@link UdPingpong}.
     *
     * @throws UsageException when {@code ibv_ud_pingpong} would print its usage
     */
    static PingpongSettings parseUd(String[] args) throws UsageException {
        return parse(args, UD_OPTIONS, 2048);
    }

    private static PingpongSettings parse(String[] args, List<Option> options, int defaultSize)
            throws UsageException {
        CommandLine line = CommandLine.parse(args, options);
        if (line.operands().size() > 1) {
            throw new UsageException("at most one server name, not " + line.operands());
        }
        long port = line.number("port", 18515);
        long ibPort = line.number("ib-port", 1);
        if (port < 0 || port > 65535 || ibPort < 1 || ibPort > 255) {
            throw new UsageException("port must be 0 to 65535 and ib-port 1 to 255");
        }
        Mtu mtu;
        try {
            mtu = Mtu.fromBytes((int) line.number("mtu", 1024));
        } catch (IllegalArgumentException e) {
            throw new UsageException(e.getMessage());
        }
        int size = positive(line, "size", defaultSize);
        int rxDepth = positive(line, "rx-depth", 500);
        int iters = positive(line, "iters", 1000);
        int runs = positive(line, "runs", 1);
        long warmup = line.number("warmup", 0);
        if (warmup < 0 || warmup + (long) runs * iters > Integer.MAX_VALUE) {
            throw new UsageException("--warmup must be 0 or more, and with --runs times --iters at most "
                    + Integer.MAX_VALUE);
        }
        return new PingpongSettings(line.operands().isEmpty() ? null : line.operands().getFirst(), (int) port,
                line.string("ib-dev", null), (int) ibPort, size, mtu, rxDepth, iters, (int) line.number("sl", 0),
                line.has("events"), (int) line.number("gid-idx", -1), line.has("chk"), (int) warmup,
                line.has("alloc"), runs);
    }

    private static int positive(CommandLine line, String name, int otherwise) throws UsageException {
        long value = line.number(name, otherwise);
        if (value < 1 || value > Integer.MAX_VALUE) {
            throw new UsageException("--" + name + " must be at least 1");
        }
        return (int) value;
    }

    private static List<Option> concat(List<Option> first, List<Option> second) {
        return Stream.concat(first.stream(), second.stream()).toList();
    }

    /** Whether this side is the client. */
    boolean isClient() {
        return server != null;
    }
}
