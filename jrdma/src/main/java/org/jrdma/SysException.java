package org.jrdma;

import java.util.Objects;
import java.util.Optional;

/**
 * A native call failed: a libc, libibverbs or libibumad function reported an error number, as
 * errno or as its return code; python-rdma's {@code rdma.SysError}. The message names the call,
 * the number and its {@code strerror} text in the style of Netty's native transports:
 * {@code ibv_open_device(..) failed with error(2): No such file or directory}. What the call was
 * applied to may follow: {@code open(..) failed with error(2): No such file or directory, path
 * "/dev/infiniband/umad9"}.
 */
public class SysException extends RdmaException {
    private static final long serialVersionUID = 1L;

    private final String call;
    private final int errno;
    private final String strerror;

    /**
     * The failure of native function {@code call} with error number {@code errno}, described by
     * the glibc {@code strerror} text of the common numbers, or {@code Unknown error N}. A negative
     * {@code errno}, as calls returning {@code -errno} give it, is taken as its absolute value.
     */
    public SysException(String call, int errno) {
        this(call, errno, Errno.strerror(Math.abs(errno)));
    }

    /**
     * The failure of native function {@code call} with error number {@code errno} (negative taken
     * as its absolute value), described by {@code strerror}, the text the C library gave for it.
     */
    public SysException(String call, int errno, String strerror) {
        this(call, errno, Objects.requireNonNull(strerror, "strerror"), "");
    }

    /**
     * As {@link #SysException(String, int, String)}, with {@code detail} appended to the message
     * as it is (for example {@code ", path \"/dev/infiniband/umad0\""}: what the call was
     * applied to); a null {@code strerror} stands for the glibc text, as
     * {@link #SysException(String, int)} gives it.
     */
    public SysException(String call, int errno, String strerror, String detail) {
        super(Objects.requireNonNull(call, "call") + "(..) failed with error(" + Math.abs(errno) + "): "
                + text(errno, strerror) + Objects.requireNonNull(detail, "detail"));
        this.call = call;
        this.errno = Math.abs(errno);
        this.strerror = text(errno, strerror);
    }

    private static String text(int errno, String strerror) {
        return strerror != null ? strerror : Errno.strerror(Math.abs(errno));
    }

    /** The name of the native function that failed, for example {@code ibv_open_device}. */
    public String call() {
        return call;
    }

    /** The error number, positive, for example 2. */
    public int errno() {
        return errno;
    }

    /** The text of the error number, for example {@code No such file or directory}. */
    public String strerror() {
        return strerror;
    }

    /** The symbolic name of the error number, for example {@code ENOENT}, if it is a common one. */
    public Optional<String> errnoName() {
        return Optional.ofNullable(Errno.lookup(errno)).map(Errno.Entry::name);
    }
}
