package org.jrdma.tools.compat;

import java.util.ArrayList;
import java.util.List;
import org.jrdma.tools.ParallelReads;
import org.jrdma.tools.scripts.ScriptTopology;
import org.jrdma.tools.scripts.Shell;
import org.jrdma.tools.scripts.ToolOutput;

/**
 * The bodies of infiniband-diags' fabric-wide check scripts: each reads the subnet's topology
 * ({@code ibnetdiscover}, or a topology file), and its awk program runs the per-port checks
 * ({@link SingleChecks}) on every node and port of it. {@code ibcheckstate} and
 * {@code ibcheckwidth} check each node with ibchecknode (a switch at its header, a CA or router at
 * its first port) and each port of a node that answered with ibcheckportstate or ibcheckportwidth;
 * {@code ibcheckerrors} checks each switch's counters at once (ibcheckerrs on port 255) and port by
 * port only if that failed, each CA and router port one by one; {@code ibchecknet} does what
 * ibcheckerrors does and ibcheckport on every port. The scripts run their checks one after the
 * other; here the nodes' checks run at once ({@link ParallelReads}) and print in the topology's
 * order, as the script's would. As in python-rdma's ibtool, {@code --nocolor} is {@code -N},
 * {@code --up} leaves out the ports whose PhysLinkState is Polling or Disabled, and ibchecknet and
 * ibcheckerrors take ibcheckerrs' {@code -T} thresholds file.
 */
final class FabricChecks {
    /** How many nodes' checks run at once; the engine's own bound limits the MADs in flight. */
    private static final int WINDOW = 16;

    /** The fabric-wide scripts. */
    enum Kind {
        STATE("[-h] [-v] [-N | -nocolor] [<topology-file> | -C ca_name -P ca_port -t(imeout) timeout_ms]"),
        WIDTH("[-h] [-v] [-N | -nocolor] [<topology-file> \\| -C ca_name -P ca_port -t(imeout) timeout_ms]"),
        NET("[-h] [-v] [-N | -nocolor] [<topology-file> | -C ca_name -P ca_port -t(imeout) timeout_ms]"),
        ERRORS("[-h] [-b] [-v] [-N | -nocolor] [<topology-file> | -C ca_name -P ca_port -t(imeout) timeout_ms]");

        final String usage;

        Kind(String usage) {
            this.usage = usage;
        }
    }

    /**
     * What a run found, as the summary counts it.
     *
     * @param nodes         the nodes of the topology ({@code nnodes})
     * @param badNodes      those whose ibchecknode failed ({@code ne})
     * @param ports         the ports of the topology ({@code nports})
     * @param badPorts      ports whose port check failed ({@code pe}; ibcheckstate, ibcheckwidth, ibchecknet)
     * @param portsOverThreshold ports whose counters check failed ({@code pcnterr}; ibchecknet, ibcheckerrors)
     * @param status        the exit status
     */
    record Summary(int nodes, int badNodes, int ports, int badPorts, int portsOverThreshold, int status) {
    }

    /** The script's options. */
    private record Flags(List<String> caInfo, String gflags, String verbose, String brief, String thresholds, boolean v, boolean up) {
    }

    private FabricChecks() {
    }

