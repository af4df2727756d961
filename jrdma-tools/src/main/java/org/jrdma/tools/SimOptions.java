package org.jrdma.tools;

import java.util.ArrayList;
import java.util.List;
import org.jrdma.mad.sim.IbsimTransport;
import picocli.CommandLine.Option;

/**
 * {@code --sim} and {@code --sim-node}: attach to a node of an ibsim simulated fabric instead of
 * a kernel device, as libumad2sim does for the C tools ({@code $IBSIM_SOCKNAME}, {@code $SIM_HOST}).
 */
public final class SimOptions {
    @Option(names = "--sim", arity = "0..1", paramLabel = "SOCKNAME", fallbackValue = "",
            description = "attach to an ibsim simulated fabric instead of a device; SOCKNAME defaults to $IBSIM_SOCKNAME, else \"sim\"")
    String sim;

    @Option(names = "--sim-node", paramLabel = "NODE", description = "the simulated node to attach at (default: $SIM_HOST, else ibsim's first node)")
    String simNode;

    /**
     * These options as words of another ibtool command line ({@code --sim[=SOCKNAME]},
     * {@code --sim-node NODE}, each only if given), so that a tool a script runs attaches where the
     * script was told to.
     */
    public List<String> forwarded() {
        List<String> words = new ArrayList<>();
        if (sim != null) {
            words.add(sim.isEmpty() ? "--sim" : "--sim=" + sim);
        }
        if (simNode != null) {
            words.addAll(List.of("--sim-node", simNode));
        }
        return words;
    }

    /** Whether {@code --sim} was given. */
    boolean requested() {
        return sim != null;
    }

    /** The simulated fabric and node these options name, as {@code SOCKNAME NODE} ({@code null} for ibsim's first node). */
    String target() {
        String socket = !sim.isEmpty() ? sim : System.getenv().getOrDefault("IBSIM_SOCKNAME", "sim");
        String node = simNode != null ? simNode : System.getenv("SIM_HOST");
        return socket + " " + node;
    }

    /**
     * Attaches to the simulated fabric and node these options name.
     *
     * @throws UsageException if the node's name is one ibsim cannot take
     */
    IbsimTransport attach() {
        String socket = !sim.isEmpty() ? sim : System.getenv().getOrDefault("IBSIM_SOCKNAME", "sim");
        String node = simNode != null ? simNode : System.getenv("SIM_HOST");
        try {
            return IbsimTransport.attach(socket, node);
        } catch (IllegalArgumentException e) {
            throw new UsageException("--sim-node: " + e.getMessage());
        }
    }
}
