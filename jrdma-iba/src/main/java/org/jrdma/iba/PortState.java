package org.jrdma.iba;

/**
 * The logical state of a port, PortInfo:PortState (IBA 14.2.5.6; state machine IBA 7.2), with
 * the text infiniband-diags prints for it (libibmad {@code mad_dump_portstate}).
 */
public enum PortState implements WireCode {
    /** 0: No State Change, in a Set: leave the state as it is. */
    NO_CHANGE(0, "NoChange"),
    /** 1: the link is down. */
    DOWN(1, "Down"),
    /** 2: the link is up and waits for the subnet manager to configure the port. */
    INIT(2, "Initialize"),
    /** 3: configured; receives but does not yet send data packets. */
    ARMED(3, "Armed"),
    /** 4: fully operational. */
    ACTIVE(4, "Active");

    private static final PortState[] VALUES = values();

    private final int value;
    private final String text;

    PortState(int value, String text) {
        this.value = value;
        this.text = text;
    }

    /** The PortState number on the wire. */
    public int value() {
        return value;
    }

    /** The text infiniband-diags prints, for example {@code Active}. */
    public String text() {
        return text;
    }

    /**
     * The port state numbered {@code value}.
     *
     * @throws IllegalArgumentException if {@code value} is not 0 to 4
     */
    public static PortState fromValue(int value) {
        return WireCodes.byValue(VALUES, value, "PortInfo:PortState",
                "IBA 14.2.5.6 defines 0 NoChange, 1 Down, 2 Initialize, 3 Armed, 4 Active");
    }

    /** The port state numbered {@code value}, or null for a reserved number read off the wire. */
    public static PortState fromValueOrNull(int value) {
        return WireCodes.byValueOrNull(VALUES, value);
    }

    /** What infiniband-diags prints for PortState {@code value}: the text, or {@code ?(N)}. */
    public static String describe(int value) {
        return WireCodes.describe(VALUES, value, v -> "?(" + v + ")");
    }
}
