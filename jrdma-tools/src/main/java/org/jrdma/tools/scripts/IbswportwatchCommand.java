package org.jrdma.tools.scripts;

import java.math.BigDecimal;
import java.math.MathContext;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import picocli.CommandLine.Command;

/**
 * infiniband-diags' {@code ibswportwatch.pl}: a perl script that polls one port's PortCounters with
 * {@code perfquery} every {@code -p} seconds (10 by default) for {@code -n} cycles (forever by
 * default), printing {@code Checking counts...} each cycle and the rate of each error counter that
 * rose ({@code Detected rate for C (R cnts/sec)}, {@code excessive} above 10 a second); {@code -b}
 * the data and packet rates, {@code -v} every counter's new and old value. A perfquery that fails
 * ends it (status 255). The counters are IBswcountlimits.pm's, in its order (the script's hash order
 * changes from run to run). With {@code -G} the port GUID is resolved to a LID first ({@code ibaddr
 * -G}), as ibtool's perfquery reads LIDs only.
 *
 * <p>With {@code --json}: {@link Document}, written when the cycles end, or, without {@code -n},
 * when the command is interrupted (SIGINT, SIGTERM); a perfquery that fails is the error document.
 */
@Command(name = "ibswportwatch", aliases = "ibswportwatch.pl",
        description = "Poll a port's counters and report their rates (rdma-core's ibswportwatch.pl).")
public final class IbswportwatchCommand extends ScriptCommand {
    /** IBswcountlimits' counters, in its order. */
    private static final List<String> COUNTERS = List.of("SymbolErrorCounter", "LinkErrorRecoveryCounter",
            "LinkDownedCounter", "PortRcvErrors", "PortRcvRemotePhysicalErrors", "PortRcvSwitchRelayErrors",
            "PortXmitDiscards", "PortXmitConstraintErrors", "PortRcvConstraintErrors", "LocalLinkIntegrityErrors",
            "ExcessiveBufferOverrunErrors", "VL15Dropped", "PortXmitData", "PortRcvData", "PortXmitPkts", "PortRcvPkts");
    /** The counters whose rate is watched, each over 10 a second excessive. */
    private static final List<String> RATE_WATCHED = List.of("SymbolErrorCounter", "LinkErrorRecoveryCounter",
            "PortRcvErrors", "LocalLinkIntegrityErrors", "PortXmitDiscards");
    private static final int RATE_THRESHOLD = 10;
    /** The data counters whose rates {@code -b} prints. */
    private static final List<String> DATA = List.of("PortXmitData", "PortRcvData", "PortXmitPkts", "PortRcvPkts");

    /**
     * ibswportwatch's JSON document.
     *
     * @param lid          the LID polled
     * @param portNum      the port polled
     * @param pauseSeconds the time between polls ({@code -p})
     * @param cycles       each cycle after the first poll, in order
     */
    public record Document(String lid, String portNum, double pauseSeconds, List<Cycle> cycles) {
    }

    /**
     * One cycle: the counters' rates since the last poll and their new values, by their IBA names
     * ({@code symbolErrorCounter}, {@code portXmitData}...).
     *
     * @param rates     each counter's rate a second
     * @param excessive the watched error counters whose rate is above 10 a second (the text's {@code excessive rate})
     * @param counters  each counter's new value
     */
    public record Cycle(Map<String, Double> rates, List<String> excessive, Map<String, Long> counters) {
    }

    private final Map<String, String> current = new LinkedHashMap<>();
    private final Map<String, String> latest = new LinkedHashMap<>();

    @Override
    protected int run() throws InterruptedException {
        Getopts opts = Getopts.parse("hbvp:n:G", args, err());
        if (!opts.ok() || opts.has('h')) {
            return usage();
        }
        String pause = opts.value('p', "10");
        boolean verbose = opts.has('v') && Perl.number(opts.value('v', "")) != 0;
        double cycle = opts.has('n') ? Perl.number(opts.value('n', "")) : -1;
        String guid = opts.has('G') ? "-G" : "";
        boolean bytes = opts.has('b');
        String address = opts.operand(0) == null ? "" : opts.operand(0);
        String port = opts.operand(1) == null ? "" : opts.operand(1);
        String typed = "perfquery " + guid + " " + address + " " + port;
        String lid = address;
        if (!guid.isEmpty()) {
            // ibtool's perfquery reads LIDs: the port GUID becomes one as ibaddr -G resolves it
            ToolOutput resolved = backticks("ibaddr", Shell.words(List.of("-G -L", address)));
            String[] fields = resolved.text().trim().split("\\s+");
            if (resolved.status() != 0 || fields.length < 3) {
                err().print("perfquery failed : \"" + typed + "\"\n");
                return 255;
            }
            lid = fields[2];
        }
        List<String> perfquery = Shell.words(List.of(lid, port));

        for (String counter : COUNTERS) {
            current.put(counter, "0");
            latest.put(counter, "0");
        }
        if (!poll(perfquery, typed)) {
            return 255;
        }
        double seconds = Perl.number(pause);
        List<Cycle> cycles = new CopyOnWriteArrayList<>();
        document(new Document(lid, port, seconds, cycles));
        Thread interrupted = new Thread(() -> writeJson(0, ""));
        if (json()) {
            Runtime.getRuntime().addShutdownHook(interrupted);
        }
        try {
            return watch(cycle, seconds, perfquery, typed, bytes, verbose, cycles);
        } finally {
            if (json()) {
                Runtime.getRuntime().removeShutdownHook(interrupted);
            }
        }
    }

