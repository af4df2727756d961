package org.jrdma.subnet;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.function.Predicate;
import java.util.function.Supplier;
import org.jrdma.RdmaException;
import org.jrdma.iba.Guid;
import org.jrdma.iba.NodeType;
import org.jrdma.iba.PhysPortState;
import org.jrdma.iba.smp.SmpNodeInfo;
import org.jrdma.iba.smp.SmpPortInfo;
import org.jrdma.iba.smp.SmpSwitchInfo;
import org.jrdma.mad.MadSchedule;
import org.jrdma.mad.SmpTarget;

/**
 * The breadth-first walk every discovery shares: from the start node, follow every port whose
 * physical link is up (every port of a switch, and the start node's own ports), level by level;
 * how a port's neighbor is found and how a node is read is the {@link Explorer}'s business (SMPs
 * by directed route or LID, or SA records).
 *
 * <p>The probes of one level, and then the reads of the new nodes, run in parallel on a
 * {@link MadSchedule}, so the engine's {@code maxOutstanding} bounds the MADs in flight; the order
 * nodes are recorded in is nevertheless fixed (by level, then by the discovering node's order and
 * port number), so the result does not depend on the order replies arrive in. A port whose
 * neighbor cannot be read, by its probe or by the reads after it (a link that went down between
 * them), is recorded as unlinked and listed in the problems.
 */
final class Exploration {
    /**
     * What a probe out of {@code from} found: the neighbor's NodeInfo, its description when the
     * probe read it already (null otherwise), where to read the rest, and the port the link arrives at.
     */
    record Probe(Port from, SmpTarget target, SmpNodeInfo info, String description, int arrivalPort) {
    }

    /** How one kind of discovery finds and reads nodes. */
    interface Explorer {
        /** The node to start from, read in full. */
        Node start(MadSchedule sched);

        /**
         * The other end of {@code from}'s link, or null when the port has none.
         *
         * @throws RdmaException when the neighbor cannot be read (recorded as a problem)
         */
        Probe probe(Port from);

        /** The attributes of the node {@code probe} found that it did not read: description, SwitchInfo, PortInfo. */
        NodeAttributes attributes();
    }

    /** A node's attributes beyond NodeInfo, read at a target. */
    interface NodeAttributes {
        String description(SmpTarget target);

        SmpSwitchInfo switchInfo(SmpTarget target);

        /** PortInfo of port {@code port}, or null when the source has none for it. */
        SmpPortInfo portInfo(SmpTarget target, int port);
    }

    private final Explorer explorer;
    private final AttributeSource source;
    private final int window;
    private final List<String> problems = new ArrayList<>();

    /** A probe's result: what it found (null for no link), or why it failed. */
    private record Outcome(Probe probe, String problem) {
    }

    /** A new node's read: the node, or why it could not be read. */
    private record Read(Node node, String problem) {
    }

    private Exploration(Explorer explorer, AttributeSource source) {
        this.explorer = explorer;
        this.source = source;
        this.window = source.window();
    }

    /** Explores the whole subnet; {@code source} reads attributes on demand later. */
    static SubnetDiscovery run(Explorer explorer, AttributeSource source) {
        return run(explorer, source, Integer.MAX_VALUE, node -> false);
    }

    /**
     * Explores at most {@code hops} levels beyond the start node, and no further than the first
     * level holding a node that satisfies {@code goal} (the start node counting as level 0).
     */
    static SubnetDiscovery run(Explorer explorer, AttributeSource source, int hops, Predicate<Node> goal) {
        Exploration e = new Exploration(explorer, source);
        try (MadSchedule sched = new MadSchedule(e.window)) {
            Subnet subnet = new Subnet(explorer.start(sched), source);
            List<Node> level = List.of(subnet.from());
            for (int hop = 0; hop < hops && !level.isEmpty() && level.stream().noneMatch(goal); hop++) {
                level = e.explore(sched, subnet, level);
            }
            return new SubnetDiscovery(subnet, e.problems);
        }
    }

    /** Probes every live port of a level's nodes and returns the new nodes, read in full. */
    private List<Node> explore(MadSchedule sched, Subnet subnet, List<Node> level) {
        List<MadSchedule.Task<Outcome>> probes = new ArrayList<>();
        for (Node node : level) {
            for (Port port : exits(subnet, node)) {
                probes.add(sched.queue(() -> probeOrProblem(port)));
            }
        }
        List<Probe> found = new ArrayList<>();
        List<MadSchedule.Task<Read>> reads = new ArrayList<>();
        Set<Guid> fresh = new HashSet<>();
        for (MadSchedule.Task<Outcome> task : probes) {
            Outcome outcome = task.join();
            Probe p = outcome.probe();
            if (outcome.problem() != null) {
                problems.add(outcome.problem());
            }
            if (p == null) {
                continue;
            }
            found.add(p);
            Guid guid = p.info().nodeGuid();
            if (!subnet.contains(guid) && fresh.add(guid)) {
                reads.add(sched.queue(() -> readOrProblem(sched, p)));
            }
        }
        List<Node> next = new ArrayList<>();
        for (MadSchedule.Task<Read> task : reads) {
            Read r = task.join();
            if (r.problem() != null) {
                problems.add(r.problem());
                continue;
            }
            subnet.add(r.node());
            next.add(r.node());
        }
        for (Probe p : found) {
            Node node = subnet.get(p.info().nodeGuid());
            if (node == null) {
                continue; // answered NodeInfo, then not the reads: a problem already, left out
            }
            Port arrival = node.port(p.arrivalPort());
            if (arrival != null && p.from().remote() == null && arrival.remote() == null) {
                p.from().linkTo(arrival);
            }
        }
        return next;
    }

