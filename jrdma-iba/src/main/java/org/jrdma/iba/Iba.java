package org.jrdma.iba;

/**
 * Well-known numbers of the InfiniBand Architecture that belong to no single header or
 * attribute, under the names python-rdma's {@code rdma.IBA} module gives them: the special queue
 * pairs and their Q_Keys, and partition keys with the membership arithmetic of IBA 10.9.
 *
 * <p>A P_Key (IBA 10.9.1) is 16 bits: bit 15 says full (1) or limited (0) membership, bits 0 to
 * 14 are the partition number, the base. Every method here taking a P_Key rejects a value outside
 * {@code 0..0xFFFF} with an {@link IllegalArgumentException}.
 */
public final class Iba {
    /** QP0, the subnet management interface (SMI): SMPs only, VL15. */
    public static final int QP0 = 0;
    /** QP1, the general services interface (GSI): every GMP (SA, PMA, CM, ...). */
    public static final int QP1 = 1;
    /**
     * The well-known Q_Key of QP1, the GSI, {@code 0x80010000}: a controlled Q_Key (bit 31 set),
     * so negative as a Java {@code int}, like every Q_Key read as a signed 32-bit number.
     */
    public static final int IB_DEFAULT_QP1_QKEY = 0x8001_0000;

    /** The default partition key, full membership of the default partition 0x7FFF. */
    public static final int DEFAULT_PKEY = 0xFFFF;
    /** The same as {@link #DEFAULT_PKEY}, under the other name python-rdma uses. */
    public static final int PKEY_DEFAULT = DEFAULT_PKEY;
    /** Limited membership of the default partition. */
    public static final int PKEY_PARTIAL_DEFAULT = 0x7FFF;
    /** The invalid P_Key 0; 0x8000 is invalid too, since its base is 0. */
    public static final int PKEY_INVALID = 0x0000;
    /** Bit 15 of a P_Key: set for full membership, clear for limited membership. */
    public static final int PKEY_MEMBERSHIP_BIT = 0x8000;
    /** Bits 0 to 14 of a P_Key: the partition number, its base. */
    public static final int PKEY_BASE_MASK = 0x7FFF;

    private Iba() {
    }

    /** True if {@code pkey} is a full member key: its bit 15 is set. */
    public static boolean pkeyIsFull(int pkey) {
        checkPkey(pkey);
        return (pkey & PKEY_MEMBERSHIP_BIT) != 0;
    }

    /** The partition number of {@code pkey}: its low 15 bits, without the membership bit. */
    public static int pkeyBase(int pkey) {
        checkPkey(pkey);
        return pkey & PKEY_BASE_MASK;
    }

    /** True if {@code pkey} is valid: its base is not 0, so it is neither 0x0000 nor 0x8000. */
    public static boolean pkeyIsValid(int pkey) {
        return pkeyBase(pkey) != 0;
    }

    /**
     * True if a packet carrying {@code a} may be accepted by a port holding {@code b}, or the
     * other way round (IBA 10.9.3): both keys are valid, have the same base, and at least one
     * of them is a full member key. Two limited members of a partition cannot talk.
     */
    public static boolean pkeyMatches(int a, int b) {
        return pkeyIsValid(a) && pkeyIsValid(b) && pkeyBase(a) == pkeyBase(b)
                && (pkeyIsFull(a) || pkeyIsFull(b));
    }

    private static void checkPkey(int pkey) {
        if ((pkey & ~0xFFFF) != 0) {
            throw new IllegalArgumentException("P_Key " + pkey + " is outside the 16-bit range 0 to 0xFFFF");
        }
    }
}