    /** The script's loop: {@code cycle} polls (-1: forever), {@code seconds} apart; its status. */
    private int watch(double cycle, double seconds, List<String> perfquery, String typed, boolean bytes, boolean verbose, List<Cycle> cycles)
            throws InterruptedException {
        while (cycle != 0) {
            out().print("Checking counts...\n");
            out().flush();
            Thread.sleep((long) Math.max(0, Math.floor(seconds)) * 1000);
            if (!poll(perfquery, typed)) {
                document(null);
                return 255;
            }
            if (seconds == 0) {
                err().print("Illegal division by zero at /usr/share/perl5/IBswcountlimits.pm line 166.\n");
                document(null);
                return 255;
            }
            cycles.add(cycle(seconds));
            for (String counter : RATE_WATCHED) {
                double rate = rate(counter, seconds);
                if (rate > RATE_THRESHOLD) {
                    out().print("Detected excessive rate for " + counter + " (" + format(rate) + " cnts/sec)\n");
                } else if (rate > 0) {
                    out().print("Detected rate for " + counter + " (" + format(rate) + " cnts/sec)\n");
                }
            }
            if (bytes) {
                for (String counter : DATA) {
                    out().print("   " + format(rate(counter, seconds)) + " " + counter + "/second\n");
                }
            }
            if (verbose) {
                out().print("   Counter\t\t\tNew ==> Old\n");
                for (String counter : COUNTERS) {
                    out().print("   " + counter + "\t\t\t" + latest.get(counter) + " ==> " + current.get(counter) + "\n");
                }
            }
            if (cycle != -1) {
                cycle--;
            }
        }
        return 0;
    }

    /** The cycle's rates and counters as the document has them. */
    private Cycle cycle(double seconds) {
        Map<String, Double> rates = new LinkedHashMap<>();
        Map<String, Long> counters = new LinkedHashMap<>();
        for (String counter : COUNTERS) {
            String name = Character.toLowerCase(counter.charAt(0)) + counter.substring(1);
            rates.put(name, rate(counter, seconds));
            counters.put(name, Long.parseUnsignedLong(latest.get(counter)));
        }
        List<String> excessive = RATE_WATCHED.stream().filter(c -> rate(c, seconds) > RATE_THRESHOLD)
                .map(c -> Character.toLowerCase(c.charAt(0)) + c.substring(1)).toList();
        return new Cycle(rates, excessive, counters);
    }

    /** The script's {@code get_new_counts}: the last values become the old ones, perfquery's the new; false if it failed. */
    private boolean poll(List<String> perfquery, String typed) {
        current.putAll(latest);
        ToolOutput run = backticks("perfquery", perfquery);
        if (run.status() != 0) {
            err().print("perfquery failed : \"" + typed + "\"\n");
            return false;
        }
        for (String text : Shell.lines(run.text())) {
            for (String counter : COUNTERS) {
                Matcher m = Pattern.compile("^" + counter + ":\\.+(\\d+)").matcher(text);
                if (m.find()) {
                    latest.put(counter, m.group(1));
                }
            }
        }
        return true;
    }

    private double rate(String counter, double seconds) {
        return (Double.parseDouble(latest.get(counter)) - Double.parseDouble(current.get(counter))) / seconds;
    }

    /** A number as Perl prints it: at most 15 significant digits, no trailing zeros. */
    static String format(double value) {
        if (value == Math.rint(value) && Math.abs(value) < 1e15) {
            return Long.toString((long) value);
        }
        BigDecimal d = new BigDecimal(value).round(new MathContext(15)).stripTrailingZeros();
        int exponent = d.precision() - d.scale() - 1;
        if (exponent < -5 || exponent >= 15) {
            String mantissa = d.movePointLeft(exponent).toPlainString();
            return mantissa + "e" + (exponent < 0 ? "-" : "+") + (Math.abs(exponent) < 10 ? "0" : "") + Math.abs(exponent);
        }
        return d.toPlainString();
    }

    private int usage() {
        String prog = prog();
        out().print("Usage: " + prog + " [-p <pause_time> -b -v -n <cycles> -G] <guid|lid> <port>\n"
                + "   Attempt to diagnose a problem on a port\n"
                + "   Run this on a link while a job is running which utilizes that link.\n"
                + "   -p <pause_time> define the ammount of time between counter polls (default 10)\n"
                + "   -v Be verbose\n"
                + "   -n <cycles> run n cycles then exit (default -1 == forever)\n"
                + "   -G Address provided is a GUID\n"
                + "   -b report bytes/second packets/second\n");
        return 2;
    }
}
