package org.jrdma.tools;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.jrdma.RdmaException;
import org.jrdma.iba.mad.OpenIbPing;
import org.jrdma.mad.MadTimeoutException;
import org.jrdma.mad.MadTransactor;
import org.jrdma.mad.ReceivedMad;
import org.jrdma.path.IBPath;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code ibtool ibping}: infiniband-diags' ibping, a ping over OpenIB's vendor MAD class 0x32
 * (OUI 0x001405). The client sends a Get to a port once a second ({@code -f}: as fast as the
 * answers come, printing nothing but the statistics), prints {@code Pong from <host> (Lid N): time
 * T ms} for each answer and the loss and round trips at the end ({@code -c} pings, or on SIGINT or
 * SIGTERM); the server ({@code -S}) registers as the agent of the class and answers each Get with
 * its host and domain name ({@code gethostname.getdomainname}, as the C server), until it is
 * stopped. Round trips are measured in microseconds; the C tool divides nanoseconds by 10,000
 * where it means 1,000, which ibtool does not copy.
 */
@Command(name = "ibping", mixinStandardHelpOptions = true,
        description = "Ping a port over the OpenIB ping vendor class, or answer such pings (-S).")
final class IbpingCommand extends VendorPingCommand {
    /** OpenIB's ping class, {@code IB_VENDOR_OPENIB_PING_CLASS}. */
    static final int PING_CLASS = 0x32;

    @Option(names = {"-c", "--count"}, paramLabel = "<num>", description = "stop after count packets")
    String count;

    @Option(names = {"-f", "--flood"}, description = "flood destination")
    boolean flood;

    @Option(names = {"-S", "--Server"}, description = "start in server mode")
    boolean server;

    @Parameters(index = "0", arity = "0..1", paramLabel = "<dest lid|guid>", description = "the port to ping")
    String dest;

    private long minRtt = -1;
    private long maxRtt;
    private long totalRtt;
    private long transmitted;
    private long replied;
    private String lastHost = "";
    private String destText = "";
    private long start;
    private volatile boolean reported;

    @Override
    int run() throws InterruptedException {
        if (dest == null && !server) {
            throw new UsageException("ibping needs a destination, or -S to serve");
        }
        int vendorOui = oui();
        if (server) {
            serve(PING_CLASS, vendorOui);
            return ExitCodes.OK;
        }
        int lid = resolveLid(dest);
        destText = "Lid " + lid;
        IBPath path = IBPath.builder(null).dlid(lid).build();
        MadTransactor transactor = new MadTransactor(engine(), null).withTimeouts(fabric.timeout(), fabric.retries());
        long left = count == null ? 0xFFFF_FFFFL : CNumbers.strtoul(count) & 0xFFFF_FFFFL;
        Thread report = new Thread(() -> {
            if (!reported) {
                report();
                Runtime.getRuntime().halt(0); // as the C tool's report() on SIGINT and SIGTERM: exit(0)
            }
        });
        Runtime.getRuntime().addShutdownHook(report);
        start = System.nanoTime();
        try {
            for (; left > 0; left--) {
                transmitted++;
                ping(transactor, path, vendorOui);
                if (!flood) {
                    Thread.sleep(Duration.ofSeconds(1));
                }
            }
            report();
        } finally {
            reported = true;
            Runtime.getRuntime().removeShutdownHook(report);
        }
        return ExitCodes.OK;
    }

    private void ping(MadTransactor transactor, IBPath path, int vendorOui) {
        long sent = System.nanoTime();
        OpenIbPing pong;
        try {
            pong = transactor.vendGet(new OpenIbPing(), vendorOui, path, 0);
        } catch (MadTimeoutException e) {
            warnNoAnswer("mad_rpc_rmpp", destText, e);
            return;
        } catch (RdmaException e) {
            return;
        }
        long rtt = (System.nanoTime() - sent) / 1000;
        if (lastHost.isEmpty()) {
            lastHost = pong.hostAndDomain();
        }
        if (json()) {
            jsonPongs.add(new JsonPong(pong.hostAndDomain(), rtt));
        } else if (!flood) {
            out().print("Pong from " + pong.hostAndDomain() + " (" + destText + "): time " + millis(rtt) + " ms\n");
            out().flush();
        }
        minRtt = minRtt < 0 ? rtt : Math.min(minRtt, rtt);
        maxRtt = Math.max(maxRtt, rtt);
        totalRtt += rtt;
        replied++;
    }

    private synchronized void report() {
        long total = (System.nanoTime() - start) / 1000;
        long lost = transmitted - replied;
        long average = replied == 0 ? 0 : totalRtt / replied;
        if (json()) {
            json(new Json(destText, lastHost.isEmpty() ? null : lastHost, jsonPongs, transmitted, replied,
                    lost != 0 ? lost * 100 / transmitted : 0, total / 1000, Math.max(minRtt, 0), average, maxRtt), ExitCodes.OK);
            return;
        }
        out().print("\n--- " + lastHost + " (" + destText + ") ibping statistics ---\n"
                + transmitted + " packets transmitted, " + replied + " received, " + (lost != 0 ? lost * 100 / transmitted : 0)
                + "% packet loss, time " + total / 1000 + " ms\n"
                + "rtt min/avg/max = " + millis(Math.max(minRtt, 0)) + "/" + millis(average) + "/" + millis(maxRtt) + " ms\n");
        out().flush();
    }

    /** With {@code --json}: the answers, in order (with {@code -f} too). */
    private final List<JsonPong> jsonPongs = new ArrayList<>();

    /**
     * {@code --json}, written when the pings end (after {@code -c} of them, or on SIGINT as the
     * statistics are): the destination, the host that answered, each answer, and the statistics,
     * times in microseconds.
     */
    record Json(String destination, String host, List<JsonPong> pongs, long transmitted, long received, long packetLossPercent,
            long timeMs, long rttMinUs, long rttAvgUs, long rttMaxUs) {
    }

    /** One answer: the server's host name and domain, and the round-trip time in microseconds. */
    record JsonPong(String host, long rttUs) {
    }

    /** Answers every Get of the ping class with this host's name (the C server's reply), until stopped. */
    @Override
    void answer(MadTransactor transactor, ReceivedMad in) {
        transactor.sendReply(transactor.parseRequest(in), new OpenIbPing().hostAndDomain(HostName.hostAndDomain(OpenIbPing.SIZE)));
    }

    /** Microseconds as the C tool prints milliseconds: {@code %d.%03d}. */
    private static String millis(long micros) {
        return micros / 1000 + "." + String.format("%03d", micros % 1000);
    }
}
