package org.jrdma.subnet;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import org.jrdma.iba.Guid;

/**
 * A discovered subnet: every node reached, in the order discovery found them (breadth first,
 * ports in ascending order), the node discovery started from, and where attributes read on
 * demand (switches' forwarding tables) come from.
 */
public final class Subnet {
    private final Map<Guid, Node> nodes = new LinkedHashMap<>();
    private final Node from;
    private volatile AttributeSource attributeSource;

    Subnet(Node from, AttributeSource attributeSource) {
        this(List.of(from), from, attributeSource);
    }

    /** A subnet of {@code nodes} in discovery order, {@code from} among them. */
    Subnet(List<Node> nodes, Node from, AttributeSource attributeSource) {
        this.from = from;
        this.attributeSource = attributeSource;
        nodes.forEach(this::add);
    }

    /** Where attributes read on demand come from: the SMPs or the SA discovery used, unless set since. */
    public AttributeSource attributeSource() {
        return attributeSource;
    }

    /**
     * Reads attributes on demand from {@code source} from now on: e.g. the forwarding tables from
     * the SA ({@link AttributeSource#sa}) of a subnet discovered by SMPs. Tables already read are kept.
     */
    public void attributeSource(AttributeSource source) {
        this.attributeSource = Objects.requireNonNull(source, "source");
    }

    /** The node discovery started from: the one the discovering port belongs to, or the start of a partial discovery. */
    public Node from() {
        return from;
    }

    /** Every node in discovery order. */
    public List<Node> nodes() {
        return List.copyOf(nodes.values());
    }

    /** The switches in discovery order. */
    public List<Node> switches() {
        return nodes.values().stream().filter(Node::isSwitch).toList();
    }

    /** The channel adapters (and routers) in discovery order. */
    public List<Node> channelAdapters() {
        return nodes.values().stream().filter(n -> !n.isSwitch()).toList();
    }

    /** The node with this GUID. */
    public Optional<Node> node(Guid guid) {
        return Optional.ofNullable(nodes.get(guid));
    }

    /** The node owning this LID (a switch's port 0 LID or a CA port's LID range). */
    public Optional<Node> nodeByLid(int lid) {
        for (Node n : nodes.values()) {
            for (Port p : n.ports()) {
                int base = p.lid();
                if (base != 0 && lid >= base && lid < base + (1 << p.lmc())) {
                    return Optional.of(n);
                }
            }
        }
        return Optional.empty();
    }

    /** The number of links (each counted once). */
    public int linkCount() {
        int ends = 0;
        for (Node n : nodes.values()) {
            for (Port p : n.ports()) {
                if (p.number() > 0 && p.remote() != null) {
                    ends++;
                }
            }
        }
        return ends / 2;
    }

    Map<Guid, Node> index() {
        return Collections.unmodifiableMap(nodes);
    }

    void add(Node node) {
        if (nodes.putIfAbsent(node.guid(), node) == null) {
            node.joined(this);
        }
    }

    boolean contains(Guid guid) {
        return nodes.containsKey(guid);
    }

    Node get(Guid guid) {
        return nodes.get(guid);
    }
}
