package org.jrdma.tools;

import java.time.Duration;
import org.jrdma.RdmaException;
import org.jrdma.iba.Guid;
import org.jrdma.iba.Mad;
import org.jrdma.mad.MadException;
import org.jrdma.mad.MadTimeoutException;
import org.jrdma.mad.MadTransactor;
import org.jrdma.mad.ReceivedMad;
import org.jrdma.mad.SmpTarget;
import picocli.CommandLine.Option;

/**
 * What ibping and ibsysstat share: OpenIB's vendor classes (range 2, with OUI), a destination given
 * as a LID or with {@code -G} a port GUID the SA resolves, and a server mode in which ibtool is the
 * agent of the class on its port, answering each Get until it is stopped, as the C servers do.
 */
abstract class VendorPingCommand extends FabricCommand {
    /** OpenIB's OUI, {@code IB_OPENIB_OUI}. */
    static final int OPENIB_OUI = 0x001405;
    /** How {@link org.jrdma.mad.MadEngine} says that no answer came, as opposed to one the fabric returned undelivered. */
    private static final String NO_RESPONSE = ": no response after ";

    @Option(names = {"-o", "--oui"}, paramLabel = "<oui>", description = "use specified OUI number")
    String oui;

    @Option(names = {"-G", "--Guid"}, description = "use GUID address argument (resolved to a LID by the SA)")
    boolean guid;

    @Option(names = {"-L", "--Lid"}, description = "use LID address argument (the default)")
    boolean lid;

    @Option(names = {"-s", "--sm_port"}, paramLabel = "<lid>", description = "the SM port LID the SA queries of -G go to")
    Integer smPort;

    /** The OUI the MADs carry: {@code -o} read as {@code strtoul} reads it, else OpenIB's. */
    final int oui() {
        return oui == null ? OPENIB_OUI : (int) CNumbers.strtoul(oui) & 0xFFFFFF;
    }

    /**
     * The LID of the destination argument, a GUID resolved by the SA with {@code -G}.
     *
     * @throws DiagError {@code can't resolve destination port <text>}
     */
    final int resolveLid(String text) {
        if (!guid) {
            RouteOrGuidOptions.Address address = RouteOrGuidOptions.lidOrPath(text, false);
            return ((SmpTarget.Lid) (address.guid() == null ? address.destination() : address.resolve(smp(), fabric, smPort)).target()).lid();
        }
        Guid port;
        try {
            port = Guid.parse(text);
        } catch (IllegalArgumentException e) {
            throw Destination.unresolved(text, e);
        }
        Destination d = new RouteOrGuidOptions.Address(text, null, port).resolve(smp(), fabric, smPort);
        return ((SmpTarget.Lid) d.target()).lid();
    }

    /**
     * Serves {@code mgmtClass} with {@code vendorOui} on the port: every Get that comes is given to
     * {@link #answer}; what cannot be answered is dropped, as the C servers drop it. Returns only
     * if the engine is closed.
     *
     * @throws DiagError {@code can't serve class <n> on this port} if the port refuses the registration
     */
    final void serve(int mgmtClass, int vendorOui) {
        MadTransactor transactor = new MadTransactor(engine(), engine().transport().endPort().orElse(null));
        try {
            transactor.registerServer(mgmtClass, 1, 1L << Mad.METHOD_GET, vendorOui);
        } catch (RdmaException e) {
            throw DiagError.exit("can't serve class " + mgmtClass + " on this port", e);
        }
        while (true) {
            ReceivedMad in = engine().receiveRequest(Duration.ofSeconds(1));
            if (in == null || in.dropped()) {
                continue;
            }
            try {
                answer(transactor, in);
            } catch (MadException e) {
                // not a request of ours: dropped, as the C servers drop what they do not understand
            }
        }
    }

    /** Answers one request of the served class. */
    abstract void answer(MadTransactor transactor, ReceivedMad in);

    /**
     * libibmad's warnings for a request that got no answer: {@code _do_madrpc: recv failed} when
     * nothing came back at all, then {@code <function>: _do_madrpc failed; dport (<dest>)}.
     */
    final void warnNoAnswer(String function, String dest, MadTimeoutException e) {
        if (e.getMessage() != null && e.getMessage().contains(NO_RESPONSE)) {
            err().print(DiagError.ibwarn("_do_madrpc", "recv failed: Connection timed out") + "\n");
        }
        err().print(DiagError.ibwarn(function, "_do_madrpc failed; dport (" + dest + ")") + "\n");
        err().flush();
    }
}
