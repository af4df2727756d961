package org.jrdma.cm.ffi;

import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.SymbolLookup;
import java.lang.invoke.MethodHandle;
import org.jrdma.ffi.Errors;
import org.jrdma.verbs.ffi.Ibv;

/**
 * librdmacm ({@code librdmacm.so.1}), the RDMA connection manager's user library, as seen from
 * Java: whether it can be used here, and downcall handles on its exported functions, built once
 * by the classes that use them after {@link #unavailabilityCause()} said yes. It is loaded as
 * libibverbs is ({@link Ibv}), by its ABI name, and needs libibverbs, which it links itself.
 */
@SuppressWarnings("restricted")
public final class Rdmacm {
    /** The shared object, by its ABI name, as {@code rping} loads it. */
    public static final String LIBRARY = "librdmacm.so.1";

    private static final Linker LINKER = Linker.nativeLinker();
    private static final Throwable UNAVAILABILITY_CAUSE;
    private static final SymbolLookup LOOKUP;

    static {
        Throwable cause = Ibv.unavailabilityCause();
        SymbolLookup lookup = null;
        if (cause == null) {
            try {
                lookup = SymbolLookup.libraryLookup(LIBRARY, Arena.global());
            } catch (IllegalArgumentException e) {
                cause = new UnsupportedOperationException(LIBRARY + " cannot be loaded (" + e.getMessage()
                        + "); install librdmacm1 (Debian: apt-get install librdmacm1)", e);
            }
        }
        UNAVAILABILITY_CAUSE = cause;
        LOOKUP = lookup;
    }

    private Rdmacm() {
    }

    /**
     * Why the connection manager cannot be used in this JVM, or null when it can: verbs must be
     * usable ({@link Ibv#unavailabilityCause()}) and librdmacm must load (Debian package
     * {@code librdmacm1}).
     */
    public static Throwable unavailabilityCause() {
        return UNAVAILABILITY_CAUSE;
    }

    /**
     * A handle on exported function {@code name}; with {@code captureErrno} its first parameter
     * is a call-state segment ({@link Errors#callState}) that receives {@code errno}.
     */
    static MethodHandle function(String name, FunctionDescriptor descriptor, boolean captureErrno) {
        if (UNAVAILABILITY_CAUSE != null) {
            throw new IllegalStateException("librdmacm cannot be used", UNAVAILABILITY_CAUSE);
        }
        MemorySegment symbol = LOOKUP.find(name)
                .orElseThrow(() -> new UnsatisfiedLinkError(LIBRARY + " does not export " + name));
        return captureErrno ? LINKER.downcallHandle(symbol, descriptor, Errors.CAPTURE_ERRNO)
                : LINKER.downcallHandle(symbol, descriptor);
    }
}