    /** Runs the {@code kind} script as {@code prog args...}; its summary, or null after a usage message. */
    static Summary run(Kind kind, Script script, List<String> args) {
        List<String> caInfo = new ArrayList<>();
        String gflags = "";
        String verbose = "";
        String brief = "";
        String thresholds = "";
        boolean v = false;
        boolean up = false;
        String topologyFile = null;
        for (int i = 0; i < args.size() && !args.get(i).isEmpty(); i++) {
            String arg = args.get(i);
            String value = i + 1 < args.size() ? args.get(i + 1) : "";
            switch (arg) {
                case "-h" -> {
                    return usage(script, kind);
                }
                case "-N", "-nocolor", "--nocolor" -> gflags = "-N";
                case "--up" -> up = true; // python-rdma's ibtool: only the links that are not Polling or Disabled
                case "-v" -> {
                    verbose = "-v";
                    brief = "";
                    v = kind != Kind.NET; // ibchecknet sets v=0
                }
                case "-b" -> {
                    if (kind != Kind.ERRORS) {
                        return usage(script, kind);
                    }
                    brief = "-b";
                    verbose = "";
                }
                case "-T" -> {
                    // python-rdma's ibtool takes the thresholds of ibcheckerrs here too
                    if (kind != Kind.ERRORS && kind != Kind.NET || value.isEmpty()) {
                        return usage(script, kind);
                    }
                    thresholds = value;
                    i++;
                }
                case "-P", "-C", "-t", "-timeout" -> {
                    if (value.startsWith("-") || value.isEmpty()) {
                        return usage(script, kind);
                    }
                    caInfo.addAll(List.of(arg, value));
                    i++;
                }
                default -> {
                    if (arg.startsWith("-") || topologyFile != null) {
                        return usage(script, kind);
                    }
                    topologyFile = arg;
                }
            }
        }
        ToolOutput topology = ScriptTopology.read(topologyFile, script.err, () -> script.backticks("ibnetdiscover", caInfo));
        int status = topology.status();
        String text = topology.text();
        Flags flags = new Flags(caInfo, gflags, verbose, brief, thresholds, v, up);
        List<List<String>> nodes = nodes(Shell.lines(text));
        List<ParallelReads.Outcome<NodeRun>> runs = ParallelReads.of(nodes, WINDOW, lines -> {
            NodeRun run = new NodeRun(kind, flags, script.buffered());
            lines.forEach(run::line);
            return run.done();
        });
        int nnodes = 0;
        int ne = 0;
        int nports = 0;
        int pe = 0;
        int pcnterr = 0;
        String oldlid = null;
        for (ParallelReads.Outcome<NodeRun> outcome : runs) {
            NodeRun run = outcome.value();
            for (Piece piece : run.pieces) {
                piece.output.replayInto(script);
                if (piece.failedLid != null && !v && !piece.failedLid.equals(oldlid)) {
                    script.out.print("# Checked " + run.nodeType + ": nodeguid 0x" + run.nodeGuid + " with failure\n");
                    oldlid = piece.failedLid;
                }
            }
            nnodes += run.nodes;
            ne += run.badNodes;
            nports += run.ports;
            pe += run.badPorts;
            pcnterr += run.portsOverThreshold;
        }
        switch (kind) {
            case STATE, WIDTH -> {
                script.out.print("\n*** WARNING ***: this command is deprecated\n");
                script.out.print("\n## Summary: " + nnodes + " nodes checked, " + ne + " bad nodes found\n");
                script.out.print("##          " + nports + " ports checked, " + pe
                        + (kind == Kind.STATE ? " ports with bad state found\n" : " ports with 1x width in error found\n"));
            }
            case NET -> {
                script.out.print("\n*** WARNING ***: this command is deprecated; Please use \"ibqueryerrors\"");
                script.out.print("\n## Summary: " + nnodes + " nodes checked, " + ne + " bad nodes found\n");
                script.out.print("##          " + nports + " ports checked, " + pe + " bad ports found\n");
                script.out.print("##          " + pcnterr + " ports have errors beyond threshold\n");
                int awkStatus = (ne + pe + pcnterr) & 0xFF;
                status = awkStatus != 0 ? awkStatus : status;
            }
            case ERRORS -> {
                script.out.print("\n*** WARNING ***: this command is deprecated; Please use \"ibqueryerrors\"");
                script.out.print("\n## Summary: " + nnodes + " nodes checked, " + ne + " bad nodes found\n");
                script.out.print("##          " + nports + " ports checked, " + pcnterr + " ports have errors beyond threshold\n");
            }
        }
        return new Summary(nnodes, ne, nports, pe, pcnterr, status);
    }

