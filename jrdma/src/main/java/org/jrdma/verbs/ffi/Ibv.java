package org.jrdma.verbs.ffi;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.SymbolLookup;
import java.lang.invoke.MethodHandle;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.OptionalInt;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.jrdma.ffi.Errors;

/**
 * libibverbs ({@code libibverbs.so.1}) as seen from Java: whether it can be used here, and
 * downcall handles on its exported functions and on the provider entry points reached through
 * {@code struct ibv_context_ops}. The handles are built by the classes that use them, once, in
 * their static initialisers, which run only after {@link #unavailabilityCause()} said yes.
 */
@SuppressWarnings("restricted")
public final class Ibv {
    /** The shared object, by its ABI name, as {@code ibv_devinfo} loads it. */
    public static final String LIBRARY = "libibverbs.so.1";

    private static final Linker LINKER = Linker.nativeLinker();
    /** Data-path calls are short and never call back into Java: no thread-state transition. */
    private static final Linker.Option CRITICAL = Linker.Option.critical(false);

    /** Why libibverbs cannot be used here, or null: probed once, when this class is initialised. */
    private static final Throwable UNAVAILABILITY_CAUSE;
    private static final SymbolLookup LOOKUP;

    static {
        Throwable cause = null;
        SymbolLookup lookup = null;
        String os = System.getProperty("os.name");
        String arch = System.getProperty("os.arch");
        if (!"Linux".equals(os) || !"amd64".equals(arch)) {
            cause = new UnsupportedOperationException("jrdma verbs support Linux on x86-64 only (the libibverbs"
                    + " structure layouts are checked there), not " + os + " on " + arch);
        } else {
            try {
                lookup = SymbolLookup.libraryLookup(LIBRARY, Arena.global());
            } catch (IllegalArgumentException e) {
                cause = new UnsupportedOperationException(LIBRARY + " cannot be loaded (" + e.getMessage()
                        + "); install libibverbs1 (Debian: apt-get install libibverbs1 ibverbs-providers)", e);
            }
        }
        UNAVAILABILITY_CAUSE = cause;
        LOOKUP = lookup;
    }

    /** The file name of libibverbs as rdma-core installs it: {@code libibverbs.so.1.<ABI minor>.<release>.<patch>}. */
    private static final Pattern INSTALLED_NAME = Pattern.compile("/libibverbs\\.so\\.1\\.\\d+\\.(\\d+)\\.\\d+$");

    private Ibv() {
    }

    /**
     * The rdma-core release whose libibverbs this process has mapped (44 for Debian 12's 44.0),
     * read from the library's file name in {@code /proc/self/maps}; empty when the library is not
     * loaded or its name does not say. Providers ship with the library they belong to, so this is
     * also the release of the providers' code, whose behaviour changes between releases. Read
     * once: this class loads the library before anything asks.
     */
    public static OptionalInt rdmaCoreRelease() {
        return LoadedRelease.RELEASE;
    }

    /** The release {@link #rdmaCoreRelease()} reports, read on first use. */
    private static final class LoadedRelease {
        static final OptionalInt RELEASE = read();

        private static OptionalInt read() {
            try (Stream<String> maps = Files.lines(Path.of("/proc/self/maps"))) {
                return maps.map(Ibv::rdmaCoreRelease).filter(OptionalInt::isPresent).findFirst()
                        .orElse(OptionalInt.empty());
            } catch (IOException | UncheckedIOException e) {
                return OptionalInt.empty();
            }
        }
    }

    /** The rdma-core release in one line of {@code /proc/PID/maps}, if it maps libibverbs under its installed name. */
    static OptionalInt rdmaCoreRelease(String mapsLine) {
        Matcher m = INSTALLED_NAME.matcher(mapsLine);
        return m.find() ? OptionalInt.of(Integer.parseInt(m.group(1))) : OptionalInt.empty();
    }

    /**
     * Why verbs cannot be used in this JVM, or null when they can: the structure layouts are
     * those of Linux x86-64, and libibverbs must load (Debian package {@code libibverbs1}). The
     * throwable's message says what is missing; its cause, when there is one, is the failure to
     * load the library.
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
            throw new IllegalStateException("libibverbs cannot be used", UNAVAILABILITY_CAUSE);
        }
        MemorySegment symbol = LOOKUP.find(name)
                .orElseThrow(() -> new UnsatisfiedLinkError(LIBRARY + " does not export " + name));
        return captureErrno ? LINKER.downcallHandle(symbol, descriptor, Errors.CAPTURE_ERRNO)
                : LINKER.downcallHandle(symbol, descriptor);
    }

    /**
     * A handle on a C function pointer of this signature, a control-path entry point of a provider
     * ({@code verbs_context->create_cq_ex}, {@code ops.alloc_mw}, ...): its first parameter is the
     * function's address, its second a call-state segment ({@link Errors#callState}) that
     * receives {@code errno}.
     */
    static MethodHandle pointerCapturingErrno(FunctionDescriptor descriptor) {
        return LINKER.downcallHandle(descriptor, Errors.CAPTURE_ERRNO);
    }

    /**
     * A handle on a C function pointer of this signature, a data-path entry point of
     * {@code struct ibv_context_ops}: its first parameter is the function's address.
     */
    static MethodHandle pointer(FunctionDescriptor descriptor) {
        return LINKER.downcallHandle(descriptor, CRITICAL);
    }
}
