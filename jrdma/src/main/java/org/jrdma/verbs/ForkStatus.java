package org.jrdma.verbs;

/**
 * What {@link Verbs#forkInit()} achieved, {@code enum ibv_fork_status}: whether memory registered
 * in this process stays intact in the parent when the process forks (a JVM forks for
 * {@link ProcessBuilder}).
 */
public enum ForkStatus {
    /** {@code IBV_FORK_DISABLED}: fork support is off. */
    DISABLED,
    /** {@code IBV_FORK_ENABLED}: libibverbs marks registered memory {@code MADV_DONTFORK}. */
    ENABLED,
    /** {@code IBV_FORK_UNNEEDED}: the kernel copies pinned pages on fork itself (Linux 5.13 and later). */
    UNNEEDED;

    /** Its number in verbs.h. */
    public int value() {
        return ordinal();
    }

    /** The status numbered {@code value} in verbs.h. */
    static ForkStatus fromValue(int value) {
        if (value < 0 || value >= values().length) {
            throw new IllegalArgumentException("no ibv_fork_status " + value);
        }
        return values()[value];
    }
}
