package org.jrdma.tools.cache;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.jrdma.subnet.SubnetCache;
import org.jrdma.subnet.SubnetCacheException;
import org.jrdma.tools.CNumbers;
import org.jrdma.tools.DiagError;
import org.jrdma.tools.ExitCodes;
import org.jrdma.tools.PackageCommand;
import org.jrdma.tools.UsageException;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code ibtool ibcacheedit}: changes GUIDs in a libibnetdisc cache file ({@code ibnetdiscover
 * --cache}) and writes the result to another, as infiniband-diags' ibcacheedit does: a switch's
 * node GUID (and with it its port GUID, which a switch's ports share), a channel adapter's node
 * GUID, every NodeInfo SystemImageGUID equal to a value, or one port GUID of a node. The edits
 * apply in that order; a GUID not found ends the command with the C tool's message and status
 * 255, nothing written. GUID values are read as {@code strtoull} reads them (text that is not a
 * number is 0); an argument without its {@code :} parts is a usage error, {@code invalid input}.
 */
@Command(name = "ibcacheedit", mixinStandardHelpOptions = true,
        description = "Edit the node, port and system image GUIDs of a libibnetdisc cache file.")
public final class IbcacheeditCommand extends PackageCommand {
    @Option(names = "--switchguid", paramLabel = "BEFOREGUID:AFTERGUID", description = "Specify before and after switchguid to edit")
    List<String> switchGuid = List.of();

    @Option(names = "--caguid", paramLabel = "BEFOREGUID:AFTERGUID", description = "Specify before and after caguid to edit")
    List<String> caGuid = List.of();

    @Option(names = "--sysimgguid", paramLabel = "BEFOREGUID:AFTERGUID", description = "Specify before and after sysimgguid to edit")
    List<String> sysimgGuid = List.of();

    @Option(names = "--portguid", paramLabel = "NODEGUID:BEFOREGUID:AFTERGUID", description = "Specify before and after port guid to edit")
    List<String> portGuid = List.of();

    @Parameters(arity = "0..*", paramLabel = "FILE", description = "<orig.cache> <new.cache>; more are ignored")
    List<String> files = List.of();

    @Override
    protected int execute() {
        long[] switchEdit = last(switchGuid, 2);
        long[] caEdit = last(caGuid, 2);
        long[] sysimgEdit = last(sysimgGuid, 2);
        long[] portEdit = last(portGuid, 3);
        if (files.isEmpty()) {
            throw DiagError.exit("original cache file not specified");
        }
        if (files.size() < 2) {
            throw DiagError.exit("new cache file not specified");
        }
        CacheRecords cache = load(Path.of(files.get(0)));
        if (switchEdit != null && !replaceNodeGuid(cache, CacheRecords.SWITCH, switchEdit[0], switchEdit[1])) {
            throw DiagError.exit(String.format("switchguid = %x not found", switchEdit[0]));
        }
        if (caEdit != null && !replaceNodeGuid(cache, CacheRecords.CHANNEL_ADAPTER, caEdit[0], caEdit[1])) {
            throw DiagError.exit(String.format("caguid = %x not found", caEdit[0]));
        }
        if (sysimgEdit != null && !replaceSystemImageGuid(cache, sysimgEdit[0], sysimgEdit[1])) {
            throw DiagError.exit(String.format("sysimgguid = %x not found", sysimgEdit[0]));
        }
        if (portEdit != null) {
            replacePortGuid(cache, portEdit[0], portEdit[1], portEdit[2]);
        }
        try {
            Files.write(Path.of(files.get(1)), cache.bytes());
        } catch (IOException e) {
            throw DiagError.exit("caching new cache data failed", e);
        }
        return ExitCodes.OK;
    }

    /**
     * The GUIDs of every occurrence of an option, checked as the C tool checks them, the last one's
     * returned (null if the option is absent).
     *
     * @throws UsageException {@code invalid input '<arg>'} for an argument without its {@code :} parts
     */
    private static long[] last(List<String> occurrences, int parts) {
        long[] guids = null;
        for (String arg : occurrences) {
            String[] split = arg.split(":", parts);
            if (split.length < parts || split[parts - 1].isEmpty()) {
                throw new UsageException("invalid input '" + arg + "'", "expected " + parts + " GUIDs separated by ':'");
            }
            guids = new long[parts];
            for (int i = 0; i < parts; i++) {
                guids[i] = CNumbers.strtoul(split[i]);
            }
        }
        return guids;
    }

    private static CacheRecords load(Path file) {
        try {
            byte[] bytes = Files.readAllBytes(file);
            SubnetCache.read(bytes);
            return new CacheRecords(bytes);
        } catch (IOException | SubnetCacheException e) {
            throw DiagError.exit("loading original cached fabric failed", e);
        }
    }

    /** ibcacheedit's {@code replace_node_guid} over the nodes of one type; a switch's ports take its new GUID. */
    private static boolean replaceNodeGuid(CacheRecords cache, int type, long before, long after) {
        boolean found = false;
        for (int node : cache.nodes()) {
            if (cache.type(node) == type && cache.guid(node) == before) {
                rename(cache, node, after);
                found = true;
            }
        }
        return found;
    }

    private static void rename(CacheRecords cache, int node, long guid) {
        cache.nodeGuid(node, guid);
        if (cache.type(node) == CacheRecords.SWITCH) {
            for (int key : cache.portKeys(node).values()) {
                cache.portGuid(key, guid);
            }
        }
    }

    private static boolean replaceSystemImageGuid(CacheRecords cache, long before, long after) {
        boolean found = false;
        for (int node : cache.nodes()) {
            if (cache.systemImageGuid(node) == before) {
                cache.systemImageGuid(node, after);
                found = true;
            }
        }
        return found;
    }

    /** ibcacheedit's {@code replace_portguid}: on a switch its node GUID, on another node the first of ports 1..N with that GUID. */
    private static void replacePortGuid(CacheRecords cache, long nodeGuid, long before, long after) {
        boolean nodeFound = false;
        boolean found = false;
        for (int node : cache.nodes()) {
            if (cache.guid(node) != nodeGuid) {
                continue;
            }
            nodeFound = true;
            if (cache.type(node) == CacheRecords.SWITCH) {
                if (cache.guid(node) == before) {
                    rename(cache, node, after);
                    found = true;
                }
            } else {
                Map<Integer, Integer> keys = cache.portKeys(node);
                for (int number : keys.keySet().stream().filter(n -> n >= 1).sorted().toList()) {
                    if (cache.keyGuid(keys.get(number)) == before) {
                        cache.portGuid(keys.get(number), after);
                        found = true;
                        break;
                    }
                }
            }
        }
        if (!nodeFound) {
            throw DiagError.exit(String.format("nodeguid = %x not found", nodeGuid));
        }
        if (!found) {
            throw DiagError.exit(String.format("portguid = %x not found", before));
        }
    }
}
