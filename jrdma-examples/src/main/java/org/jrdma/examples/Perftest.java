package org.jrdma.examples;

import java.io.IOException;
import java.lang.foreign.Arena;
import java.util.List;
import org.jrdma.examples.BwWriter.BwException;
import org.jrdma.examples.PingpongExchange.ExchangeException;
import org.jrdma.iba.Mtu;
import org.jrdma.verbs.Context;
import org.jrdma.verbs.Verbs;
import org.jrdma.verbs.VerbsDevice;

/**
 * What perftest's programs in Java ({@link WriteBw}, {@link SendBw}, {@link SendLat}) share:
 * perftest's buffer constants, its device lookup and waiting banner, and the {@code main} of the
 * bandwidth tests: parse the command line, open the device confined to the one thread, run a
 * side, exit with its status.
 */
final class Perftest {
    /** perftest's cycle buffer: the page size. */
    static final int CYCLE_BUFFER = 4096;
    /** perftest's cache line size. */
    static final int CACHE_LINE = 64;
    /** perftest's {@code UD_ADDITION}: the GRH in front of a UD message in its receive buffer. */
    static final int UD_ADDITION = 40;

    /** One side of a bandwidth test, on the opened device. */
    interface BwSide {
        int test(BwSettings settings, Context ctx, String device, Arena arena)
                throws ExchangeException, BwException, IOException;
    }

    /** A command line's parser: null after {@code -h}. */
    interface Parser {
        BwSettings parse(String[] args) throws UsageException;
    }

    private Perftest() {
    }

    /**
     * The device to open: {@code requested}, or the first one without; null, after perftest's
     * message on standard error, when there is none or no such one.
     */
    static String device(String requested) {
        List<VerbsDevice> devices = Verbs.devices();
        String device = requested != null ? requested : devices.isEmpty() ? null : devices.getFirst().name();
        if (device == null || devices.stream().noneMatch(d -> d.name().equals(device))) {
            System.err.println(" Unable to find the Infiniband/RoCE device");
            return null;
        }
        return device;
    }

    /** What a perftest server prints before it waits for its client. */
    static void printWaiting() {
        System.out.println();
        System.out.println("************************************");
        System.out.println("* Waiting for client to connect... *");
        System.out.println("************************************");
    }

    /**
     * The end of perftest's test description: MTU, link layer, GID index (unless -1), inline
     * data (none), how the queue pairs were connected and the data exchanged ({@code rdmaCm}:
     * rdma_cm, else the TCP side channel), and the line under it.
     */
    static void printLinkAndExchange(Mtu mtu, boolean ethernet, int gidIndex, boolean rdmaCm) {
        System.out.println(" Mtu             : " + mtu.bytes() + "[B]");
        System.out.println(" Link type       : " + (ethernet ? "Ethernet" : "IB"));
        if (gidIndex != -1) {
            System.out.println(" GID index       : " + gidIndex);
        }
        System.out.println(" Max inline data : 0[B]");
        System.out.println(" rdma_cm QPs\t : " + (rdmaCm ? "ON" : "OFF"));
        System.out.println(" Data ex. method : " + (rdmaCm ? "rdma_cm" : "Ethernet"));
        System.out.println(BwReport.RESULT_LINE);
    }

    /**
     * A bandwidth test's {@code main}: parses {@code args} (a usage error on standard error, or
     * {@code usage} after {@code -h}, exit 1), runs {@code side} and exits with its status.
     */
    static void bwMain(String[] args, Parser parser, String usage, BwSide side) {
        BwSettings settings;
        try {
            settings = parser.parse(args);
        } catch (UsageException e) {
            System.err.println(e.getMessage());
            System.exit(1);
            return;
        }
        if (settings == null) {
            System.out.print(usage);
            System.exit(1);
        }
        System.exit(runBw(settings, side));
    }

    /** Runs {@code side} on the device {@code settings} name; returns the exit status, printing what failed on standard error. */
    static int runBw(BwSettings settings, BwSide side) {
        try {
            String device = device(settings.device());
            if (device == null) {
                return 1;
            }
            try (Arena arena = Arena.ofConfined(); Context ctx = Verbs.openConfined(device)) {
                return side.test(settings, ctx, device, arena);
            }
        } catch (ExchangeException | BwException | IOException e) {
            System.err.println(e.getMessage());
            return 1;
        } catch (RuntimeException e) {
            System.err.println(e);
            return 1;
        }
    }
}
