package org.jrdma.tools.scripts;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.jrdma.tools.DiscoversSubnet;
import picocli.CommandLine.Command;

/**
 * infiniband-diags' {@code ibidsverify}: checks the LIDs, node GUIDs and port GUIDs of the subnet for
 * zeros and duplicates (a port GUID equal to another node's GUID included), reading the topology
 * cache ({@link TopologyCache}; {@code -R} discovers it anew). Prints one line per problem and exits
 * 1 if there was any, else 0; {@code -h} or a bad option prints the usage on standard output, status 2.
 *
 * <p>With {@code --json}: {@link Document}, the same problems in the same order, and the status the same.
 */
@Command(name = "ibidsverify", aliases = "ibidsverify.pl",
        description = "Validate LIDs and GUIDs (check for zero and duplicates) in the local subnet.")
public final class IbidsverifyCommand extends ScriptCommand implements DiscoversSubnet {
    private static final Pattern CA_GUID = Pattern.compile("^(?:caguid|rtguid)=(.*)");
    private static final Pattern SWITCH_GUID = Pattern.compile("^switchguid=(.*)");
    private static final Pattern SWITCH_PORT_GUID = Pattern.compile("^switchguid=(.*)\\((.*)\\)");
    private static final Pattern SWITCH = Pattern.compile("^Switch.*\"S-(.*)\"\\s+# (.*) port.* lid (\\d+) .*");
    /** A CA or router port's line, by the kind of its peer: each that matches is a LID of the node. */
    private static final List<Pattern> PORT_LIDS = List.of(Pattern.compile("\"S-(.*)# lid (\\d+) .*"),
            Pattern.compile("^.*\"H-(.*)# lid (\\d+) .*"), Pattern.compile("^.*\"R-(.*)# lid (\\d+) .*"));
    private static final Pattern PORT_GUID = Pattern.compile("^\\[(\\d+)\\]\\((.*)\\)");

    private final Map<String, String> lids = new HashMap<>();
    private final Map<String, String> nodeGuids = new HashMap<>();
    private final Map<String, String> portGuids = new HashMap<>();
    private int returnCode;
    private final List<Problem> problems = new ArrayList<>();

    /**
     * ibidsverify's JSON document.
     *
     * @param lids      how many distinct LIDs the cache holds
     * @param nodeGuids how many distinct node GUIDs
     * @param portGuids how many distinct port GUIDs
     * @param problems  each problem, in the text's order (none: the LIDs and GUIDs are sound)
     */
    public record Document(int lids, int nodeGuids, int portGuids, List<Problem> problems) {
    }

    /**
     * A LID or GUID that is zero or defined twice.
     *
     * @param problem  {@code zeroLid}, {@code duplicateLid}, {@code zeroNodeGuid}, {@code duplicateNodeGuid},
     *                 {@code zeroPortGuid}, {@code duplicatePortGuid} or {@code portGuidIsNodeGuid}
     * @param lid      the LID, as the cache writes it
     * @param guid     the GUID (node or port), as the cache writes it
     * @param nodeType {@code switch}, {@code ca} or {@code router}
     * @param other    for a duplicate, what the value was already defined for (its node GUID, or LID)
     * @param text     the line the text prints
     */
    public record Problem(String problem, String lid, String guid, String nodeType, String other, String text) {
    }

    private void problem(String problem, String lid, String guid, String nodeType, String other, String text) {
        out().print(text + "\n");
        problems.add(new Problem(problem, lid, guid, nodeType, other, text));
        returnCode = 1;
    }

