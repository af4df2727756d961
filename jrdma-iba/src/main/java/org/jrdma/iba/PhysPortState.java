package org.jrdma.iba;

/**
 * The physical state of a port's link, PortInfo:PortPhysicalState (IBA 14.2.5.6; physical link
 * state machine IBA 5.6), with the text infiniband-diags prints for it (libibmad
 * {@code mad_dump_physportstate}).
 */
public enum PhysPortState implements WireCode {
    /** 0: No State Change, in a Set: leave the state as it is. */
    NO_CHANGE(0, "NoChange"),
    /** 1: Sleep. */
    SLEEP(1, "Sleep"),
    /** 2: Polling, looking for a link partner. */
    POLLING(2, "Polling"),
    /** 3: Disabled. */
    DISABLED(3, "Disabled"),
    /** 4: PortConfigurationTraining, negotiating width and speed. */
    PORT_CONFIGURATION_TRAINING(4, "PortConfigurationTraining"),
    /** 5: LinkUp, the physical link is up. */
    LINK_UP(5, "LinkUp"),
    /** 6: LinkErrorRecovery. */
    LINK_ERROR_RECOVERY(6, "LinkErrorRecovery"),
    /** 7: Phy Test, a physical layer test mode (libibmad prints {@code PhyTest}). */
    PHY_TEST(7, "PhyTest");

    private static final PhysPortState[] VALUES = values();

    private final int value;
    private final String text;

    PhysPortState(int value, String text) {
        this.value = value;
        this.text = text;
    }

    /** The PortPhysicalState number on the wire. */
    public int value() {
        return value;
    }

    /** The text infiniband-diags prints, for example {@code LinkUp}. */
    public String text() {
        return text;
    }

    /**
     * The physical port state numbered {@code value}.
     *
     * @throws IllegalArgumentException if {@code value} is not 0 to 7
     */
    public static PhysPortState fromValue(int value) {
        return WireCodes.byValue(VALUES, value, "PortInfo:PortPhysicalState",
                "IBA 14.2.5.6 defines 0 to 7");
    }

    /** The physical port state numbered {@code value}, or null for a reserved number. */
    public static PhysPortState fromValueOrNull(int value) {
        return WireCodes.byValueOrNull(VALUES, value);
    }

    /** What infiniband-diags prints for PortPhysicalState {@code value}: the text, or {@code ?(N)}. */
    public static String describe(int value) {
        return WireCodes.describe(VALUES, value, v -> "?(" + v + ")");
    }
}
