package org.jrdma.tools;

import java.time.Duration;
import org.jrdma.mad.MadEngine;
import org.jrdma.mad.MadTransport;
import org.jrdma.mad.SmpClient;
import org.jrdma.mad.sim.IbsimTransport;
import picocli.CommandLine.Option;

/**
 * The options every MAD-sending command shares: which port to send from (a kernel device with
 * {@code -C}/{@code -P}, or a node of an ibsim simulated fabric with {@code --sim}), and how
 * long to wait for answers.
 */
public final class FabricOptions {
    @Option(names = {"-C", "--Ca"}, paramLabel = "CA", description = "the RDMA device to use (default: the first with an active port)")
    String ca;

    @Option(names = {"-P", "--Port"}, paramLabel = "PORT", description = "the port of the device to use")
    Integer port;

    @Option(names = "--sim", arity = "0..1", paramLabel = "SOCKNAME", fallbackValue = "",
            description = "attach to an ibsim simulated fabric instead of a device; SOCKNAME defaults to $IBSIM_SOCKNAME, else \"sim\"")
    String sim;

    @Option(names = "--sim-node", paramLabel = "NODE", description = "the simulated node to attach at (default: $SIM_HOST, else ibsim's first node)")
    String simNode;

    @Option(names = {"-t", "--timeout"}, paramLabel = "MS", defaultValue = "1000", description = "timeout per MAD in milliseconds (default: ${DEFAULT-VALUE})")
    int timeoutMillis;

    @Option(names = "--retries", paramLabel = "N", defaultValue = "3", description = "resends of an unanswered MAD (default: ${DEFAULT-VALUE})")
    int retries;

    @Option(names = "--max-outstanding", paramLabel = "N", defaultValue = "16", description = "MADs in flight at once (default: ${DEFAULT-VALUE})")
    int maxOutstanding;

    /** Opens the transport these options name. */
    MadTransport openTransport() {
        if (sim != null) {
            String socket = !sim.isEmpty() ? sim : System.getenv().getOrDefault("IBSIM_SOCKNAME", "sim");
            String node = simNode != null ? simNode : System.getenv("SIM_HOST");
            return IbsimTransport.attach(socket, node);
        }
        throw new UsageException("only simulated fabrics (--sim) are supported by this build; kernel umad devices"
                + (ca != null ? " such as " + ca + (port != null ? "/" + port : "") : "") + " come with the umad transport");
    }

    /** An engine over the transport these options name, with their bound on MADs in flight. */
    MadEngine openEngine() {
        if (maxOutstanding < 1) {
            throw new UsageException("--max-outstanding must be at least 1");
        }
        return new MadEngine(openTransport(), maxOutstanding);
    }

    /** An SMP client with these options' timeout and retries. */
    SmpClient smp(MadEngine engine) {
        if (timeoutMillis < 1) {
            throw new UsageException("--timeout must be at least 1 ms");
        }
        return new SmpClient(engine, Duration.ofMillis(timeoutMillis), retries, 0);
    }
}
