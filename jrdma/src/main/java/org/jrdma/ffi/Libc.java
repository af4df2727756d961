package org.jrdma.ffi;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;
import static java.lang.foreign.ValueLayout.JAVA_SHORT;

import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemoryLayout;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.StructLayout;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.VarHandle;
import org.jrdma.SysException;

/**
 * Downcalls into the C library with errno captured. Every method returns the C result when it
 * succeeds and throws {@link SysException} ({@code "<call>(..) failed with error(N): <strerror>"})
 * when the call returns -1. {@code EINTR} is retried.
 */
public final class Libc {
    /** {@code AF_UNIX} from {@code <sys/socket.h>}. */
    public static final int AF_UNIX = 1;
    /** {@code SOCK_DGRAM}. */
    public static final int SOCK_DGRAM = 2;
    /** {@code SOCK_CLOEXEC}. */
    public static final int SOCK_CLOEXEC = 0x80000;
    /** {@code POLLIN} from {@code <poll.h>}. */
    public static final short POLLIN = 0x1;
    /** {@code EINTR}. */
    public static final int EINTR = 4;
    /** {@code EAGAIN}. */
    public static final int EAGAIN = 11;
    /** {@code MSG_DONTWAIT}: a receive that returns EAGAIN instead of blocking. */
    public static final int MSG_DONTWAIT = 0x40;

    /** {@code struct pollfd}: int fd; short events; short revents. */
    public static final StructLayout POLLFD = MemoryLayout.structLayout(
            JAVA_INT.withName("fd"), JAVA_SHORT.withName("events"), JAVA_SHORT.withName("revents"));
    private static final VarHandle POLLFD_FD = POLLFD.varHandle(MemoryLayout.PathElement.groupElement("fd"));
    private static final VarHandle POLLFD_EVENTS = POLLFD.varHandle(MemoryLayout.PathElement.groupElement("events"));
    private static final VarHandle POLLFD_REVENTS = POLLFD.varHandle(MemoryLayout.PathElement.groupElement("revents"));

    private static final Linker LINKER = Linker.nativeLinker();
    private static final StructLayout CALL_STATE = Linker.Option.captureStateLayout();
    private static final VarHandle ERRNO = CALL_STATE.varHandle(MemoryLayout.PathElement.groupElement("errno"));

    private static final MethodHandle SOCKET = downcall("socket", FunctionDescriptor.of(JAVA_INT, JAVA_INT, JAVA_INT, JAVA_INT));
    private static final MethodHandle BIND = downcall("bind", FunctionDescriptor.of(JAVA_INT, JAVA_INT, ADDRESS, JAVA_INT));
    private static final MethodHandle CONNECT = downcall("connect", FunctionDescriptor.of(JAVA_INT, JAVA_INT, ADDRESS, JAVA_INT));
    private static final MethodHandle SEND = downcall("send", FunctionDescriptor.of(JAVA_LONG, JAVA_INT, ADDRESS, JAVA_LONG, JAVA_INT));
    private static final MethodHandle RECV = downcall("recv", FunctionDescriptor.of(JAVA_LONG, JAVA_INT, ADDRESS, JAVA_LONG, JAVA_INT));
    private static final MethodHandle POLL = downcall("poll", FunctionDescriptor.of(JAVA_INT, ADDRESS, JAVA_LONG, JAVA_INT));
    private static final MethodHandle CLOSE = downcall("close", FunctionDescriptor.of(JAVA_INT, JAVA_INT));
    private static final MethodHandle OPEN = downcall("open", FunctionDescriptor.of(JAVA_INT, ADDRESS, JAVA_INT));
    private static final MethodHandle READ = downcall("read", FunctionDescriptor.of(JAVA_LONG, JAVA_INT, ADDRESS, JAVA_LONG));
    private static final MethodHandle WRITE = downcall("write", FunctionDescriptor.of(JAVA_LONG, JAVA_INT, ADDRESS, JAVA_LONG));
    private static final MethodHandle IOCTL = downcall("ioctl", FunctionDescriptor.of(JAVA_INT, JAVA_INT, JAVA_LONG, ADDRESS),
            Linker.Option.firstVariadicArg(2));

    private Libc() {
    }

    private static MethodHandle downcall(String name, FunctionDescriptor descriptor, Linker.Option... extra) {
        Linker.Option[] options = new Linker.Option[extra.length + 1];
        options[0] = Linker.Option.captureCallState("errno");
        System.arraycopy(extra, 0, options, 1, extra.length);
        MemorySegment symbol = LINKER.defaultLookup().find(name)
                .orElseThrow(() -> new UnsatisfiedLinkError("libc has no " + name));
        return LINKER.downcallHandle(symbol, descriptor, options);
    }

    /** The errno a downcall left in its call-state segment. */
    private static int errno(MemorySegment state) {
        return (int) ERRNO.get(state, 0L);
    }

    private static MemorySegment state(Arena arena) {
        return arena.allocate(CALL_STATE);
    }

    /** Storage for the errno a downcall leaves; a caller making many calls keeps one per thread. */
    public static MemorySegment newCallState(Arena arena) {
        return state(arena);
    }

    /** Storage for one {@code struct pollfd}. */
    public static MemorySegment newPollFd(Arena arena) {
        return arena.allocate(POLLFD);
    }