    /** The topology's lines cut before each node's header ({@code Ca}, {@code Switch}, {@code Rt}): one list per node, the lines before the first one first. */
    private static List<List<String>> nodes(List<String> lines) {
        List<List<String>> nodes = new ArrayList<>();
        List<String> current = new ArrayList<>();
        for (String line : lines) {
            if (isHeader(line) && !current.isEmpty()) {
                nodes.add(current);
                current = new ArrayList<>();
            }
            current.add(line);
        }
        nodes.add(current);
        return nodes;
    }

    private static boolean isHeader(String line) {
        return line.startsWith("Ca") || line.startsWith("Switch") || line.startsWith("Rt");
    }

    /**
     * Part of a node's output: what its checks printed, then whether the script's
     * {@code # Checked TYPE: nodeguid 0x... with failure} line follows (printed when this failed
     * port's LID is not the one the line was last printed for, across nodes).
     *
     * @param output    what was printed
     * @param failedLid the LID of the port whose check failed, or null
     */
    private record Piece(Script output, String failedLid) {
    }

    /** The script's awk program over one node's lines, its variables reset at the node's header as the script resets them. */
    private static final class NodeRun {
        private final Kind kind;
        private final Flags flags;
        private final Script base;
        private final List<Piece> pieces = new ArrayList<>();
        private Script output;
        int nodes;
        int badNodes;
        int ports;
        int badPorts;
        int portsOverThreshold;
        String nodeType = "";
        String nodeGuid = "";
        private String lid = "";
        private boolean nodeChecked;
        private boolean badNode;
        private int err;

        NodeRun(Kind kind, Flags flags, Script base) {
            this.kind = kind;
            this.flags = flags;
            this.base = base;
            this.output = base;
        }

        void line(String line) {
            if (isHeader(line)) {
                header(line);
            }
            if (line.startsWith("[")) {
                port(line);
            }
            if (line.startsWith("ib")) {
                output.out.print(line + "\n");
                return;
            }
            for (String mark : List.of("ibpanic:", "ibwarn:", "iberror:")) {
                if (line.contains(mark)) {
                    output.out.print(line + "\n");
                }
            }
        }

        private void header(String line) {
            nodes++;
            nodeType = Shell.field(line, 1);
            String guid = Shell.field(line, 3);
            nodeGuid = guid.length() > 3 ? guid.substring(3, Math.min(guid.length(), 19)) : "";
            if (flags.v || kind == Kind.NET && !nodeType.equals("Switch")) {
                output.out.print("\n# Checking " + nodeType + ": nodeguid 0x" + nodeGuid + "\n");
            }
            nodeChecked = false;
            badNode = false;
            err = 0;
            if (!nodeType.equals("Switch")) {
                return;
            }
            lid = Shell.lidAfter(line, "port 0 lid ");
            switch (kind) {
                case STATE, WIDTH -> checkNode(lid);
                case NET, ERRORS -> err = checkNodeAndErrors(lid, "255");
            }
        }

        private void port(String line) {
            String port = Shell.field(line, 1).replaceFirst("\\(.*\\)", "").replaceAll("[\\[\\]]", "");
            if (flags.up && down(nodeType.equals("Switch") ? lid : Shell.lidAfter(line, " lid "), port)) {
                return;
            }
            ports++;
            switch (kind) {
                case STATE, WIDTH -> {
                    if (!nodeChecked) {
                        lid = Shell.lidAfter(line, " lid ");
                        checkNode(lid);
                    }
                    if (badNode) {
                        output.out.print("\n# " + nodeType + ": nodeguid 0x" + nodeGuid + " failed\n");
                        return;
                    }
                    portCheck(kind == Kind.STATE ? SingleChecks.Kind.PORTSTATE : SingleChecks.Kind.PORTWIDTH, port);
                }
                case NET, ERRORS -> {
                    if (!nodeType.equals("Switch")) {
                        lid = Shell.lidAfter(line, " lid ");
                        if (checkNodeAndErrors(lid, port) == 2) {
                            portsOverThreshold++;
                        }
                    } else if (err != 0 && errors(lid, port) != 0) {
                        portsOverThreshold++;
                    }
                    if (kind == Kind.NET) {
                        portCheck(SingleChecks.Kind.PORT, port);
                    }
                }
            }
        }