    private Outcome probeOrProblem(Port from) {
        try {
            return new Outcome(explorer.probe(from), null);
        } catch (RdmaException e) {
            return new Outcome(null, from + ": " + e.getMessage());
        }
    }

    /** The ports to follow out of a node: every live physical port of a switch; a CA only from its own port when it is the start. */
    private static List<Port> exits(Subnet subnet, Node node) {
        List<Port> out = new ArrayList<>();
        if (!node.isSwitch() && node != subnet.from()) {
            return out;
        }
        for (Port p : node.ports()) {
            if (p.number() > 0 && p.remote() == null && p.rawInfo().portPhysicalState() == PhysPortState.LINK_UP.value()) {
                out.add(p);
            }
        }
        return out;
    }

    private Read readOrProblem(MadSchedule sched, Probe p) {
        try {
            return new Read(read(sched, p), null);
        } catch (RdmaException e) {
            return new Read(null, p.from() + ": node " + p.info().nodeGuid().toHexString() + " answered NodeInfo at " + p.target()
                    + " but not the reads after it: " + e.getMessage());
        }
    }

    private Node read(MadSchedule sched, Probe p) {
        boolean isSwitch = p.info().nodeType() == NodeType.SWITCH.value();
        return read(sched, explorer.attributes(), p.target(), p.info(), p.description(), isSwitch ? null : List.of(p.arrivalPort()));
    }

    /**
     * Reads a node's description (unless known), SwitchInfo and PortInfo in parallel: of every
     * port of a switch, of {@code caPorts} otherwise.
     */
    static Node read(MadSchedule sched, NodeAttributes attributes, SmpTarget target, SmpNodeInfo info, String description,
            List<Integer> caPorts) {
        boolean isSwitch = info.nodeType() == NodeType.SWITCH.value();
        Attempt<String> text = description != null ? null : Attempt.queue(sched, () -> attributes.description(target));
        Attempt<SmpSwitchInfo> switchInfo = isSwitch ? Attempt.queue(sched, () -> attributes.switchInfo(target)) : null;
        List<Integer> numbers = new ArrayList<>();
        if (isSwitch) {
            for (int p = 0; p <= info.numPorts(); p++) {
                numbers.add(p);
            }
        } else {
            numbers.addAll(caPorts);
        }
        List<Attempt<SmpPortInfo>> portInfos = new ArrayList<>();
        for (int p : numbers) {
            portInfos.add(Attempt.queue(sched, () -> attributes.portInfo(target, p)));
        }
        List<Attempt<?>> all = new ArrayList<>(portInfos);
        if (text != null) {
            all.add(text);
        }
        if (switchInfo != null) {
            all.add(switchInfo);
        }
        RdmaException failure = null;
        for (Attempt<?> attempt : all) {
            RdmaException e = attempt.failure();
            if (e != null && failure == null) {
                failure = e;
            } else if (e != null) {
                failure.addSuppressed(e);
            }
        }
        if (failure != null) {
            throw failure;
        }
        Node node = new Node(info, text == null ? description : text.value(), target, switchInfo == null ? null : switchInfo.value());
        for (int i = 0; i < numbers.size(); i++) {
            SmpPortInfo pi = portInfos.get(i).value();
            if (pi != null) {
                // NodeInfo carries the GUID of the port it was read through: a switch's shared port GUID, or the CA port's.
                node.addPort(new Port(node, numbers.get(i), info.portGuid(), pi));
            }
        }
        return node;
    }

    /**
     * One attribute read running on the schedule. It ends in a value or in a failure kept as its
     * result, rather than failing the whole schedule, so that the node's reader decides what a
     * failure means: a problem for a neighbor, the end of the discovery for the start node.
     */
    private record Attempt<T>(MadSchedule.Task<Result<T>> task) {
        private record Result<T>(T value, RdmaException failure) {
        }

        static <T> Attempt<T> queue(MadSchedule sched, Supplier<T> read) {
            return new Attempt<>(sched.queue(() -> {
                try {
                    return new Result<>(read.get(), null);
                } catch (RdmaException e) {
                    return new Result<T>(null, e);
                }
            }));
        }

        T value() {
            return task.join().value();
        }

        RdmaException failure() {
            return task.join().failure();
        }
    }
}