    /** {@code socket(2)}. */
    public static int socket(int domain, int type, int protocol) {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment st = state(arena);
            int fd = (int) SOCKET.invokeExact(st, domain, type, protocol);
            return checked("socket", fd, st);
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    /** {@code bind(2)}. */
    public static void bind(int fd, MemorySegment address, int length) {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment st = state(arena);
            checked("bind", (int) BIND.invokeExact(st, fd, address, length), st);
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    /** {@code connect(2)}. */
    public static void connect(int fd, MemorySegment address, int length) {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment st = state(arena);
            checked("connect", (int) CONNECT.invokeExact(st, fd, address, length), st);
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    /** {@code send(2)} of {@code length} bytes; returns the bytes sent. {@code state} holds errno. */
    public static long send(int fd, MemorySegment buffer, long length, MemorySegment state) {
        try {
            while (true) {
                long n = (long) SEND.invokeExact(state, fd, buffer, length, 0);
                if (n >= 0 || errno(state) != EINTR) {
                    return checked("send", n, state);
                }
            }
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    /**
     * {@code recv(2)} into {@code buffer}; returns the bytes received, or -1 when {@code flags}
     * has {@link #MSG_DONTWAIT} and nothing is waiting. {@code state} holds errno.
     */
    public static long recv(int fd, MemorySegment buffer, long length, int flags, MemorySegment state) {
        try {
            while (true) {
                long n = (long) RECV.invokeExact(state, fd, buffer, length, flags);
                if (n >= 0) {
                    return n;
                }
                int errno = errno(state);
                if (errno == EAGAIN && (flags & MSG_DONTWAIT) != 0) {
                    return -1;
                }
                if (errno != EINTR) {
                    return checked("recv", n, state);
                }
            }
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    /**
     * Waits until {@code fd} is readable.
     *
     * @param timeoutMillis how long to wait; negative waits for ever
     * @param pollFd        storage for one {@code struct pollfd} ({@link #newPollFd})
     * @param state         storage for errno ({@link #newCallState})
     * @return whether it became readable (false on time-out)
     */
    public static boolean pollIn(int fd, int timeoutMillis, MemorySegment pollFd, MemorySegment state) {
        try {
            POLLFD_FD.set(pollFd, 0L, fd);
            POLLFD_EVENTS.set(pollFd, 0L, POLLIN);
            long deadline = System.nanoTime() + timeoutMillis * 1_000_000L;
            while (true) {
                POLLFD_REVENTS.set(pollFd, 0L, (short) 0);
                int wait = timeoutMillis < 0 ? -1 : (int) Math.max(0, (deadline - System.nanoTime()) / 1_000_000L);
                int n = (int) POLL.invokeExact(state, pollFd, 1L, wait);
                if (n < 0 && errno(state) == EINTR) {
                    continue;
                }
                checked("poll", n, state);
                return n > 0;
            }
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    /** {@link #pollIn(int, int, MemorySegment, MemorySegment)} with temporary storage. */
    public static boolean pollIn(int fd, int timeoutMillis) {
        try (Arena arena = Arena.ofConfined()) {
            return pollIn(fd, timeoutMillis, newPollFd(arena), state(arena));
        }
    }

    /** {@code open(2)}; returns the descriptor. */
    public static int open(String path, int flags) {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment st = state(arena);
            int fd = (int) OPEN.invokeExact(st, arena.allocateFrom(path), flags);
            if (fd < 0) {
                throw new SysException("open(" + path + ")", errno(st));
            }
            return fd;
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    /** {@code read(2)}; returns the bytes read. */
    public static long read(int fd, MemorySegment buffer, long length) {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment st = state(arena);
            while (true) {
                long n = (long) READ.invokeExact(st, fd, buffer, length);
                if (n >= 0 || errno(st) != EINTR) {
                    return checked("read", n, st);
                }
            }
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    /** {@code write(2)}; returns the bytes written. */
    public static long write(int fd, MemorySegment buffer, long length) {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment st = state(arena);
            while (true) {
                long n = (long) WRITE.invokeExact(st, fd, buffer, length);
                if (n >= 0 || errno(st) != EINTR) {
                    return checked("write", n, st);
                }
            }
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    /** {@code ioctl(2)} with a pointer argument; returns its result. */
    public static int ioctl(int fd, long request, MemorySegment argument, String name) {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment st = state(arena);
            return checked("ioctl(" + name + ")", (int) IOCTL.invokeExact(st, fd, request, argument), st);
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    /** {@code close(2)}. */
    public static void close(int fd) {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment st = state(arena);
            checked("close", (int) CLOSE.invokeExact(st, fd), st);
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    private static int checked(String call, int result, MemorySegment state) {
        if (result < 0) {
            throw new SysException(call, errno(state));
        }
        return result;
    }

    private static long checked(String call, long result, MemorySegment state) {
        if (result < 0) {
            throw new SysException(call, errno(state));
        }
        return result;
    }

    private static RuntimeException rethrow(Throwable t) {
        if (t instanceof RuntimeException r) {
            throw r;
        }
        if (t instanceof Error e) {
            throw e;
        }
        throw new IllegalStateException("unexpected checked exception from a downcall", t);
    }
}