        /**
         * With {@code --up}: whether {@code smpquery portinfo} says the port's PhysLinkState is
         * Polling or Disabled, so that the port is neither checked nor counted.
         */
        private boolean down(String portLid, String port) {
            List<String> portinfo = new ArrayList<>(flags.caInfo);
            portinfo.add("portinfo");
            portinfo.addAll(Shell.words(List.of(portLid, port)));
            for (String line : Shell.lines(output.silently("smpquery", portinfo).text())) {
                if (line.startsWith("PhysLinkState")) {
                    String state = Shell.dotted(line, 2);
                    return state.equals("Polling") || state.equals("Disabled");
                }
            }
            return false;
        }

        /** ibcheckstate's and ibcheckwidth's {@code check_node}. */
        private void checkNode(String nodeLid) {
            nodeChecked = true;
            if (node(nodeLid) != 0) {
                badNodes++;
                badNode = true;
            }
        }

        /** ibchecknet's and ibcheckerrors' {@code check_node}: 1 if ibchecknode failed, 2 if ibcheckerrs did, else 0. */
        private int checkNodeAndErrors(String nodeLid, String port) {
            if (node(nodeLid) != 0) {
                badNodes++;
                output.out.print("\n# " + nodeType + ": nodeguid 0x" + nodeGuid + " failed\n");
                return 1;
            }
            return errors(nodeLid, port) != 0 ? 2 : 0;
        }

        /** A port check whose failure ends a piece of output with the {@code # Checked ... with failure} line. */
        private void portCheck(SingleChecks.Kind check, String port) {
            if (SingleChecks.run(check, output, script(check), options(List.of(flags.gflags, flags.verbose), lid, port)) != 0) {
                pieces.add(new Piece(output, lid));
                output = base.buffered();
                badPorts++;
            }
        }

        private int node(String nodeLid) {
            return SingleChecks.run(SingleChecks.Kind.NODE, output, "ibchecknode", options(List.of(flags.gflags, flags.verbose), nodeLid, null));
        }

        private int errors(String nodeLid, String port) {
            List<String> options = new ArrayList<>(List.of(flags.gflags, flags.verbose, flags.brief));
            if (!flags.thresholds.isEmpty()) {
                options.addAll(List.of("-T", flags.thresholds));
            }
            return SingleChecks.run(SingleChecks.Kind.ERRORS, output, "ibcheckerrs", options(options, nodeLid, port));
        }

        /** The words of {@code system("ibcheckX -S " ca_info " " options " " lid " " port)}. */
        private List<String> options(List<String> options, String nodeLid, String port) {
            List<String> line = new ArrayList<>(List.of("-S"));
            line.addAll(Shell.words(flags.caInfo));
            line.addAll(Shell.words(options));
            line.addAll(Shell.words(port == null ? List.of(nodeLid) : List.of(nodeLid, port)));
            return line;
        }

        private static String script(SingleChecks.Kind check) {
            return switch (check) {
                case PORT -> "ibcheckport";
                case PORTSTATE -> "ibcheckportstate";
                case PORTWIDTH -> "ibcheckportwidth";
                case NODE -> "ibchecknode";
                case ERRORS -> "ibcheckerrs";
            };
        }

        /** Ends the node's output: the last piece, after which no {@code # Checked} line is due. */
        NodeRun done() {
            pieces.add(new Piece(output, null));
            return this;
        }
    }

    private static Summary usage(Script script, Kind kind) {
        script.out.print("Usage: " + script.prog + " " + kind.usage + "\n");
        return null;
    }
}
