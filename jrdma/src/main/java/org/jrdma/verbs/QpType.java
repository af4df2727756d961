package org.jrdma.verbs;

/**
 * The transport service of a queue pair, {@code enum ibv_qp_type} (IBA 9.8.1): the ones the
 * classic verbs ({@code ibv_create_qp}) create, and the sending side of XRC (IBA 11.2.9).
 */
public enum QpType {
    /** {@code IBV_QPT_RC}: reliable connection. */
    RC(2),
    /** {@code IBV_QPT_UC}: unreliable connection. */
    UC(3),
    /** {@code IBV_QPT_UD}: unreliable datagram; receives start with 40 bytes of GRH. */
    UD(4),
    /**
     * {@code IBV_QPT_XRC_SEND}: the initiator of the extended reliable connected transport,
     * sending to the XRC SRQs of a remote XRC domain; a device without XRC
     * ({@code IBV_DEVICE_XRC}) refuses it.
     */
    XRC_SEND(9);

    private final int value;

    QpType(int value) {
        this.value = value;
    }

    /** The {@code enum ibv_qp_type} number. */
    public int value() {
        return value;
    }

    /**
     * The type numbered {@code value}.
     *
     * @throws IllegalArgumentException for a type jrdma does not create
     */
    public static QpType fromValue(int value) {
        for (QpType type : values()) {
            if (type.value == value) {
                return type;
            }
        }
        throw new IllegalArgumentException("ibv_qp_type " + value + " is not RC (2), UC (3), UD (4) or XRC_SEND (9)");
    }
}
