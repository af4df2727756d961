package org.jrdma.tools.scripts;

import java.util.ArrayList;
import java.util.List;
import org.jrdma.tools.DiscoversSubnet;
import picocli.CommandLine.Command;

/**
 * infiniband-diags' deprecated {@code ibdatacounters}: a shell script that reads the subnet's
 * topology ({@code ibnetdiscover}, or a topology file) and runs {@code ibdatacounts} on each node:
 * every switch first checked with {@code ibchecknode} (a NodeInfo SubnGet) and its ports at once
 * (port 255), port by port only if that failed; every channel adapter and router port checked and
 * shown one by one. A node whose check fails is counted bad. Then, on standard output, the
 * deprecation warning and {@code ## Summary: N nodes checked, B bad nodes found} and the number of
 * ports seen. The status is that of the topology's reading; {@code -v} announces each node,
 * {@code -b} and {@code -N} go to ibdatacounts, a bad argument prints the usage line, status 255.
 *
 * <p>With {@code --json}: {@link Document}, the summary, each port check and each node that failed.
 */
@Command(name = "ibdatacounters", description = "Show the data counters of every port of the subnet (deprecated: ibqueryerrors --counters).")
public final class IbdatacountersCommand extends ScriptCommand implements DiscoversSubnet {
    /**
     * ibdatacounters' JSON document.
     *
     * @param nodes       the nodes checked (the summary's {@code N nodes checked})
     * @param badNodes    those that failed their NodeInfo check ({@code B bad nodes found})
     * @param ports       the ports of the topology ({@code P ports checked})
     * @param checks      each port's (or a switch's all ports') data counters, in order
     * @param failedNodes the nodes that failed their NodeInfo check
     */
    public record Document(int nodes, int badNodes, int ports, List<IbdatacountsCommand.PortData> checks, List<FailedNode> failedNodes) {
    }

    /**
     * A node that did not answer its NodeInfo check ({@code ibchecknode}).
     *
     * @param nodeType {@code Ca}, {@code Switch} or {@code Rt}, as the topology writes it
     * @param nodeGuid its GUID
     * @param lid      the LID checked
     */
    public record FailedNode(String nodeType, String nodeGuid, String lid) {
    }

    @Override
    protected int run() {
        List<String> caInfo = new ArrayList<>();
        boolean mono = false;
        boolean verbose = false;
        boolean brief = false;
        String topologyFile = null;
        for (int i = 0; i < args.size() && !args.get(i).isEmpty(); i++) {
            String arg = args.get(i);
            switch (arg) {
                case "-h" -> {
                    return usage();
                }
                case "-N", "-nocolor" -> mono = true;
                case "-v" -> {
                    verbose = true;
                    brief = false;
                }
                case "-b" -> {
                    brief = true;
                    verbose = false;
                }
                case "-P", "-C", "-t", "-timeout" -> {
                    String value = i + 1 < args.size() ? args.get(i + 1) : "";
                    if (value.startsWith("-") || value.isEmpty()) {
                        return usage();
                    }
                    caInfo.addAll(List.of(arg, value));
                    i++;
                }
                default -> {
                    if (arg.startsWith("-") || topologyFile != null) {
                        return usage();
                    }
                    topologyFile = arg;
                }
            }
        }
        ToolOutput topology = ScriptTopology.read(topologyFile, err(), () -> backticks("ibnetdiscover", caInfo));
        int status = topology.status();
        String text = topology.text();
        List<String> datacountsOptions = new ArrayList<>(List.of("-S"));
        datacountsOptions.addAll(caInfo);
        if (mono) {
            datacountsOptions.add("-N");
        }
        if (verbose) {
            datacountsOptions.add("-v");
        }
        if (brief) {
            datacountsOptions.add("-b");
        }
        Walk walk = new Walk(caInfo, mono, verbose, datacountsOptions);
        for (String line : Shell.lines(text)) {
            walk.line(line);
        }
        out().print("*** WARNING ***: this command is deprecated; Please use \"ibqueryerrors --counters\n");
        out().print("\n## Summary: " + walk.nodes + " nodes checked, " + walk.bad + " bad nodes found\n");
        out().print("##          " + walk.ports + " ports checked\n");
        document(new Document(walk.nodes, walk.bad, walk.ports, walk.checks, walk.failedNodes));
        return status;
    }

    /** The script's awk program over the topology, its variables kept from line to line. */
    private final class Walk {
        private final List<String> caInfo;
        private final boolean mono;
        private final boolean verbose;
        private final List<String> datacountsOptions;
        int nodes;
        int ports;
        int bad;
        final List<IbdatacountsCommand.PortData> checks = new ArrayList<>();
        final List<FailedNode> failedNodes = new ArrayList<>();
        private String nodeType = "";
        private String nodeGuid = "";
        private String lid = "";
        private boolean failed;

        Walk(List<String> caInfo, boolean mono, boolean verbose, List<String> datacountsOptions) {
            this.caInfo = caInfo;
            this.mono = mono;
            this.verbose = verbose;
            this.datacountsOptions = datacountsOptions;
        }

        void line(String line) {
            String[] fields = line.trim().split("[ \t]+");
            if (line.startsWith("Ca") || line.startsWith("Switch") || line.startsWith("Rt")) {
                nodes++;
                nodeType = fields[0];
                String guid = fields.length > 2 ? fields[2] : "";
                nodeGuid = guid.length() > 3 ? guid.substring(3, Math.min(guid.length(), 19)) : "";
                if (verbose) {
                    out().print("\n# Checking " + nodeType + ": nodeguid 0x" + nodeGuid + "\n");
                }
                failed = false;
                if (!nodeType.equals("Switch")) {
                    return;
                }
                lid = ClearCommand.lidAfter(line, "port 0 lid ");
                failed = check(lid, "255");
            }
            if (line.startsWith("[")) {
                ports++;
                String port = fields[0].replaceFirst("\\(.*\\)", "").replaceAll("[\\[\\]]", "");
                if (!nodeType.equals("Switch")) {
                    lid = ClearCommand.lidAfter(line, " lid ");
                    check(lid, port);
                } else if (failed) {
                    datacounts(lid, port);
                }
            }
            if (line.startsWith("ib")) {
                out().print(line + "\n");
                return;
            }
            for (String mark : List.of("ibpanic:", "ibwarn:", "iberror:")) {
                if (line.contains(mark)) {
                    out().print(line + "\n");
                }
            }
        }

        /** The script's {@code check_node}: ibchecknode, then ibdatacounts if the node answered; whether either failed. */
        private boolean check(String nodeLid, String port) {
            if (IbdatacountsCommand.checknode(IbdatacountersCommand.this, caInfo, mono, verbose, nodeLid) != 0) {
                bad++;
                failedNodes.add(new FailedNode(nodeType, "0x" + nodeGuid, nodeLid));
                out().print("\n# " + nodeType + ": nodeguid 0x" + nodeGuid + " failed\n");
                return true;
            }
            return datacounts(nodeLid, port) != 0;
        }

        private int datacounts(String nodeLid, String port) {
            List<String> line = new ArrayList<>(datacountsOptions);
            line.addAll(Shell.words(List.of(nodeLid, port)));
            return IbdatacountsCommand.datacounts(IbdatacountersCommand.this, "ibdatacounts", line, checks);
        }
    }

    private int usage() {
        out().print("Usage: " + prog() + " [-h] [-b] [-v] [-N | -nocolor] [<topology-file> \\| -C ca_name -P ca_port -t(imeout) timeout_ms]\n");
        return 255;
    }
}
