package org.jrdma.subnet;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.jrdma.RdmaException;
import org.jrdma.iba.PhysPortState;
import org.jrdma.iba.smp.SmpNodeDescription;
import org.jrdma.iba.smp.SmpNodeInfo;
import org.jrdma.iba.smp.SmpPortInfo;
import org.jrdma.iba.smp.SmpSwitchInfo;
import org.jrdma.mad.SmpClient;
import org.jrdma.mad.SmpTarget;

/**
 * Directed-route discovery of a whole subnet (IBA 14.2.2): starting at the local node, read
 * NodeInfo, NodeDescription, PortInfo of every port (and SwitchInfo of switches), then follow
 * every port whose physical link is up one hop further, breadth first. Needs no subnet manager.
 *
 * <p>The nodes of one breadth-first level are read in parallel on virtual threads, so at most
 * the engine's {@code maxOutstanding} SMPs are in flight; the order in which nodes are recorded
 * is nevertheless fixed (by level, then by the discovering node's order and port number), so the
 * result does not depend on the order replies arrive in. A port whose neighbor does not answer
 * is recorded as unlinked and listed in {@link #problems()}.
 */
public final class SubnetDiscovery {
    private final SmpClient smp;
    private final List<String> problems = new ArrayList<>();

    private SubnetDiscovery(SmpClient smp) {
        this.smp = smp;
    }

    /** Discovers the subnet reachable from the local port of {@code smp}. */
    public static SubnetDiscovery run(SmpClient smp) {
        SubnetDiscovery d = new SubnetDiscovery(smp);
        d.subnet = d.discover();
        return d;
    }

    private Subnet subnet;

    /** The discovered subnet. */
    public Subnet subnet() {
        return subnet;
    }

    /** What went wrong along the way (unanswered ports), empty for a clean discovery. */
    public List<String> problems() {
        return List.copyOf(problems);
    }

    /** What a directed route led to: the neighbor's NodeInfo, or why it could not be read. */
    private record Probe(Port from, SmpTarget.DirectedRoute route, SmpNodeInfo info, RuntimeException failure) {
    }

    private Subnet discover() {
        try (ExecutorService threads = Executors.newVirtualThreadPerTaskExecutor()) {
            SmpTarget.DirectedRoute here = SmpTarget.local();
            Node from = read(threads, smp.get(new SmpNodeInfo(), here, 0), here);
            Subnet result = new Subnet(from);
            List<Node> level = List.of(from);
            while (!level.isEmpty()) {
                level = explore(threads, result, level);
            }
            return result;
        }
    }

    /** Probes every live port of a level's nodes and returns the new nodes, read in full. */
    private List<Node> explore(ExecutorService threads, Subnet subnet, List<Node> level) {
        List<Future<Probe>> probes = new ArrayList<>();
        for (Node node : level) {
            for (Port port : exits(subnet, node)) {
                SmpTarget.DirectedRoute next = node.route().then(port.number());
                probes.add(threads.submit(() -> probe(port, next)));
            }
        }
        List<Probe> found = new ArrayList<>();
        for (Future<Probe> f : probes) {
            found.add(join(f));
        }
        List<Probe> fresh = new ArrayList<>();
        List<Future<Node>> reads = new ArrayList<>();
        for (Probe p : found) {
            if (p.failure() != null) {
                problems.add(p.from() + ": no answer by DR path " + p.route() + ": " + p.failure().getMessage());
            } else if (!subnet.contains(p.info().nodeGuid()) && fresh.stream().noneMatch(q -> q.info().nodeGuid().equals(p.info().nodeGuid()))) {
                fresh.add(p);
                reads.add(threads.submit(() -> read(threads, p.info(), p.route())));
            }
        }
        List<Node> next = new ArrayList<>();
        for (Future<Node> f : reads) {
            Node n = join(f);
            subnet.add(n);
            next.add(n);
        }
        for (Probe p : found) {
            if (p.failure() == null) {
                Node neighbor = subnet.get(p.info().nodeGuid());
                Port arrival = neighbor.port(p.info().localPortNum());
                if (arrival != null && p.from().remote() == null && arrival.remote() == null) {
                    p.from().linkTo(arrival);
                }
            }
        }
        return next;
    }

    /** The ports to follow out of a node: every live physical port of a switch; a CA only from its own port when it is the start. */
    private static List<Port> exits(Subnet subnet, Node node) {
        List<Port> out = new ArrayList<>();
        boolean start = node == subnet.from();
        if (!node.isSwitch() && !start) {
            return out;
        }
        for (Port p : node.ports()) {
            if (p.number() > 0 && p.remote() == null && p.rawInfo().portPhysicalState() == PhysPortState.LINK_UP.value()) {
                out.add(p);
            }
        }
        return out;
    }

    private Probe probe(Port from, SmpTarget.DirectedRoute route) {
        try {
            return new Probe(from, route, smp.get(new SmpNodeInfo(), route, 0), null);
        } catch (RdmaException e) {
            return new Probe(from, route, null, e);
        }
    }

    /** Reads a node's description, SwitchInfo and PortInfo (all ports of a switch, the arrival port of a CA) in parallel. */
    private Node read(ExecutorService threads, SmpNodeInfo info, SmpTarget.DirectedRoute route) {
        boolean isSwitch = info.nodeType() == 2;
        Future<SmpNodeDescription> description = threads.submit(() -> smp.get(new SmpNodeDescription(), route, 0));
        Future<SmpSwitchInfo> switchInfo = isSwitch ? threads.submit(() -> smp.get(new SmpSwitchInfo(), route, 0)) : null;
        List<Integer> numbers = new ArrayList<>();
        if (isSwitch) {
            for (int p = 0; p <= info.numPorts(); p++) {
                numbers.add(p);
            }
        } else {
            numbers.add(info.localPortNum());
        }
        List<Future<SmpPortInfo>> portInfos = new ArrayList<>();
        for (int p : numbers) {
            portInfos.add(threads.submit(() -> smp.get(new SmpPortInfo(), route, p)));
        }
        Node node = new Node(info, join(description).nodeString(), route, switchInfo == null ? null : join(switchInfo));
        for (int i = 0; i < numbers.size(); i++) {
            int number = numbers.get(i);
            SmpPortInfo pi = join(portInfos.get(i));
            // NodeInfo carries the GUID of the port the SMP arrived on: a switch's shared port GUID, or the CA port's.
            node.addPort(new Port(node, number, info.portGuid(), pi));
        }
        return node;
    }

    private static <T> T join(Future<T> f) {
        try {
            return f.get();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new RdmaException("interrupted during discovery", e);
        } catch (ExecutionException e) {
            throw e.getCause() instanceof RuntimeException r ? r : new RdmaException("discovery failed", e.getCause());
        }
    }
}
