package org.jrdma.bench;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Predicate;
import java.util.function.Supplier;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.jrdma.RdmaException;
import org.jrdma.mad.MadEngine;
import org.jrdma.mad.MadTransactor;
import org.jrdma.mad.SmpClient;
import org.jrdma.mad.sim.IbsimTransport;
import org.jrdma.subnet.Node;
import org.jrdma.subnet.Port;
import org.jrdma.subnet.Subnet;
import org.jrdma.subnet.SubnetDiscovery;
import org.jrdma.testkit.fabric.Fabric;
import org.jrdma.testkit.fabric.ToolResult;
import org.jrdma.testkit.fabric.Topology;

/**
 * Fabric discovery under MAD loss, jrdma against infiniband-diags: on a simulated fat tree brought
 * up by OpenSM (which then sweeps no more, {@link Fabric.Options#withSweepSeconds}, so that the SA's
 * records and the routes stay those of the fault-free fabric: what is measured is the discovery,
 * not OpenSM under loss), every port of every node (a switch's management port 0 included) is made to drop a
 * share of the MADs reaching it (ibsim's {@code Error}, through {@link Fabric#error}), and the
 * fabric is discovered by jrdma's directed-route SMPs ({@link SubnetDiscovery#run}), from the SA's
 * records ({@link SubnetDiscovery#fromSa}) and by LID-routed SMPs ({@link SubnetDiscovery#refreshByLid}
 * of the fault-free model), and by C {@code ibnetdiscover}, all with the same timeout per MAD and the
 * same three resends (libibmad's default). Each result is compared with the fault-free topology:
 * nodes and links found, links found that are not in it (wrong), the problems jrdma reported, and
 * the missing links that no problem names (a missing link counts as named when a problem names the
 * port at a found end of it, or when neither end was found, a node left out behind a named port).
 *
 * <p>Usage: {@code FaultsComparison [spines leaves hostsPerLeaf [rate...]]}, by default the fat tree
 * of 32 spines and 64 leaves of 32 HCAs (2,144 nodes) at 1, 10 and 30 %; run through
 * {@code bin/bench-faults}.
 */
public final class FaultsComparison {
    /** The wait for each answer, jrdma's and C's ({@code ibnetdiscover -t}). */
    static final Duration TIMEOUT = Duration.ofMillis(100);
    /** Resends of an unanswered MAD: libibmad's default, which ibnetdiscover cannot change. */
    static final int RETRIES = 3;
    /** Resends for a second directed-route run: what retries buy under loss. */
    static final int PATIENT_RETRIES = 15;
    private static final int OUTSTANDING = 16;
    private static final Pattern C_NODE = Pattern.compile("^(?:switchguid|caguid|rtguid)=0x([0-9a-f]+)");
    private static final Pattern C_LINK = Pattern.compile("^\\[(\\d+)\\](?:\\([0-9a-f]+\\))?\\s+\"[SHR]-([0-9a-f]+)\"\\[(\\d+)\\]");

    private FaultsComparison() {
    }

    /** Nodes (GUIDs) and links (both ends, GUID:port, in one order) of a topology, to compare two. */
    record Shape(Set<Long> nodes, Set<String> links) {
        static Shape of(Subnet subnet) {
            Set<Long> nodes = new HashSet<>();
            Set<String> links = new HashSet<>();
            for (Node node : subnet.nodes()) {
                nodes.add(node.guid().value());
                for (Port port : node.ports()) {
                    if (port.remote() != null) {
                        links.add(link(node.guid().value(), port.number(), port.remote().node().guid().value(), port.remote().number()));
                    }
                }
            }
            return new Shape(nodes, links);
        }

        /** The nodes and links of {@code ibnetdiscover}'s output. */
        static Shape of(String ibnetdiscover) {
            Set<Long> nodes = new HashSet<>();
            Set<String> links = new HashSet<>();
            long node = 0;
            for (String line : ibnetdiscover.lines().toList()) {
                Matcher n = C_NODE.matcher(line);
                Matcher l = C_LINK.matcher(line);
                if (n.find()) {
                    node = Long.parseUnsignedLong(n.group(1), 16);
                    nodes.add(node);
                } else if (l.find()) {
                    links.add(link(node, Integer.parseInt(l.group(1)), Long.parseUnsignedLong(l.group(2), 16), Integer.parseInt(l.group(3))));
                }
            }
            return new Shape(nodes, links);
        }

        private static String link(long a, int pa, long b, int pb) {
            String x = Long.toHexString(a) + ":" + pa;
            String y = Long.toHexString(b) + ":" + pb;
            return x.compareTo(y) < 0 ? x + "-" + y : y + "-" + x;
        }
    }

