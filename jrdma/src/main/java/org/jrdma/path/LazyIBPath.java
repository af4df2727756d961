package org.jrdma.path;

import java.util.Objects;
import java.util.function.Supplier;

/**
 * An {@link IBPath} whose values are unpacked only when first needed, python-rdma's
 * {@code rdma.path.LazyIBPath}: a MAD transport gives every received MAD the path it came on,
 * and most of the time nobody looks at it, so the transport hands over a cheap function that
 * decodes the address (the umad {@code ib_mad_addr}, an ibsim packet header) instead of decoding
 * it each time.
 *
 * <p>The function runs at most once, on the first call of any accessor (thread-safe), and must
 * return a plain {@link IBPath}; the lazy path then behaves exactly as that path and is equal to
 * it. If the function throws, the accessor that triggered it throws the same exception, and the
 * next access tries again. {@link #copy}, {@link #reverse} and {@link #toBuilder} give plain
 * {@link IBPath}s.
 */
public final class LazyIBPath extends IBPath {
    private final Object lock = new Object();
    /** Kept (final) even once used: a path read through a data race must still find it. */
    private final Supplier<? extends IBPath> unpack;
    private volatile IBPath unpacked;

    /** A path whose values {@code unpack} gives, when first needed. */
    public LazyIBPath(Supplier<? extends IBPath> unpack) {
        super(null, UNKNOWN, UNKNOWN);
        this.unpack = Objects.requireNonNull(unpack, "unpack");
    }

    /** True once the values have been unpacked. */
    public boolean isUnpacked() {
        return unpacked != null;
    }

    private IBPath unpacked() {
        IBPath path = unpacked;
        if (path == null) {
            synchronized (lock) {
                path = unpacked;
                if (path == null) {
                    IBPath result = Objects.requireNonNull(unpack.get(), "the unpack function of a LazyIBPath returned null");
                    if (result instanceof IBDRPath) {
                        throw new IllegalStateException("A LazyIBPath unpacks to an IBPath, not to " + result);
                    }
                    path = result instanceof LazyIBPath lazy ? lazy.unpacked() : result;
                    unpacked = path;
                }
            }
        }
        return path;
    }

    @Override
    PathValues values() {
        return unpacked().values();
    }

    @Override
    public int pkeyIndex() {
        return unpacked().pkeyIndex();
    }

    @Override
    public int sgidIndex() {
        return unpacked().sgidIndex();
    }

    @Override
    public Builder<? extends IBPath> toBuilder() {
        return unpacked().toBuilder();
    }
}
