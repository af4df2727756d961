package org.jrdma.cm;

import org.jrdma.cm.ffi.Rdmacm;

/** Whether the RDMA connection manager (librdmacm) can be used in this JVM. */
public final class RdmaCm {
    private RdmaCm() {
    }

    /**
     * Why librdmacm cannot be used here, or null when it can: verbs must be usable and
     * {@code librdmacm.so.1} must load (Debian package {@code librdmacm1}).
     */
    public static Throwable unavailabilityCause() {
        return Rdmacm.unavailabilityCause();
    }

    /** Whether librdmacm can be used here. */
    public static boolean isAvailable() {
        return unavailabilityCause() == null;
    }

    static void requireAvailable() {
        Throwable cause = unavailabilityCause();
        if (cause != null) {
            throw new UnsupportedOperationException(cause.getMessage(), cause);
        }
    }
}