    /**
     * One discovery under loss against the fault-free shape: what it found, the problems it
     * reported (for C, its standard error's lines), the missing links no problem names (-1 for C,
     * whose messages name no port), the links it found that are not in the fabric, its time, and
     * why it failed as a whole (null when it returned a model).
     */
    record Outcome(String method, int rate, int nodes, int nodesExpected, int links, int linksExpected, int problems, int unnamed,
            int wrong, long millis, String failure) {
        boolean complete() {
            return failure == null && nodes == nodesExpected && links == linksExpected && wrong == 0;
        }

        /** Complete, or every missing link named and nothing wrong. */
        boolean exactOrNamed() {
            return failure == null && wrong == 0 && unnamed == 0;
        }

        String row() {
            return String.format("%5d %%  %-26s %11s %11s %8s %9s %6d %9.1f%s", rate, method, nodes + "/" + nodesExpected,
                    links + "/" + linksExpected, problems, unnamed < 0 ? "-" : Integer.toString(unnamed), wrong, millis / 1e3,
                    failure == null ? "" : "  FAILED: " + failure);
        }
    }

    static final String HEADER = String.format("%7s  %-26s %11s %11s %8s %9s %6s %9s", "drop", "method", "nodes", "links",
            "problems", "unnamed", "wrong", "time s");

    public static void main(String[] args) {
        Topology topology = args.length >= 3
                ? Topology.fatTree(Integer.parseInt(args[0]), Integer.parseInt(args[1]), Integer.parseInt(args[2]))
                : Topology.fatTree(32, 64, 32);
        List<Integer> rates = args.length > 3 ? List.of(args).subList(3, args.length).stream().map(Integer::parseInt).toList()
                : List.of(1, 10, 30);
        System.out.printf("fabric: %s: %d nodes (%d switches), OpenSM up, no periodic sweep; every port drops the given share of the MADs reaching it;"
                + " timeout %d ms, %d resends, %d MADs outstanding (ibnetdiscover: -t %d, its own 2)%n", topology.source(),
                topology.nodes().size(), topology.nodes(Topology.NodeType.SWITCH).size(), TIMEOUT.toMillis(), RETRIES, OUTSTANDING,
                TIMEOUT.toMillis());
        try (Fabric fabric = Fabric.start(topology, Fabric.Options.defaults().withTimes(Duration.ofMinutes(5), Duration.ofHours(2)).withSweepSeconds(0))) {
            Baseline baseline = Baseline.of(fabric);
            System.out.println(HEADER);
            for (int rate : rates) {
                long start = System.nanoTime();
                dropEverywhere(fabric, rate);
                System.out.printf("# %d %% set on every port in %.1f s%n", rate, (System.nanoTime() - start) / 1e9);
                for (Outcome o : all(fabric, baseline, rate)) {
                    System.out.println(o.row());
                }
            }
            dropEverywhere(fabric, 0);
        }
    }

    /** The fault-free model (directed route, with the SM's LIDs) and shape, checked against the SA's and C's. */
    record Baseline(Subnet subnet, Shape shape) {
        static Baseline of(Fabric fabric) {
            try (MadEngine engine = engine(fabric)) {
                SubnetDiscovery dr = SubnetDiscovery.run(smp(engine));
                if (!dr.problems().isEmpty()) {
                    throw new IllegalStateException("fault-free discovery had problems: " + dr.problems());
                }
                Baseline b = new Baseline(dr.subnet(), Shape.of(dr.subnet()));
                if (!b.shape.equals(Shape.of(SubnetDiscovery.fromSa(sa(engine)).subnet()))) {
                    throw new IllegalStateException("the SA's records and directed-route discovery disagree without faults");
                }
                ToolResult c = fabric.runAt(origin(fabric), Duration.ofMinutes(5), List.of("ibnetdiscover")).orThrow();
                if (!b.shape.equals(Shape.of(c.stdout()))) {
                    throw new IllegalStateException("ibnetdiscover and directed-route discovery disagree without faults");
                }
                return b;
            }
        }
    }

    /** Every jrdma discovery and C's, under the loss the fabric has now. */
    static List<Outcome> all(Fabric fabric, Baseline baseline, int rate) {
        List<Outcome> out = new ArrayList<>();
        try (MadEngine engine = engine(fabric)) {
            SmpClient smp = smp(engine);
            out.add(jrdma("directed route", rate, baseline.shape(), () -> SubnetDiscovery.run(smp)));
            SmpClient patient = smp(engine, PATIENT_RETRIES);
            out.add(jrdma("directed route, " + PATIENT_RETRIES + " resends", rate, baseline.shape(), () -> SubnetDiscovery.run(patient)));
            out.add(jrdma("SA records", rate, baseline.shape(), () -> SubnetDiscovery.fromSa(sa(engine))));
            out.add(jrdma("LID routed", rate, baseline.shape(), () -> SubnetDiscovery.refreshByLid(smp, baseline.subnet())));
        }
        out.add(c(fabric, rate, baseline.shape()));
        return out;
    }

