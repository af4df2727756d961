package org.jrdma.verbs;

import java.util.Set;
import org.jrdma.SysException;

/**
 * The device does not offer a verb or a capability, the one exception every extended verb raises
 * for it: when {@code ibv_query_device_ex} says the capability is absent (jrdma then does not call
 * the provider), when the provider has no entry point for the verb (verbs.h's inlines then fail
 * with {@code EOPNOTSUPP}), or when the provider or kernel answers {@code EOPNOTSUPP} or
 * {@code ENOSYS}. Code written for a device that has the capability (a ConnectX) thus fails on one
 * that lacks it (soft-RoCE) with this exception, naming the capability, rather than with a crash or
 * a bare error number. It is a {@link SysException} with {@code errno} {@code EOPNOTSUPP} (or the
 * number the provider gave), so handlers of native failures see it too.
 */
public final class UnsupportedVerbException extends SysException {
    private static final long serialVersionUID = 1L;
    /** {@code EOPNOTSUPP}. */
    static final int EOPNOTSUPP = 95;
    /** {@code ENOSYS}. */
    static final int ENOSYS = 38;
    private static final Set<Integer> UNSUPPORTED = Set.of(EOPNOTSUPP, ENOSYS);

    private final String capability;

    /**
     * {@code call} failed, or was not made, because the device lacks {@code capability} (a verbs.h
     * name such as {@code IBV_DEVICE_XRC}, {@code IBV_ODP_SUPPORT} or the verb itself); {@code errno}
     * is the number the provider gave, {@code EOPNOTSUPP} when jrdma refused.
     */
    public UnsupportedVerbException(String call, int errno, String capability) {
        super(call, errno, null, ", the device lacks " + capability);
        this.capability = capability;
    }

    /** What the device lacks: a verbs.h capability name or the verb. */
    public String capability() {
        return capability;
    }

    /** {@code e} as this exception when its errno says "not supported", else {@code e} itself. */
    static SysException translate(SysException e, String capability) {
        if (e instanceof UnsupportedVerbException || !UNSUPPORTED.contains(e.errno())) {
            return e;
        }
        UnsupportedVerbException u = new UnsupportedVerbException(e.call(), e.errno(), capability);
        u.initCause(e);
        return u;
    }

    /** Refuses {@code call} unless {@code present}: the device's capabilities lack {@code capability}. */
    static void require(boolean present, String call, String capability) {
        if (!present) {
            throw new UnsupportedVerbException(call, EOPNOTSUPP, capability);
        }
    }
}
