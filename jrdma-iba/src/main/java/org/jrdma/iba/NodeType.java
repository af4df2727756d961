package org.jrdma.iba;

/**
 * The type of an IB node, NodeInfo:NodeType (IBA 14.2.5.3), with the text infiniband-diags
 * prints for it (libibmad {@code mad_dump_node_type}).
 */
public enum NodeType implements WireCode {
    /** A channel adapter: a host (HCA) or target (TCA) end node. */
    CA(1, "Channel Adapter"),
    /** A switch. */
    SWITCH(2, "Switch"),
    /** A router. */
    ROUTER(3, "Router");

    private static final NodeType[] VALUES = values();

    private final int value;
    private final String text;

    NodeType(int value, String text) {
        this.value = value;
        this.text = text;
    }

    /** The NodeType number on the wire. */
    public int value() {
        return value;
    }

    /** The text infiniband-diags prints, for example {@code Channel Adapter}. */
    public String text() {
        return text;
    }

    /**
     * The node type numbered {@code value}.
     *
     * @throws IllegalArgumentException if {@code value} is not 1, 2 or 3
     */
    public static NodeType fromValue(int value) {
        return WireCodes.byValue(VALUES, value, "NodeInfo:NodeType",
                "IBA 14.2.5.3 defines 1 Channel Adapter, 2 Switch, 3 Router");
    }

    /** The node type numbered {@code value}, or null for a reserved number read off the wire. */
    public static NodeType fromValueOrNull(int value) {
        return WireCodes.byValueOrNull(VALUES, value);
    }

    /** What infiniband-diags prints for NodeType {@code value}: the text, or {@code ?(N)?}. */
    public static String describe(int value) {
        return WireCodes.describe(VALUES, value, v -> "?(" + v + ")?");
    }
}