    /** Sets {@code rate} on every port of every node, a switch's port 0 included. */
    static void dropEverywhere(Fabric fabric, int rate) {
        for (Topology.Node node : fabric.topology().nodes()) {
            for (int port = node.type() == Topology.NodeType.SWITCH ? 0 : 1; port <= node.ports(); port++) {
                fabric.error(node.name(), port, rate);
            }
        }
    }

    private static Outcome jrdma(String method, int rate, Shape expected, Supplier<SubnetDiscovery> discovery) {
        long start = System.nanoTime();
        try {
            SubnetDiscovery d = discovery.get();
            long millis = (System.nanoTime() - start) / 1_000_000;
            Shape found = Shape.of(d.subnet());
            int unnamed = unnamed(expected, found, d.subnet(), d.problems());
            return outcome(method, rate, expected, found, d.problems().size(), unnamed, millis, null);
        } catch (RdmaException | IllegalStateException e) {
            long millis = (System.nanoTime() - start) / 1_000_000;
            return new Outcome(method, rate, 0, expected.nodes().size(), 0, expected.links().size(), 1, 0, 0, millis,
                    e.getClass().getSimpleName() + ": " + e.getMessage());
        }
    }

    private static Outcome c(Fabric fabric, int rate, Shape expected) {
        long start = System.nanoTime();
        ToolResult r = fabric.runAt(origin(fabric), Duration.ofMinutes(30), List.of("ibnetdiscover", "-t", Long.toString(TIMEOUT.toMillis())));
        long millis = (System.nanoTime() - start) / 1_000_000;
        int warnings = (int) r.stderr().lines().filter(l -> !l.isBlank()).count();
        return outcome("C ibnetdiscover", rate, expected, Shape.of(r.stdout()), warnings, -1, millis,
                r.exitCode() == 0 ? null : "exit " + r.exitCode() + ": " + r.stderr().lines().reduce((a, b) -> b).orElse(""));
    }

    private static Outcome outcome(String method, int rate, Shape expected, Shape found, int problems, int unnamed, long millis,
            String failure) {
        Set<String> wrong = new HashSet<>(found.links());
        wrong.removeAll(expected.links());
        Set<Long> strangers = new HashSet<>(found.nodes());
        strangers.removeAll(expected.nodes());
        return new Outcome(method, rate, found.nodes().size(), expected.nodes().size(), found.links().size(), expected.links().size(),
                problems, unnamed, wrong.size() + strangers.size(), millis, failure);
    }

    /**
     * The fault-free links missing from {@code found} that no problem accounts for: a link with a
     * found end whose port no problem names ("{@code <description> port <n>: ...}").
     */
    static int unnamed(Shape expected, Shape found, Subnet subnet, List<String> problems) {
        Set<String> named = new HashSet<>();
        for (String p : problems) {
            int colon = p.indexOf(": ");
            if (colon > 0) {
                named.add(p.substring(0, colon));
            }
        }
        Map<String, String> descriptions = new HashMap<>();
        subnet.nodes().forEach(n -> descriptions.put(Long.toHexString(n.guid().value()), n.description()));
        Predicate<String> namedEnd = end -> {
            String[] g = end.split(":");
            String description = descriptions.get(g[0]);
            return description != null && named.contains(description + " port " + g[1]);
        };
        int unnamed = 0;
        for (String link : expected.links()) {
            if (found.links().contains(link)) {
                continue;
            }
            String[] ends = link.split("-");
            boolean anyFound = found.nodes().contains(Long.parseUnsignedLong(ends[0].split(":")[0], 16))
                    || found.nodes().contains(Long.parseUnsignedLong(ends[1].split(":")[0], 16));
            if (anyFound && !namedEnd.test(ends[0]) && !namedEnd.test(ends[1])) {
                unnamed++;
            }
        }
        return unnamed;
    }

    /**
     * The node the discoveries run from: the topology's last channel adapter, across the fabric
     * from OpenSM's (ibsim's default node, the first), so that SA queries cross lossy links too.
     */
    static String origin(Fabric fabric) {
        return fabric.topology().nodes(Topology.NodeType.CA).getLast().name();
    }

    static MadEngine engine(Fabric fabric) {
        return new MadEngine(IbsimTransport.attach(fabric.socketName(), origin(fabric)), OUTSTANDING);
    }

    static SmpClient smp(MadEngine engine) {
        return smp(engine, RETRIES);
    }

    static SmpClient smp(MadEngine engine, int retries) {
        return new SmpClient(engine, TIMEOUT, retries, 0);
    }

    static MadTransactor sa(MadEngine engine) {
        return new MadTransactor(engine, ((IbsimTransport) engine.transport()).client().endPort()).withTimeouts(TIMEOUT, RETRIES);
    }
}
