package org.jrdma.tools;

import org.jrdma.iba.Gid;
import org.jrdma.iba.Guid;
import org.jrdma.iba.smp.SmpNodeInfo;
import org.jrdma.iba.smp.SmpPortInfo;
import org.jrdma.mad.SmpClient;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code ibtool ibaddr}: the GID and LID range of a port (by default the local one), from its
 * NodeInfo (the port GUID) and PortInfo (subnet prefix, LID, LMC), printed as infiniband-diags'
 * ibaddr prints them. As in the C tool, {@code -L} here shows the LIDs in decimal; LIDs are the
 * default address form. The local port is read by directed route where the C tool reads its LID
 * from sysfs and queries that LID, so this also works before a subnet manager has assigned LIDs.
 */
@Command(name = "ibaddr", mixinStandardHelpOptions = true, description = "Show the GID and LID range of a port.")
final class IbaddrCommand extends FabricCommand {
    private static final String UNRESOLVED = "can't resolve requested address";
    private static final int MAX_PORT = 254;

    @Mixin
    RouteOrGuidOptions address;

    @Option(names = {"-g", "--gid_show"}, description = "show gid address only")
    boolean gidOnly;

    @Option(names = {"-l", "--lid_show"}, description = "show lid range only")
    boolean lidOnly;

    @Option(names = {"-L", "--Lid_show"}, description = "show lid range (in decimal) only")
    boolean decimalLidOnly;

    @Parameters(index = "0", arity = "0..1", paramLabel = "ADDRESS",
            description = "the port: a LID, with -D a directed route, with -G a port GUID (default: the local port)")
    String port;

    @Parameters(index = "1", arity = "0..1", paramLabel = "PORTNUM", defaultValue = "0",
            description = "the port number whose PortInfo to read on that node (default: ${DEFAULT-VALUE}, the port addressed)")
    int portNumber;

    /** The port shown: its node's NodeInfo (for the port GUID) and its PortInfo. */
    private record Port(SmpNodeInfo node, SmpPortInfo info) {
    }

    @Override
    int run() {
        if (portNumber < 0 || portNumber > MAX_PORT) {
            // The C tool sends the query, which the node refuses.
            throw DiagError.exit(UNRESOLVED, new IllegalArgumentException("PORTNUM " + portNumber + " outside 0.." + MAX_PORT));
        }
        RouteOrGuidOptions.Address at = port == null ? null : address.parse(port);
        boolean showGid = gidOnly || !lidOnly && !decimalLidOnly;
        boolean showLid = lidOnly || decimalLidOnly || !gidOnly;
        SmpClient smp = smp();
        Port addressed = explained(UNRESOLVED, () -> {
            if (at == null) {
                LocalPort local = LocalPort.read(smp);
                return new Port(local.node(), local.info());
            }
            Destination d = at.resolve(smp, fabric);
            return new Port(smp.get(new SmpNodeInfo(), d.target(), 0), smp.get(new SmpPortInfo(), d.target(), portNumber));
        });
        SmpPortInfo info = addressed.info();
        if (json()) {
            int first = info.lid();
            return json(new Json(new Gid(info.gidPrefix(), addressed.node().portGuid().value()), addressed.node().portGuid(), first,
                    first + (1 << info.lmc()) - 1, info.lmc()), ExitCodes.OK);
        }
        StringBuilder line = new StringBuilder();
        if (showGid) {
            line.append("GID ").append(new Gid(info.gidPrefix(), addressed.node().portGuid().value())).append(' ');
        }
        if (showLid) {
            int first = info.lid();
            int last = first + (1 << info.lmc()) - 1;
            line.append(decimalLidOnly ? String.format("LID start %d end %d", first, last)
                    : String.format("LID start 0x%x end 0x%x", first, last));
        }
        out().println(line);
        return ExitCodes.OK;
    }

    /** {@code --json}: the port's GID, port GUID and LID range ({@code lid} to {@code lidEnd}, {@code 2^lmc} LIDs). */
    record Json(Gid gid, Guid portGuid, int lid, int lidEnd, int lmc) {
    }
}
