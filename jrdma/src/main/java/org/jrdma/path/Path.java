package org.jrdma.path;

import java.util.Optional;
import org.jrdma.devices.EndPort;

/**
 * An RDMA path: the full description of the connection between two end ports, holding every
 * header field a packet on it needs, used as far as the context needs; python-rdma's
 * {@code rdma.path.Path}. The one kind today is the InfiniBand path, {@link IBPath} (with its
 * directed-route form {@link IBDRPath} and its deferred form {@link LazyIBPath}).
 *
 * <p><b>Write once.</b> The seed asks users to treat a path as write-once, because a path caches
 * derived values (indexes into the end port's tables, timeouts) that go stale if it changes.
 * Here a path is immutable: it is built once by a builder, {@link IBPath#copy} and
 * {@link IBPath#reverse} make new paths, and so the cached values can never go stale and paths can
 * be shared between threads (the MAD scheduler holds them while MADs are in flight).
 *
 * <p><b>Text.</b> {@link #toString()} is the path specification python-rdma's {@code repr}
 * gives, for example {@code IBPath(end_port='mlx4_0/1', DLID=2, SL=2)}, which
 * {@link #fromSpecString} reads back to an equal path; {@link #fromString} also reads the
 * destination forms of the command-line tools (LID, GID, GUID, directed route). Both parsers are
 * safe on untrusted text: bounded to {@link #MAX_TEXT_LENGTH} characters, linear time, a fixed
 * table of attribute names, range-checked numbers, no nesting, and an
 * {@link IllegalArgumentException} naming the part that is wrong.
 */
public abstract sealed class Path permits IBPath {
    /** The longest text {@link #fromString} and {@link #fromSpecString} accept: 64 KiB. */
    public static final int MAX_TEXT_LENGTH = 64 * 1024;

    Path() {
    }

    /** The end port this path starts from (or, for a received path, arrived at), if any. */
    public abstract Optional<EndPort> endPort();

    /** The number of times a MAD is resent on this path, or the {@code retry_cnt} of an RC QP. */
    public abstract int retries();

    /** True if the path is complete and usable as it is, without a path record query. */
    public abstract boolean complete();

    /** The path specification, which {@link #fromSpecString} reads back to an equal path. */
    @Override
    public abstract String toString();

    /**
     * The path {@code text} describes, with this machine's devices for scoped GIDs and
     * {@code end_port} names: python-rdma's {@code rdma.path.from_string(s)}.
     *
     * @throws IllegalArgumentException if the text is not a path (see {@link PathParser#fromString})
     */
    public static IBPath fromString(String text) {
        return PathParser.system().fromString(text);
    }

    /**
     * As {@link #fromString(String)}, with {@code defaultEndPort} for paths the text does not tie
     * to an end port.
     *
     * @throws IllegalArgumentException if the text is not a path
     */
    public static IBPath fromString(String text, EndPort defaultEndPort) {
        return PathParser.system().withDefaultEndPort(defaultEndPort).fromString(text);
    }

    /**
     * The path of a path specification such as {@code IBPath(DLID=2,SL=2)}, the form
     * {@link #toString()} writes; an {@code end_port} name is looked up among this machine's
     * devices. python-rdma's {@code rdma.path.from_spec_string(s)}.
     *
     * @throws IllegalArgumentException if the text is not a valid path specification
     */
    public static IBPath fromSpecString(String text) {
        return PathParser.system().fromSpecString(text);
    }
}
