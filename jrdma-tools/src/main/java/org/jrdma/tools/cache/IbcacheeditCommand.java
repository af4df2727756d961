package org.jrdma.tools.cache;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.jrdma.iba.Guid;
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
 *
 * <p>With {@code --json}, once the new cache is written, a {@link Document} says what changed.
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

    /**
     * ibcacheedit's JSON document: the edits made, in the order applied.
     *
     * @param original the cache read
     * @param written  the cache written
     * @param edits    one per option given (its last occurrence, as the C tool applies it)
     */
    public record Document(String original, String written, List<Edit> edits) {
    }

    /**
     * One edit.
     *
     * @param option   {@code switchguid}, {@code caguid}, {@code sysimgguid} or {@code portguid}
     * @param nodeGuid for {@code portguid}, the node whose port it is
     * @param before   the GUID replaced
     * @param after    the GUID written instead
     * @param nodes    how many node records changed (every node with that GUID, or system image GUID)
     * @param port     for {@code portguid} on a channel adapter or router, the port number changed
     *                 (a switch's port GUID is its node GUID: the switch is renamed, no port given)
     */
    public record Edit(String option, Guid nodeGuid, Guid before, Guid after, int nodes, Integer port) {
    }

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
        List<Edit> edits = new ArrayList<>();
        if (switchEdit != null) {
            int nodes = replaceNodeGuid(cache, CacheRecords.SWITCH, switchEdit[0], switchEdit[1]);
            if (nodes == 0) {
                throw DiagError.exit(String.format("switchguid = %x not found", switchEdit[0]));
            }
            edits.add(new Edit("switchguid", null, new Guid(switchEdit[0]), new Guid(switchEdit[1]), nodes, null));
        }
        if (caEdit != null) {
            int nodes = replaceNodeGuid(cache, CacheRecords.CHANNEL_ADAPTER, caEdit[0], caEdit[1]);
            if (nodes == 0) {
                throw DiagError.exit(String.format("caguid = %x not found", caEdit[0]));
            }
            edits.add(new Edit("caguid", null, new Guid(caEdit[0]), new Guid(caEdit[1]), nodes, null));
        }
        if (sysimgEdit != null) {
            int nodes = replaceSystemImageGuid(cache, sysimgEdit[0], sysimgEdit[1]);
            if (nodes == 0) {
                throw DiagError.exit(String.format("sysimgguid = %x not found", sysimgEdit[0]));
            }
            edits.add(new Edit("sysimgguid", null, new Guid(sysimgEdit[0]), new Guid(sysimgEdit[1]), nodes, null));
        }
        if (portEdit != null) {
            edits.add(replacePortGuid(cache, portEdit[0], portEdit[1], portEdit[2]));
        }
        try {
            Files.write(Path.of(files.get(1)), cache.bytes());
        } catch (IOException e) {
            throw DiagError.exit("caching new cache data failed", e);
        }
        return jsonRequested() ? jsonDocument(new Document(files.get(0), files.get(1), edits), ExitCodes.OK) : ExitCodes.OK;
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

    /** ibcacheedit's {@code replace_node_guid} over the nodes of one type; a switch's ports take its new GUID. How many nodes changed. */
    private static int replaceNodeGuid(CacheRecords cache, int type, long before, long after) {
        int found = 0;
        for (int node : cache.nodes()) {
            if (cache.type(node) == type && cache.guid(node) == before) {
                rename(cache, node, after);
                found++;
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

    /** Every NodeInfo SystemImageGUID equal to {@code before} set to {@code after}; how many nodes changed. */
    private static int replaceSystemImageGuid(CacheRecords cache, long before, long after) {
        int found = 0;
        for (int node : cache.nodes()) {
            if (cache.systemImageGuid(node) == before) {
                cache.systemImageGuid(node, after);
                found++;
            }
        }
        return found;
    }

    /** ibcacheedit's {@code replace_portguid}: on a switch its node GUID, on another node the first of ports 1..N with that GUID; the edit made. */
    private static Edit replacePortGuid(CacheRecords cache, long nodeGuid, long before, long after) {
        boolean nodeFound = false;
        int found = 0;
        Integer port = null;
        for (int node : cache.nodes()) {
            if (cache.guid(node) != nodeGuid) {
                continue;
            }
            nodeFound = true;
            if (cache.type(node) == CacheRecords.SWITCH) {
                if (cache.guid(node) == before) {
                    rename(cache, node, after);
                    found++;
                }
            } else {
                Map<Integer, Integer> keys = cache.portKeys(node);
                for (int number : keys.keySet().stream().filter(n -> n >= 1).sorted().toList()) {
                    if (cache.keyGuid(keys.get(number)) == before) {
                        cache.portGuid(keys.get(number), after);
                        found++;
                        port = number;
                        break;
                    }
                }
            }
        }
        if (!nodeFound) {
            throw DiagError.exit(String.format("nodeguid = %x not found", nodeGuid));
        }
        if (found == 0) {
            throw DiagError.exit(String.format("portguid = %x not found", before));
        }
        return new Edit("portguid", new Guid(nodeGuid), new Guid(before), new Guid(after), found, port);
    }
}
