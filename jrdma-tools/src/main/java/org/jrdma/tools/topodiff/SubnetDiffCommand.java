package org.jrdma.tools.topodiff;

import java.nio.file.Path;
import java.util.List;
import org.jrdma.RdmaException;
import org.jrdma.subnet.Subnet;
import org.jrdma.subnet.SubnetDiscovery;
import org.jrdma.tools.CmdError;
import org.jrdma.tools.DiscoveryOptions;
import org.jrdma.tools.DiscoversSubnet;
import org.jrdma.tools.ExitCodes;
import org.jrdma.tools.PackageFabricCommand;
import picocli.CommandLine.Command;
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
 * {@code --refresh-cache}), else discovered and saved there. These are the discovery options every
 * discovering command shares ({@link DiscoveryOptions}).
 *
 * <p>Failures are python-rdma's: {@code E: <message>} on standard output, status 100. python-rdma
 * ends even a successful run with 100 (the command returns no true value); here that is 0. With
 * {@code --json} the {@link SubnetComparison.Report} replaces the text.
 */
@Command(name = "subnet_diff", mixinStandardHelpOptions = true,
        description = "Compare a stored subnet (a libibnetdisc cache, REFERENCE) with the current one (the fabric, or the cache CURRENT): "
                + "end ports, nodes, links, link rates and LIDs.")
public final class SubnetDiffCommand extends PackageFabricCommand implements DiscoversSubnet {
    @Parameters(arity = "0..2", paramLabel = "FILE", description = "REFERENCE [CURRENT]: libibnetdisc cache files (ibnetdiscover --cache)")
    List<Path> files = List.of();

    @Option(names = "--sa", description = "discover the current subnet from the SA's records instead of by SMPs")
    boolean sa;

    @Override
    protected int execute() {
        if (files.isEmpty()) {
            throw new CmdError("Too few arguments");
        }
        discoveryOptions().check(sa || python().saPathGiven());
        Subnet reference = DiscoveryOptions.read(files.size() > 1 ? files.get(0) : cacheName(files.get(0)));
        Subnet current = files.size() > 1 ? DiscoveryOptions.read(files.get(1)) : current();
        SubnetComparison.Report report = SubnetComparison.compare(current, reference);
        if (jsonRequested()) {
            return jsonDocument(report, ExitCodes.OK);
        }
        out().print(SubnetComparison.text(report));
        return ExitCodes.OK;
    }

    /** The live subnet, or {@code --cache}'s; a discovery's failure is python-rdma's. */
    private Subnet current() {
        try {
            return discover(() -> SubnetDiscovery.run(smp()), sa).subnet();
        } catch (RdmaException | IllegalStateException | IllegalArgumentException e) {
            throw new CmdError(e.getMessage());
        }
    }
}
