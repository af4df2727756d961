package org.jrdma.tools.scripts;

import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import picocli.CommandLine.Command;

/**
 * infiniband-diags' {@code ibidsverify}: checks the LIDs, node GUIDs and port GUIDs of the subnet for
 * zeros and duplicates (a port GUID equal to another node's GUID included), reading the topology
 * cache ({@link TopologyCache}; {@code -R} discovers it anew). Prints one line per problem and exits
 * 1 if there was any, else 0; {@code -h} or a bad option prints the usage on standard output, status 2.
 */
@Command(name = "ibidsverify", aliases = "ibidsverify.pl",
        description = "Validate LIDs and GUIDs (check for zero and duplicates) in the local subnet.")
public final class IbidsverifyCommand extends ScriptCommand {
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

    @Override
    int run() throws Exception {
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
            out().print("LID 0 found for " + nodeType + " NodeGUID " + nodeGuid + "\n");
            returnCode = 1;
        } else if (lids.containsKey(lid)) {
            out().print("LID " + lid + " already defined for NodeGUID " + lids.get(lid) + "\n");
            returnCode = 1;
        } else {
            lids.put(lid, nodeGuid);
        }
    }

    private void insertNodeGuid(String lid, String nodeGuid, String nodeType) {
        if (isZero(nodeGuid)) {
            out().print(nodeType + " GUID 0x0 found with LID " + lid + "\n");
            returnCode = 1;
        } else if (nodeGuids.containsKey(nodeGuid)) {
            out().print("NodeGUID " + nodeGuid + " already defined for LID " + nodeGuids.get(nodeGuid) + "\n");
            returnCode = 1;
        } else {
            nodeGuids.put(nodeGuid, lid);
        }
    }

    private void insertPortGuid(String lid, String portGuid, String nodeType, String nodeGuid) {
        if (isZero(portGuid)) {
            out().print(nodeType + " GUID 0x0 found with LID " + lid + "\n");
            returnCode = 1;
        } else if (portGuids.containsKey(portGuid)) {
            out().print("PortGUID " + portGuid + " already defined for LID " + portGuids.get(portGuid) + "\n");
            returnCode = 1;
        } else {
            portGuids.put(portGuid, lid);
            if (!nodeGuid.equals(portGuid) && nodeGuids.containsKey(portGuid)) {
                out().print("PortGUID " + portGuid + " is an invalid duplicate of a NodeGUID\n");
                returnCode = 1;
            }
        }
    }
}
