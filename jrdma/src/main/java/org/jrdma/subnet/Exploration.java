package org.jrdma.subnet;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BiConsumer;
import java.util.function.Consumer;
import java.util.function.Predicate;
import java.util.stream.IntStream;
import org.jrdma.RdmaException;
import org.jrdma.iba.Guid;
import org.jrdma.iba.NodeType;
import org.jrdma.iba.PhysPortState;
import org.jrdma.iba.smp.SmpNodeDescription;
import org.jrdma.iba.smp.SmpNodeInfo;
import org.jrdma.iba.smp.SmpPortInfo;
import org.jrdma.iba.smp.SmpSwitchInfo;
import org.jrdma.iba.wire.IbaStruct;
import org.jrdma.iba.wire.MadAttribute;
import org.jrdma.mad.MadSchedule;
import org.jrdma.mad.SmpClient;
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
 * them), is recorded as unlinked and listed in the problems. A node whose description and
 * SwitchInfo (and a switch's port 0, whose PortInfo holds the LID of all its ports) were read but
 * not the PortInfo of some other ports is recorded without those ports (not
 * followed, so what lies behind it is found another way or not at all), and the port is listed in
 * the problems, as is the port that found the node when its link arrives at such a port: on a
 * lossy fabric one lost PortInfo of a 65-port switch costs one port, not the switch and the
 * subtree behind it.
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
    /** The ports of recorded nodes whose PortInfo could not be read, and why: left out of their nodes. */
    private final Map<Guid, Map<Integer, RdmaException>> unreadPorts = new HashMap<>();

    /** A probe's result: what it found (null for no link), or why it failed. */
    private record Outcome(Probe probe, String problem) {
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
        List<Port> ports = new ArrayList<>();
        for (Node node : level) {
            ports.addAll(exits(subnet, node));
        }
        Outcome[] outcomes = new Outcome[ports.size()];
        List<Mad> probes = new ArrayList<>();
        DirectedRouteExplorer submitting = explorer instanceof DirectedRouteExplorer dr && dr.smp().submits() ? dr : null;
        for (int i = 0; i < ports.size(); i++) {
            int at = i;
            Port from = ports.get(at);
            probes.add(new Mad(() -> outcomes[at] = probeOrProblem(from), submitting == null ? null
                    : (done, fatal) -> submitting.probe(from, (probe, failure) -> {
                        if (failure == null) {
                            outcomes[at] = new Outcome(probe, null);
                        } else if (failure instanceof RdmaException e) {
                            outcomes[at] = new Outcome(null, from + ": " + e.getMessage());
                        } else {
                            fatal.accept(failure);
                        }
                        done.run();
                    })));
        }
        windowed(sched, probes);
        List<Probe> found = new ArrayList<>();
        List<Probe> fresh = new ArrayList<>();
        Set<Guid> freshGuids = new HashSet<>();
        for (Outcome outcome : outcomes) {
            Probe p = outcome.probe();
            if (outcome.problem() != null) {
                problems.add(outcome.problem());
            }
            if (p == null) {
                continue;
            }
            found.add(p);
            Guid guid = p.info().nodeGuid();
            if (!subnet.contains(guid) && freshGuids.add(guid)) {
                fresh.add(p);
            }
        }
        NodeAttributes attributes = explorer.attributes();
        List<NodeRead> reads = new ArrayList<>();
        for (Probe p : fresh) {
            reads.add(new NodeRead(attributes, p.target(), p.info(), p.description(), List.of(p.arrivalPort())));
        }
        readAll(sched, reads);
        List<Node> next = new ArrayList<>();
        Map<Guid, RdmaException> unread = new HashMap<>();
        for (int i = 0; i < reads.size(); i++) {
            NodeRead r = reads.get(i);
            if (r.failure() != null) {
                unread.put(fresh.get(i).info().nodeGuid(), r.failure());
                continue;
            }
            Node node = r.node();
            subnet.add(node);
            next.add(node);
            r.portFailures().forEach((port, failure) -> {
                unreadPorts.computeIfAbsent(node.guid(), g -> new HashMap<>()).put(port, failure);
                problems.add(node.description() + " port " + port + ": PortInfo not read at " + node.target() + ": " + failure.getMessage());
            });
        }
        for (Probe p : found) {
            Node node = subnet.get(p.info().nodeGuid());
            if (node == null) {
                // Answered NodeInfo, then not the reads: left out, and every port that found it loses its link.
                problems.add(p.from() + ": node " + p.info().nodeGuid().toHexString() + " answered NodeInfo at " + p.target()
                        + " but not the reads after it: " + unread.get(p.info().nodeGuid()).getMessage());
                continue;
            }
            Port arrival = node.port(p.arrivalPort());
            if (arrival != null && p.from().remote() == null && arrival.remote() == null) {
                p.from().linkTo(arrival);
            } else if (arrival == null && unreadPorts.getOrDefault(node.guid(), Map.of()).containsKey(p.arrivalPort())) {
                problems.add(p.from() + ": the link arrives at " + node + " port " + p.arrivalPort() + ", whose PortInfo was not read");
            }
        }
        return next;
    }

    /**
     * One MAD of a level's work: {@code blocking} makes it in the calling thread; {@code submitted},
     * when not null, starts it without waiting and runs {@code done} once it is over, on the
     * engine's receiver thread, handing a failure that is not the MAD's own (the engine stopped)
     * to {@code fatal} first.
     */
    private record Mad(Runnable blocking, BiConsumer<Runnable, Consumer<RuntimeException>> submitted) {
    }

    /**
     * Runs every piece of {@code work} and waits for all of it. When every piece can be
     * submitted, a window of them is started and each one's completion, run by the engine's
     * receiver thread, starts the next: no thread waits for a reply, and none is woken per MAD.
     * Otherwise the schedule's window of virtual threads each take the next piece when they have
     * done one: no thread started per MAD, and none parked on the engine's bound.
     *
     * @throws RuntimeException the first failure of the work that is not a MAD's own
     */
    private static void windowed(MadSchedule sched, List<Mad> work) {
        AtomicInteger next = new AtomicInteger();
        int window = Math.min(sched.window(), work.size());
        if (work.stream().allMatch(m -> m.submitted() != null)) {
            submitted(work, window);
            return;
        }
        List<MadSchedule.Task<Void>> threads = new ArrayList<>();
        for (int t = 0; t < window; t++) {
            threads.add(sched.queue(() -> {
                for (int i = next.getAndIncrement(); i < work.size(); i = next.getAndIncrement()) {
                    work.get(i).blocking().run();
                }
            }));
        }
        for (MadSchedule.Task<Void> t : threads) {
            t.join();
        }
    }

    /** {@link #windowed} for work that is all submitted: {@code window} pieces under way, each completion starting the next. */
    private static void submitted(List<Mad> work, int window) {
        AtomicInteger next = new AtomicInteger();
        CountDownLatch over = new CountDownLatch(work.size());
        List<RuntimeException> fatal = Collections.synchronizedList(new ArrayList<>());
        Runnable startNext = new Runnable() {
            @Override
            public void run() {
                int i = next.getAndIncrement();
                if (i >= work.size()) {
                    return;
                }
                AtomicBoolean done = new AtomicBoolean();
                Runnable finished = () -> {
                    if (done.compareAndSet(false, true)) {
                        over.countDown();
                        run();
                    }
                };
                try {
                    work.get(i).submitted().accept(finished, fatal::add);
                } catch (RuntimeException e) {
                    fatal.add(e);
                    finished.run();
                }
            }
        };
        for (int t = 0; t < window; t++) {
            startNext.run();
        }
        try {
            over.await();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new RdmaException("interrupted while discovering", e);
        }
        if (!fatal.isEmpty()) {
            throw fatal.getFirst();
        }
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

    /**
     * Reads a node's description (unless known), SwitchInfo and PortInfo: of every port of a
     * switch, of {@code caPorts} otherwise; its MADs in parallel.
     *
     * @throws RdmaException the first read that failed (a PortInfo too: the start node is read whole or not at all)
     */
    static Node read(MadSchedule sched, NodeAttributes attributes, SmpTarget target, SmpNodeInfo info, String description,
            List<Integer> caPorts) {
        NodeRead read = new NodeRead(attributes, target, info, description, caPorts);
        readAll(sched, List.of(read));
        if (read.failure() != null) {
            throw read.failure();
        }
        if (!read.portFailures().isEmpty()) {
            throw read.portFailures().values().iterator().next();
        }
        return read.node();
    }

    /**
     * Reads the nodes, every MAD of all of them in one window. A failed read is kept by its node
     * ({@link NodeRead#failure()}) rather than failing the others, so that the caller decides what
     * it means: a problem for a neighbor, the end of the discovery for the start node.
     */
    private static void readAll(MadSchedule sched, List<NodeRead> reads) {
        List<Mad> mads = new ArrayList<>();
        for (NodeRead r : reads) {
            r.addMads(mads);
        }
        windowed(sched, mads);
    }

    /** The reading of one node beyond its NodeInfo, one MAD a piece, and what each returned. */
    private static final class NodeRead {
        private final NodeAttributes attributes;
        private final SmpTarget target;
        private final SmpNodeInfo info;
        private final boolean isSwitch;
        private final int[] ports;
        private final SmpPortInfo[] portInfos;
        private final RdmaException[] portFailures;
        private String description;
        private SmpSwitchInfo switchInfo;
        private RdmaException failure;

        /** @param caPorts the ports to read of a channel adapter or router; a switch's are all of them */
        NodeRead(NodeAttributes attributes, SmpTarget target, SmpNodeInfo info, String description, List<Integer> caPorts) {
            this.attributes = attributes;
            this.target = target;
            this.info = info;
            this.description = description;
            this.isSwitch = info.nodeType() == NodeType.SWITCH.value();
            this.ports = isSwitch ? IntStream.rangeClosed(0, info.numPorts()).toArray() : caPorts.stream().mapToInt(p -> p).toArray();
            this.portInfos = new SmpPortInfo[ports.length];
            this.portFailures = new RdmaException[ports.length];
        }

        /** Adds its MADs: the description unless known, a switch's SwitchInfo, and each port's PortInfo. */
        void addMads(List<Mad> mads) {
            SmpClient smp = attributes instanceof SmpAttributes a && a.smp().submits() ? a.smp() : null;
            if (description == null) {
                mads.add(mad(smp, () -> description = attributes.description(target), new SmpNodeDescription(), 0,
                        d -> description = d.nodeString(), this::fail));
            }
            if (isSwitch) {
                mads.add(mad(smp, () -> switchInfo = attributes.switchInfo(target), new SmpSwitchInfo(), 0, s -> switchInfo = s,
                        this::fail));
            }
            for (int i = 0; i < ports.length; i++) {
                int at = i;
                mads.add(mad(smp, () -> portInfos[at] = attributes.portInfo(target, ports[at]), new SmpPortInfo(), ports[at],
                        p -> portInfos[at] = p, e -> portFailures[at] = e));
            }
        }

        /**
         * One read: {@code blocking} through the attributes, or, when {@code smp} submits, the
         * SubnGet of {@code attribute} submitted; the answer goes to {@code answer} and a failure
         * of the read to {@code failed}, not thrown.
         */
        private <T extends IbaStruct & MadAttribute> Mad mad(SmpClient smp, Runnable blocking, T attribute, int modifier,
                Consumer<T> answer, Consumer<RdmaException> failed) {
            Runnable kept = () -> {
                try {
                    blocking.run();
                } catch (RdmaException e) {
                    failed.accept(e);
                }
            };
            return new Mad(kept, smp == null ? null : (done, fatal) -> smp.getAsync(attribute, target, modifier, (a, failure) -> {
                if (failure == null) {
                    answer.accept(a);
                } else if (failure instanceof RdmaException e) {
                    failed.accept(e);
                } else {
                    fatal.accept(failure);
                }
                done.run();
            }));
        }

        private synchronized void fail(RdmaException e) {
            if (failure == null) {
                failure = e;
            } else {
                failure.addSuppressed(e);
            }
        }

        /**
         * Why the node cannot be recorded: the first of its description and a switch's SwitchInfo
         * that failed, the others suppressed in it; else a switch's port 0 PortInfo (its LID, which
         * all its ports answer at), or when every PortInfo read failed, the first of those; null otherwise.
         */
        synchronized RdmaException failure() {
            if (failure == null && isSwitch && portFailures[0] != null) {
                return portFailures[0];
            }
            if (failure == null && ports.length > 0 && Arrays.stream(portFailures).allMatch(Objects::nonNull)) {
                return portFailures[0];
            }
            return failure;
        }

        /** The ports whose PortInfo read failed, in port order, and why: the node is recorded without them. */
        Map<Integer, RdmaException> portFailures() {
            Map<Integer, RdmaException> failed = new LinkedHashMap<>();
            for (int i = 0; i < ports.length; i++) {
                if (portFailures[i] != null) {
                    failed.put(ports[i], portFailures[i]);
                }
            }
            return failed;
        }

        /** The node, once its MADs are done and none of {@link #failure()} failed; a port without PortInfo (none in the source, or its read failed) is left out. */
        Node node() {
            Node node = new Node(info, description, target, switchInfo);
            for (int i = 0; i < ports.length; i++) {
                if (portInfos[i] != null) {
                    // NodeInfo carries the GUID of the port it was read through: a switch's shared port GUID, or the CA port's.
                    node.addPort(new Port(node, ports[i], info.portGuid(), portInfos[i]));
                }
            }
            return node;
        }
    }
}
