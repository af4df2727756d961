package org.jrdma.verbs;

/**
 * The transport service of a queue pair, {@code enum ibv_qp_type} (IBA 9.8.1): the ones the
 * classic verbs ({@code ibv_create_qp}) create.
 */
public enum QpType {
    /** {@code IBV_QPT_RC}: reliable connection. */
    RC(2),
    /** {@code IBV_QPT_UC}: unreliable connection. */
    UC(3),
    /** {@code IBV_QPT_UD}: unreliable datagram; receives start with 40 bytes of GRH. */
    UD(4);

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
        throw new IllegalArgumentException("ibv_qp_type " + value + " is not RC (2), UC (3) or UD (4)");
    }
}