    @Override
    protected int run() throws Exception {
        Getopts opts = Getopts.parse("hRC:P:", args, err());
        if (!opts.ok() || opts.has('h')) {
            return usage();
        }
        String ca = opts.value('C', "");
        String port = opts.value('P', "");
        Path cache = TopologyCache.ensure(this, opts.has('R'), ca, port);
        String nodeType = "";
        String nodeGuid = "";
        String portGuid = "";
        String lid = "";
        boolean firstPort = false;
        for (String line : TopologyCache.lines(cache)) {
            Matcher m = CA_GUID.matcher(line);
            if (m.find()) {
                nodeGuid = m.group(1);
                nodeType = "";
            }
            if ((m = SWITCH_GUID.matcher(line)).find()) {
                nodeGuid = m.group(1);
                portGuid = "";
                nodeType = "";
            }
            if ((m = SWITCH_PORT_GUID.matcher(line)).find()) {
                nodeGuid = m.group(1);
                portGuid = "0x" + m.group(2);
            }
            if ((m = SWITCH.matcher(line)).find()) {
                nodeType = "switch";
                firstPort = true;
                lid = m.group(3);
                insertLid(lid, nodeGuid, nodeType);
                insertNodeGuid(lid, nodeGuid, nodeType);
                if (!portGuid.isEmpty()) {
                    insertPortGuid(lid, portGuid, nodeType, nodeGuid);
                }
            }
            if (line.startsWith("Ca")) {
                nodeType = "ca";
                firstPort = true;
            }
            if (line.startsWith("Rt")) {
                nodeType = "router";
                firstPort = true;
            }
            if (nodeType.equals("ca") || nodeType.equals("router")) {
                for (Pattern portLid : PORT_LIDS) {
                    if ((m = portLid.matcher(line)).find()) {
                        lid = m.group(2);
                        insertLid(lid, nodeGuid, nodeType);
                        if (firstPort) {
                            insertNodeGuid(lid, nodeGuid, nodeType);
                            firstPort = false;
                        }
                    }
                }
                if ((m = PORT_GUID.matcher(line)).find()) {
                    insertPortGuid(lid, "0x" + m.group(2), nodeType, nodeGuid);
                }
            }
        }
        document(new Document(lids.size(), nodeGuids.size(), portGuids.size(), problems));
        return returnCode;
    }

    private int usage() {
        out().print("Usage: " + prog() + " [-Rh]\n"
                + "   Validate LIDs and GUIDs (check for zero and duplicates) in the local subnet\n"
                + "   -h This help message\n"
                + "   -R Recalculate ibnetdiscover information (Default is to reuse ibnetdiscover output)\n"
                + "   -C <ca_name> use selected Channel Adaptor name for queries\n"
                + "   -P <ca_port> use selected channel adaptor port for queries\n");
        return 2;
    }

    /** The script's {@code $x eq 0}: Perl's number 0 as a string, {@code "0"}. */
    private static boolean isZero(String value) {
        return value.equals("0");
    }

    private void insertLid(String lid, String nodeGuid, String nodeType) {
        if (isZero(lid)) {
            problem("zeroLid", lid, nodeGuid, nodeType, null, "LID 0 found for " + nodeType + " NodeGUID " + nodeGuid);
        } else if (lids.containsKey(lid)) {
            problem("duplicateLid", lid, nodeGuid, nodeType, lids.get(lid), "LID " + lid + " already defined for NodeGUID " + lids.get(lid));
        } else {
            lids.put(lid, nodeGuid);
        }
    }

    private void insertNodeGuid(String lid, String nodeGuid, String nodeType) {
        if (isZero(nodeGuid)) {
            problem("zeroNodeGuid", lid, nodeGuid, nodeType, null, nodeType + " GUID 0x0 found with LID " + lid);
        } else if (nodeGuids.containsKey(nodeGuid)) {
            problem("duplicateNodeGuid", lid, nodeGuid, nodeType, nodeGuids.get(nodeGuid),
                    "NodeGUID " + nodeGuid + " already defined for LID " + nodeGuids.get(nodeGuid));
        } else {
            nodeGuids.put(nodeGuid, lid);
        }
    }

    private void insertPortGuid(String lid, String portGuid, String nodeType, String nodeGuid) {
        if (isZero(portGuid)) {
            problem("zeroPortGuid", lid, portGuid, nodeType, null, nodeType + " GUID 0x0 found with LID " + lid);
        } else if (portGuids.containsKey(portGuid)) {
            problem("duplicatePortGuid", lid, portGuid, nodeType, portGuids.get(portGuid),
                    "PortGUID " + portGuid + " already defined for LID " + portGuids.get(portGuid));
        } else {
            portGuids.put(portGuid, lid);
            if (!nodeGuid.equals(portGuid) && nodeGuids.containsKey(portGuid)) {
                problem("portGuidIsNodeGuid", lid, portGuid, nodeType, nodeGuids.get(portGuid),
                        "PortGUID " + portGuid + " is an invalid duplicate of a NodeGUID");
            }
        }
    }
}
