package org.jrdma.tools.portadmin;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.function.Supplier;
import org.jrdma.mad.MadTransactor;
import org.jrdma.mad.SmpClient;
import org.jrdma.subnet.Subnet;
import org.jrdma.subnet.SubnetCache;
import org.jrdma.subnet.SubnetCacheException;
import org.jrdma.subnet.SubnetDiscovery;
import org.jrdma.tools.CmdError;
import picocli.CommandLine.Option;

/**
 * python-rdma's discovery options ({@code LibIBOpts.setup(discovery=True)}): how a command that
 * needs the whole subnet gets it. {@code --discovery DR} walks it by directed-route SMPs (the
 * default), {@code --discovery SA} reads it from the subnet administrator's records, and
 * {@code --cache FILE} keeps it between runs: a FILE that exists is read instead of discovering
 * (unless {@code --refresh-cache}), and a discovery is written there. The file is libibnetdisc's
 * cache ({@link SubnetCache}, what {@code ibnetdiscover --cache} writes), where python-rdma pickles
 * its own objects.
 */
final class DiscoveryOptions {
    /** The discovery modes python-rdma names. */
    enum Mode {
        /** Each node found by a directed-route hop, then read by LID-routed SMPs. */
        LID,
        /** Directed-route SMPs from the local port. */
        DR,
        /** The SA's NodeRecords, PortInfoRecords, SwitchInfoRecords and LinkRecords. */
        SA
    }

    @Option(names = "--discovery", paramLabel = "{LID|DR|SA}", description = "how to discover the subnet: DR, by directed-route "
            + "SMPs (the default), LID, each node read by LID-routed SMPs once a directed-route hop found it, or SA, from the subnet "
            + "administrator's records")
    Mode mode;

    @Option(names = "--cache", paramLabel = "FILE", description = "read the subnet from FILE (a libibnetdisc cache, as "
            + "ibnetdiscover --cache writes) instead of discovering it, or write the discovered subnet there")
    Path cache;

    @Option(names = "--refresh-cache", description = "discover the subnet even if the --cache file exists, and rewrite it")
    boolean refresh;

    /**
     * The subnet: read from the cache file, or discovered as the mode says (and written to the
     * cache file when one is named).
     *
     * @param smp     SMPs from the local port
     * @param sa      a transactor on the local end port, for {@code --discovery SA}
     * @param toTheSa whether an option implies discovery from the SA ({@code --sa-path}), as
     *                python-rdma's {@code --sa} does
     * @throws CmdError if the cache file cannot be read or written, or {@code toTheSa} meets
     *                  another discovery mode
     */
    Subnet subnet(SmpClient smp, Supplier<MadTransactor> sa, boolean toTheSa) {
        if (toTheSa && mode != null && mode != Mode.SA) {
            throw new CmdError("Can't combine --sa with discovery mode '" + mode + "'");
        }
        if (cache != null && !refresh && Files.exists(cache)) {
            try {
                return SubnetCache.read(cache);
            } catch (SubnetCacheException e) {
                throw new CmdError("The file '" + cache + "' is not a valid cache file - " + e.getMessage());
            }
        }
        Subnet subnet = switch (toTheSa ? Mode.SA : mode == null ? Mode.DR : mode) {
            case LID -> SubnetDiscovery.byLid(smp).subnet();
            case DR -> SubnetDiscovery.run(smp).subnet();
            case SA -> SubnetDiscovery.fromSa(sa.get()).subnet();
        };
        if (cache != null) {
            try {
                SubnetCache.write(subnet, cache);
            } catch (SubnetCacheException e) {
                throw new CmdError("Cannot save the discovery cache to '" + cache + "' - " + e.getMessage());
            }
        }
        return subnet;
    }
}
