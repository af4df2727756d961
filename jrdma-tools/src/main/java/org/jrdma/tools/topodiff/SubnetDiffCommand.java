package org.jrdma.tools.topodiff;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.jrdma.RdmaException;
import org.jrdma.devices.EndPort;
import org.jrdma.mad.MadEngine;
import org.jrdma.mad.MadTransactor;
import org.jrdma.subnet.Subnet;
import org.jrdma.subnet.SubnetCache;
import org.jrdma.subnet.SubnetCacheException;
import org.jrdma.subnet.SubnetDiscovery;
import org.jrdma.tools.ExitCodes;
import org.jrdma.tools.PackageFabricCommand;
import org.jrdma.tools.PythonRdmaOptions;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code ibtool subnet_diff REFERENCE [CURRENT]}: python-rdma's comparison of a saved subnet with
 * the current one ({@link SubnetComparison}): end ports, nodes, links, link rates and LIDs, each
 * with what only one side has. REFERENCE (and CURRENT, which then replaces the live subnet) is a
 * libibnetdisc cache, as {@code ibnetdiscover --cache FILE} writes it (python-rdma pickles its own
 * subnet object instead), its name's {@code $C}, {@code $P} and {@code $A} the local port's when it
 * is alone; without CURRENT the subnet is discovered by directed route, by python-rdma's LID walk
 * with {@code --discovery LID} ({@link SubnetDiscovery#byLid}), or from the
 * SA's records with {@code --sa} or {@code --discovery SA}. {@code --cache FILE} is python-rdma's
 * discovery cache: the current subnet is read from FILE when it exists (unless
 * {@code --refresh-cache}), else discovered and saved there.
 *
 * <p>Failures are python-rdma's: {@code E: <message>} on standard output, status 100. python-rdma
 * ends even a successful run with 100 (the command returns no true value); here that is 0. With
 * {@code --json} the {@link SubnetComparison.Report} replaces the text.
 */
@Command(name = "subnet_diff", mixinStandardHelpOptions = true,
        description = "Compare a stored subnet (a libibnetdisc cache, REFERENCE) with the current one (the fabric, or the cache CURRENT): "
                + "end ports, nodes, links, link rates and LIDs.")
public final class SubnetDiffCommand extends PackageFabricCommand {
    /** A {@code string.Template} placeholder: {@code $$}, {@code $name} or {@code ${name}}, names as Python 2 reads them. */
    private static final Pattern TEMPLATE = Pattern.compile("\\$(?:(\\$)|([_a-z][_a-z0-9]*)|\\{([_a-z][_a-z0-9]*)})", Pattern.CASE_INSENSITIVE);

    /** python-rdma's exit status for a failure ({@code CmdError}). */
    static final int FAILED = 100;

    @Parameters(arity = "0..2", paramLabel = "FILE", description = "REFERENCE [CURRENT]: libibnetdisc cache files (ibnetdiscover --cache)")
    List<Path> files = List.of();

    @Option(names = "--sa", description = "discover the current subnet from the SA's records instead of by SMPs")
    boolean sa;

    @Option(names = "--discovery", paramLabel = "{LID|DR|SA}",
            description = "how to discover the current subnet: DR by directed-route SMPs, LID each node read by LID-routed SMPs "
                    + "once a directed-route hop found it, SA from the SA's records")
    String discovery;

    @Option(names = "--cache", paramLabel = "FILE", description = "read the current subnet from FILE if it exists, else discover it and save it there")
    Path cache;

    @Option(names = "--refresh-cache", description = "discover the current subnet even when --cache's FILE exists (and save it there)")
    boolean refreshCache;

    @Mixin
    PythonRdmaOptions python;

    @Override
    protected int execute() {
        try {
            if (files.isEmpty()) {
                throw new Failure("Too few arguments");
            }
            if (discovery != null && !List.of("LID", "DR", "SA").contains(discovery)) {
                throw new Failure("--discovery: invalid choice: '" + discovery + "' (choose from 'LID', 'DR', 'SA')");
            }
            if ((sa || python.saPathGiven()) && discovery != null && !discovery.equals("SA")) {
                throw new Failure("Can't combine --sa with discovery mode '" + discovery + "'");
            }
            Subnet reference = load(files.size() > 1 ? files.get(0) : expand(files.get(0)));
            Subnet current = files.size() > 1 ? load(files.get(1)) : current();
            SubnetComparison.Report report = SubnetComparison.compare(current, reference);
            if (jsonRequested()) {
                return jsonDocument(report, ExitCodes.OK);
            }
            out().print(SubnetComparison.text(report));
            return ExitCodes.OK;
        } catch (Failure e) {
            out().print("E: " + e.getMessage() + "\n");
            return FAILED;
        }
    }

    /** The live subnet, or {@code --cache}'s. */
    private Subnet current() {
        Path cache = this.cache == null ? null : expand(this.cache);
        if (cache != null && !refreshCache && Files.exists(cache)) {
            return load(cache);
        }
        Subnet subnet;
        try {
            subnet = discover().subnet();
        } catch (RdmaException | IllegalStateException | IllegalArgumentException e) {
            throw new Failure(e.getMessage());
        }
        if (cache != null) {
            try {
                SubnetCache.write(subnet, cache);
            } catch (SubnetCacheException e) {
                throw new Failure("Could not write the cache file '" + cache + "' - " + e.getMessage());
            }
        }
        return subnet;
    }

    private SubnetDiscovery discover() {
        if (sa || python.saPathGiven() || "SA".equals(discovery)) {
            MadEngine engine = engine();
            EndPort endPort = engine.transport().endPort().orElseThrow(() -> new Failure("--sa needs the end port the MADs leave from, which "
                    + engine.transport().describe() + " does not say"));
            MadTransactor transactor = new MadTransactor(engine, endPort).withTimeouts(madTimeout(), madRetries());
            return SubnetDiscovery.fromSa(transactor.withSaPath(python.saPath(Optional.of(endPort), transactor::saPath)));
        }
        return "LID".equals(discovery) ? SubnetDiscovery.byLid(smp()) : SubnetDiscovery.run(smp());
    }

    /**
     * A cache file name with python-rdma's {@code compute_cache_fn} templates replaced, as Python's
     * {@code string.Template.safe_substitute} replaces them: {@code $C} and {@code ${CA}} by the
     * local device's name, {@code $P} and {@code ${PORT}} by the port number, {@code $A} by both
     * ({@code C-P}), {@code $$} by {@code $}; any other {@code $} stays.
     */
    private Path expand(Path file) {
        String name = file.toString();
        if (name.indexOf('$') < 0) {
            return file;
        }
        MadEngine engine = engine();
        EndPort port = engine.transport().endPort().orElseThrow(() -> new Failure("the cache file name " + name
                + " names the end port, which " + engine.transport().describe() + " does not say"));
        String device = port.deviceName();
        String number = Integer.toString(port.portNumber());
        Map<String, String> values = Map.of("C", device, "CA", device, "P", number, "PORT", number, "A", device + "-" + number);
        Matcher m = TEMPLATE.matcher(name);
        StringBuilder expanded = new StringBuilder();
        while (m.find()) {
            String id = m.group(2) != null ? m.group(2) : m.group(3);
            String value = m.group(1) != null ? "$" : values.get(id);
            m.appendReplacement(expanded, Matcher.quoteReplacement(value != null ? value : m.group()));
        }
        m.appendTail(expanded);
        return Path.of(expanded.toString());
    }

    /** A subnet cache file; one that cannot be read is python-rdma's {@code load_cache} failure. */
    private static Subnet load(Path file) {
        try {
            return SubnetCache.read(file);
        } catch (SubnetCacheException e) {
            throw new Failure("The file '" + file + "' is not a valid cache file - " + e.getMessage());
        }
    }

    /** A failure python-rdma reports as a {@code CmdError}. */
    private static final class Failure extends RuntimeException {
        private static final long serialVersionUID = 1L;

        Failure(String message) {
            super(message);
        }
    }
}
