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
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.VarHandle;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.jrdma.SysException;
import org.jrdma.iba.UntrustedText;

/**
 * Downcalls into the C library with errno captured. Every method returns the C result when it
 * succeeds and throws {@link SysException} through {@link Errors} when the call returns -1.
 * {@code EINTR} is retried.
 *
 * <p>The calls made often ({@code poll}, {@code send}, {@code recv}, {@code read}, {@code write})
 * go first through a handle that captures nothing, and only a call that returned -1 is made again
 * with errno captured, to learn why. Capturing costs an allocation per call wherever C2 has not
 * compiled the caller: the JDK slices the call-state segment on every call
 * ({@code SharedUtils.checkCaptureSegment} in JDK 25), which only C2's escape analysis removes, so
 * an idle thread's loop, never hot enough for C2, allocated about 40 bytes a call. Making a
 * failed call again is sound for these calls: one that returns -1 has done nothing, so the second
 * call is the call, and its result (a success, if the cause went away meanwhile) is returned.
 *
 * <p>Symbols are resolved in the process's global scope, {@code dlsym(RTLD_DEFAULT, name)}, as
 * the dynamic linker binds a C program's calls: a library preloaded with {@code LD_PRELOAD} that
 * defines {@code open}, {@code read}, {@code opendir}... (libumad2sim, which turns
 * {@code /dev/infiniband/umadN} and the InfiniBand sysfs folders into a node of an ibsim fabric)
 * is called instead of libc's own. The JDK's default lookup would find libc's definitions
 * directly; it is used only where the C library has no {@code dlsym}.
 */
public final class Libc {
    /** {@code AF_UNIX} from {@code <sys/socket.h>}. */
    public static final int AF_UNIX = 1;
    /** {@code SOCK_DGRAM}. */
    public static final int SOCK_DGRAM = 2;
    /** {@code SOCK_CLOEXEC}. */
    public static final int SOCK_CLOEXEC = 0x80000;
    /** {@code POLLIN} from {@code <poll.h>}: there is data to read. */
    public static final short POLLIN = 0x1;
    /** {@code POLLERR}: an error condition (reported whatever the events asked for). */
    public static final short POLLERR = 0x8;
    /** {@code POLLHUP}: hang up (reported whatever the events asked for). */
    public static final short POLLHUP = 0x10;
    /** {@code POLLNVAL}: the descriptor is not open (reported whatever the events asked for). */
    public static final short POLLNVAL = 0x20;
    /** {@code O_RDONLY} from {@code <fcntl.h>}. */
    public static final int O_RDONLY = 0;
    /** {@code O_CLOEXEC}: the descriptor is not inherited by programs this process executes. */
    public static final int O_CLOEXEC = 0x80000;
    /** {@code ENOENT}: no such file or directory. */
    public static final int ENOENT = 2;
    /** {@code EINTR}. */
    public static final int EINTR = 4;
    /** {@code EAGAIN}. */
    public static final int EAGAIN = 11;
    /** {@code MSG_DONTWAIT}: a receive that returns EAGAIN instead of blocking. */
    public static final int MSG_DONTWAIT = 0x40;
    /** {@code EFD_NONBLOCK} from {@code <sys/eventfd.h>}: reads return EAGAIN instead of blocking. */
    public static final int EFD_NONBLOCK = 0x800;
    /** {@code EFD_CLOEXEC}: the descriptor is not inherited by programs this process executes. */
    public static final int EFD_CLOEXEC = 0x80000;

    /** {@code struct pollfd}: int fd; short events; short revents. */
    public static final StructLayout POLLFD = MemoryLayout.structLayout(
            JAVA_INT.withName("fd"), JAVA_SHORT.withName("events"), JAVA_SHORT.withName("revents"));
    private static final VarHandle POLLFD_FD = POLLFD.varHandle(MemoryLayout.PathElement.groupElement("fd"));
    private static final VarHandle POLLFD_EVENTS = POLLFD.varHandle(MemoryLayout.PathElement.groupElement("events"));
    private static final VarHandle POLLFD_REVENTS = POLLFD.varHandle(MemoryLayout.PathElement.groupElement("revents"));
    private static final long NANOS_PER_MILLI = 1_000_000L;

    private static final Linker LINKER = Linker.nativeLinker();
    /** {@code RTLD_DEFAULT} from {@code <dlfcn.h>}: search the global scope, in load order. */
    private static final MemorySegment RTLD_DEFAULT = MemorySegment.NULL;
    /** {@code dlsym(3)}, or null if the C library has none. */
    private static final MethodHandle DLSYM = dlsym();

    private static final MethodHandle SOCKET = downcall("socket", FunctionDescriptor.of(JAVA_INT, JAVA_INT, JAVA_INT, JAVA_INT));
    private static final MethodHandle BIND = downcall("bind", FunctionDescriptor.of(JAVA_INT, JAVA_INT, ADDRESS, JAVA_INT));
    private static final MethodHandle CONNECT = downcall("connect", FunctionDescriptor.of(JAVA_INT, JAVA_INT, ADDRESS, JAVA_INT));
    private static final FunctionDescriptor SEND_TYPE = FunctionDescriptor.of(JAVA_LONG, JAVA_INT, ADDRESS, JAVA_LONG, JAVA_INT);
    private static final MethodHandle SEND = downcall("send", SEND_TYPE);
    private static final MethodHandle SEND_PLAIN = plainDowncall("send", SEND_TYPE);
    private static final MethodHandle RECV = downcall("recv", SEND_TYPE);
    private static final MethodHandle RECV_PLAIN = plainDowncall("recv", SEND_TYPE);
    private static final FunctionDescriptor POLL_TYPE = FunctionDescriptor.of(JAVA_INT, ADDRESS, JAVA_LONG, JAVA_INT);
    private static final MethodHandle POLL = downcall("poll", POLL_TYPE);
    private static final MethodHandle POLL_PLAIN = plainDowncall("poll", POLL_TYPE);
    private static final MethodHandle CLOSE = downcall("close", FunctionDescriptor.of(JAVA_INT, JAVA_INT));
    /** Where {@code d_name} starts in glibc's 64-bit {@code struct dirent}: after d_ino, d_off, d_reclen, d_type. */
    private static final long DIRENT_NAME_OFFSET = 19;
    /** The size of {@code d_name}, NUL included. */
    private static final long DIRENT_NAME_SIZE = 256;

    /**
     * The calls on files and folders (the device files {@code /dev/infiniband/umad*}, {@code issm*},
     * and sysfs), linked when one is first made: a downcall handle costs a cold process several
     * milliseconds to link (its stub is generated then), and a process that talks to ibsim over
     * sockets makes none of these calls.
     */
    private static final class DeviceCalls {
        static final MethodHandle OPEN = downcall("open", FunctionDescriptor.of(JAVA_INT, ADDRESS, JAVA_INT));
        static final FunctionDescriptor READ_TYPE = FunctionDescriptor.of(JAVA_LONG, JAVA_INT, ADDRESS, JAVA_LONG);
        static final MethodHandle READ = downcall("read", READ_TYPE);
        static final MethodHandle READ_PLAIN = plainDowncall("read", READ_TYPE);
        static final MethodHandle WRITE = downcall("write", READ_TYPE);
        static final MethodHandle WRITE_PLAIN = plainDowncall("write", READ_TYPE);
        static final MethodHandle IOCTL = downcall("ioctl", FunctionDescriptor.of(JAVA_INT, JAVA_INT, JAVA_LONG, ADDRESS),
                Linker.Option.firstVariadicArg(2));
        static final MethodHandle OPENDIR = downcall("opendir", FunctionDescriptor.of(ADDRESS, ADDRESS));
        static final MethodHandle READDIR = downcall("readdir", FunctionDescriptor.of(ADDRESS, ADDRESS));
        static final MethodHandle CLOSEDIR = downcall("closedir", FunctionDescriptor.of(JAVA_INT, ADDRESS));
        static final MethodHandle EVENTFD = downcall("eventfd", FunctionDescriptor.of(JAVA_INT, JAVA_INT, JAVA_INT));

        static {
            try (Arena arena = Arena.ofConfined()) {
                MemorySegment state = Errors.callState(arena);
                MemorySegment buffer = arena.allocate(Long.BYTES);
                failOnce(() -> read(-1, buffer, Long.BYTES, state)); // EBADF
                failOnce(() -> write(-1, buffer, Long.BYTES, state));
            }
        }

        private DeviceCalls() {
        }
    }

    /*
     * The often-made calls' errno-capturing call sites are linked here, while this class is
     * initialised, rather than in the first thread whose call fails: linking a call site spins
     * method-handle classes, hundreds of kilobytes the first time (FirstFailedCalls measured 527 KB
     * for poll's, 267 KB for send's and read's), which an endpoint group's thread, allocation-free
     * otherwise, allocated when its poll(2) was first interrupted (EINTR) in a benchmark's timed
     * loop. send, recv, read and write are made to fail once on descriptor -1 (EBADF), through the
     * whole of their methods. poll cannot be made to fail harmlessly where libumad2sim is preloaded
     * (its wrapper reads every entry, so an entry at a bad address crashes the process): its
     * capturing call is made once, in a method of its own, on one entry whose descriptor is -1
     * (ignored), and the errno it would read once.
     */
    static {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment state = Errors.callState(arena);
            MemorySegment buffer = arena.allocate(Long.BYTES);
            MemorySegment ignored = ignoredPollFd(arena);
            pollCapturing(state, ignored, 1, 0);
            Errors.errno(state);
            failOnce(() -> send(-1, buffer, Long.BYTES, state));
            failOnce(() -> recv(-1, buffer, Long.BYTES, 0, state));
        } catch (Throwable t) {
            throw Errors.rethrow(t);
        }
    }

    /**
     * Has the JDK customize the invokers of the calls a waiting thread repeats, {@code poll},
     * {@code read}, {@code write}, {@code send} and {@code recv}, each through both its handles
     * (errno captured or not), now rather than at their 128th call in a loop ({@link Invokers}):
     * each is made {@link Invokers#CUSTOMIZE_CALLS} times on descriptor -1, which fails at once
     * ({@code EBADF}; poll ignores such an entry). Once a process; later calls return at once.
     */
    public static void customizeInvokers() {
        WaitCallsCustomized.done();
    }

    /** Customizes {@link #customizeInvokers}' calls while it is initialised, once. */
    private static final class WaitCallsCustomized {
        static {
            try (Arena arena = Arena.ofConfined()) {
                MemorySegment state = Errors.callState(arena);
                MemorySegment buffer = arena.allocate(Long.BYTES);
                MemorySegment ignored = ignoredPollFd(arena);
                long size = Long.BYTES;
                // invokeExact needs each result's exact type, so each is assigned and dropped
                Invokers.customize(() -> {
                    int plain = (int) POLL_PLAIN.invokeExact(ignored, 1L, 0);
                    int capturing = (int) POLL.invokeExact(state, ignored, 1L, 0);
                });
                Invokers.customize(() -> {
                    long plainRead = (long) DeviceCalls.READ_PLAIN.invokeExact(-1, buffer, size);
                    long capturingRead = (long) DeviceCalls.READ.invokeExact(state, -1, buffer, size);
                    long plainWrite = (long) DeviceCalls.WRITE_PLAIN.invokeExact(-1, buffer, size);
                    long capturingWrite = (long) DeviceCalls.WRITE.invokeExact(state, -1, buffer, size);
                });
                Invokers.customize(() -> {
                    long plainSend = (long) SEND_PLAIN.invokeExact(-1, buffer, size, 0);
                    long capturingSend = (long) SEND.invokeExact(state, -1, buffer, size, 0);
                    long plainRecv = (long) RECV_PLAIN.invokeExact(-1, buffer, size, 0);
                    long capturingRecv = (long) RECV.invokeExact(state, -1, buffer, size, 0);
                });
            }
        }

        static void done() {
            // initialising the class did the work
        }
    }

    /** A one-entry {@code struct pollfd} array in {@code arena} whose descriptor is -1: poll ignores it and returns at once. */
    private static MemorySegment ignoredPollFd(Arena arena) {
        MemorySegment ignored = newPollFd(arena);
        pollFd(ignored, 0, -1, POLLIN);
        return ignored;
    }

    /** Makes {@code call}, which must fail (throw {@link SysException}), for the call sites it links. */
    private static void failOnce(Runnable call) {
        try {
            call.run();
        } catch (SysException expected) {
            return;
        }
        throw new IllegalStateException("a call made to fail succeeded");
    }

    private static int pollCapturing(MemorySegment state, MemorySegment pollFds, long count, int wait) throws Throwable {
        return (int) POLL.invokeExact(state, pollFds, count, wait);
    }

    private Libc() {
    }

    /** A handle on the C library's {@code name}; the launcher grants this module native access. */
    @SuppressWarnings("restricted")
    private static MethodHandle downcall(String name, FunctionDescriptor descriptor, Linker.Option... extra) {
        Linker.Option[] options = new Linker.Option[extra.length + 1];
        options[0] = Errors.CAPTURE_ERRNO;
        System.arraycopy(extra, 0, options, 1, extra.length);
        return LINKER.downcallHandle(symbol(name), descriptor, options);
    }

    /**
     * A handle on the C library's {@code name} that captures no errno, for the first try of a
     * frequent call (see the class comment).
     */
    @SuppressWarnings("restricted")
    private static MethodHandle plainDowncall(String name, FunctionDescriptor descriptor) {
        return LINKER.downcallHandle(symbol(name), descriptor);
    }

    /** A handle on {@code dlsym(3)} from the JDK's default lookup, or null if the C library has none. */
    @SuppressWarnings("restricted")
    private static MethodHandle dlsym() {
        return LINKER.defaultLookup().find("dlsym")
                .map(symbol -> LINKER.downcallHandle(symbol, FunctionDescriptor.of(ADDRESS, ADDRESS, ADDRESS)))
                .orElse(null);
    }

    /**
     * The address {@code name} has in the global scope ({@code dlsym(RTLD_DEFAULT, name)}), if a
     * library loaded in this process defines it; empty where the C library has no {@code dlsym}.
     */
    public static Optional<MemorySegment> findGlobal(String name) {
        if (DLSYM == null) {
            return Optional.empty();
        }
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment address = (MemorySegment) DLSYM.invokeExact(RTLD_DEFAULT, arena.allocateFrom(name));
            return address.address() == 0 ? Optional.empty() : Optional.of(address);
        } catch (Throwable t) {
            throw Errors.rethrow(t);
        }
    }

    /**
     * The address {@code name} has in the global scope ({@code dlsym(RTLD_DEFAULT, name)}), so
     * that a preloaded definition wins; the JDK's default lookup where there is no {@code dlsym}.
     *
     * @throws UnsatisfiedLinkError if neither finds it
     */
    private static MemorySegment symbol(String name) {
        return findGlobal(name).or(() -> LINKER.defaultLookup().find(name))
                .orElseThrow(() -> new UnsatisfiedLinkError("the C library has no " + name));
    }

    /** Storage for one {@code struct pollfd}. */
    public static MemorySegment newPollFd(Arena arena) {
        return arena.allocate(POLLFD);
    }

    /** Sets entry {@code index} of an array of {@code struct pollfd} to wait for {@code events} on {@code fd}. */
    public static void pollFd(MemorySegment pollFds, long index, int fd, short events) {
        long offset = index * POLLFD.byteSize();
        POLLFD_FD.set(pollFds, offset, fd);
        POLLFD_EVENTS.set(pollFds, offset, events);
        POLLFD_REVENTS.set(pollFds, offset, (short) 0);
    }

    /** The {@code revents} that {@link #poll} left in entry {@code index} of {@code pollFds}. */
    public static short revents(MemorySegment pollFds, long index) {
        return (short) POLLFD_REVENTS.get(pollFds, index * POLLFD.byteSize());
    }

    /** {@code socket(2)}. */
    public static int socket(int domain, int type, int protocol) {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment st = Errors.callState(arena);
            return Errors.notMinusOne("socket", (int) SOCKET.invokeExact(st, domain, type, protocol), st);
        } catch (Throwable t) {
            throw Errors.rethrow(t);
        }
    }

    /** {@code bind(2)}. */
    public static void bind(int fd, MemorySegment address, int length) {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment st = Errors.callState(arena);
            Errors.notMinusOne("bind", (int) BIND.invokeExact(st, fd, address, length), st);
        } catch (Throwable t) {
            throw Errors.rethrow(t);
        }
    }

    /** {@code connect(2)}. */
    public static void connect(int fd, MemorySegment address, int length) {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment st = Errors.callState(arena);
            Errors.notMinusOne("connect", (int) CONNECT.invokeExact(st, fd, address, length), st);
        } catch (Throwable t) {
            throw Errors.rethrow(t);
        }
    }

    /** {@code send(2)} of {@code length} bytes; returns the bytes sent. {@code state} holds errno. */
    public static long send(int fd, MemorySegment buffer, long length, MemorySegment state) {
        try {
            while (true) {
                long n = (long) SEND_PLAIN.invokeExact(fd, buffer, length, 0);
                if (n == -1) {
                    n = (long) SEND.invokeExact(state, fd, buffer, length, 0);
                }
                if (n != -1 || Errors.errno(state) != EINTR) {
                    return Errors.notMinusOne("send", n, state);
                }
            }
        } catch (Throwable t) {
            throw Errors.rethrow(t);
        }
    }

    /**
     * {@code recv(2)} into {@code buffer}; returns the bytes received, or -1 when {@code flags}
     * has {@link #MSG_DONTWAIT} and nothing is waiting. {@code state} holds errno.
     */
    public static long recv(int fd, MemorySegment buffer, long length, int flags, MemorySegment state) {
        try {
            while (true) {
                long n = (long) RECV_PLAIN.invokeExact(fd, buffer, length, flags);
                if (n == -1) {
                    n = (long) RECV.invokeExact(state, fd, buffer, length, flags);
                }
                if (n != -1) {
                    return n;
                }
                int errno = Errors.errno(state);
                if (errno == EAGAIN && (flags & MSG_DONTWAIT) != 0) {
                    return -1;
                }
                if (errno != EINTR) {
                    return Errors.notMinusOne("recv", n, state);
                }
            }
        } catch (Throwable t) {
            throw Errors.rethrow(t);
        }
    }

    /**
     * {@code poll(2)} on entries 0 to {@code count - 1} of {@code pollFds} (set by
     * {@link #pollFd}; a negative descriptor is ignored), retried on {@code EINTR} with what is
     * left of the timeout. Allocates nothing.
     *
     * @param timeoutMillis how long to wait; negative waits for ever
     * @param state         storage for errno ({@link Errors#callState})
     * @return how many entries have {@link #revents}, 0 on time-out
     */
    public static int poll(MemorySegment pollFds, long count, int timeoutMillis, MemorySegment state) {
        long deadline = System.nanoTime() + timeoutMillis * NANOS_PER_MILLI;
        int wait = timeoutMillis;
        try {
            while (true) {
                int n = (int) POLL_PLAIN.invokeExact(pollFds, count, wait);
                if (n == -1) {
                    wait = waitLeft(timeoutMillis, deadline);
                    n = pollCapturing(state, pollFds, count, wait);
                }
                if (n != -1 || Errors.errno(state) != EINTR) {
                    return Errors.notMinusOne("poll", n, state);
                }
                wait = waitLeft(timeoutMillis, deadline);
            }
        } catch (Throwable t) {
            throw Errors.rethrow(t);
        }
    }

    /** What is left until {@code deadline} of a poll's timeout, in whole milliseconds; negative (for ever) stays so. */
    private static int waitLeft(int timeoutMillis, long deadline) {
        if (timeoutMillis < 0) {
            return timeoutMillis;
        }
        long left = Math.max(0, deadline - System.nanoTime());
        return (int) Math.min(Integer.MAX_VALUE, Math.ceilDiv(left, NANOS_PER_MILLI));
    }

    /**
     * Waits until {@code fd} is readable, or a read would not block for another reason
     * ({@link #POLLERR}, {@link #POLLHUP}, {@link #POLLNVAL}).
     *
     * @param timeoutMillis how long to wait; negative waits for ever
     * @param pollFd        storage for one {@code struct pollfd} ({@link #newPollFd})
     * @param state         storage for errno ({@link Errors#callState})
     * @return whether it became readable (false on time-out)
     */
    public static boolean pollIn(int fd, int timeoutMillis, MemorySegment pollFd, MemorySegment state) {
        pollFd(pollFd, 0, fd, POLLIN);
        return poll(pollFd, 1, timeoutMillis, state) > 0;
    }

    /** {@link #pollIn(int, int, MemorySegment, MemorySegment)} with temporary storage. */
    public static boolean pollIn(int fd, int timeoutMillis) {
        try (Arena arena = Arena.ofConfined()) {
            return pollIn(fd, timeoutMillis, newPollFd(arena), Errors.callState(arena));
        }
    }

    /** {@code eventfd(2)}: a counter readable while it is not zero; returns the descriptor. */
    public static int eventfd(int initval, int flags) {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment st = Errors.callState(arena);
            return Errors.notMinusOne("eventfd", (int) DeviceCalls.EVENTFD.invokeExact(st, initval, flags), st);
        } catch (Throwable t) {
            throw Errors.rethrow(t);
        }
    }

    /** {@code open(2)}; returns the descriptor. The exception's message quotes the path. */
    public static int open(String path, int flags) {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment st = Errors.callState(arena);
            int fd = (int) DeviceCalls.OPEN.invokeExact(st, arena.allocateFrom(path), flags);
            return Errors.notMinusOne("open", fd, st, "path " + UntrustedText.quote(path));
        } catch (Throwable t) {
            throw Errors.rethrow(t);
        }
    }

    /**
     * {@code read(2)}; returns the bytes read, or -1 when {@code fd} is non-blocking and nothing
     * is waiting ({@code EAGAIN}).
     */
    public static long read(int fd, MemorySegment buffer, long length) {
        try (Arena arena = Arena.ofConfined()) {
            return read(fd, buffer, length, Errors.callState(arena));
        }
    }

    /**
     * {@link #read(int, MemorySegment, long)} with {@code state} ({@link Errors#callState}) for
     * errno, made once by the caller: allocates nothing.
     */
    public static long read(int fd, MemorySegment buffer, long length, MemorySegment state) {
        try {
            while (true) {
                long n = (long) DeviceCalls.READ_PLAIN.invokeExact(fd, buffer, length);
                if (n == -1) {
                    n = (long) DeviceCalls.READ.invokeExact(state, fd, buffer, length);
                }
                if (n != -1 || Errors.errno(state) == EAGAIN) {
                    return n;
                }
                if (Errors.errno(state) != EINTR) {
                    return Errors.notMinusOne("read", n, state);
                }
            }
        } catch (Throwable t) {
            throw Errors.rethrow(t);
        }
    }

    /** {@code write(2)}; returns the bytes written. */
    public static long write(int fd, MemorySegment buffer, long length) {
        try (Arena arena = Arena.ofConfined()) {
            return write(fd, buffer, length, Errors.callState(arena));
        }
    }

    /**
     * {@link #write(int, MemorySegment, long)} with {@code state} ({@link Errors#callState}) for
     * errno, made once by the caller: allocates nothing.
     */
    public static long write(int fd, MemorySegment buffer, long length, MemorySegment state) {
        try {
            while (true) {
                long n = (long) DeviceCalls.WRITE_PLAIN.invokeExact(fd, buffer, length);
                if (n == -1) {
                    n = (long) DeviceCalls.WRITE.invokeExact(state, fd, buffer, length);
                }
                if (n != -1 || Errors.errno(state) != EINTR) {
                    return Errors.notMinusOne("write", n, state);
                }
            }
        } catch (Throwable t) {
            throw Errors.rethrow(t);
        }
    }

    /**
     * {@code ioctl(2)} with a pointer argument; returns its result. The exception's message
     * names the request: {@code name}, for example {@code IB_USER_MAD_ENABLE_PKEY}.
     */
    public static int ioctl(int fd, long request, MemorySegment argument, String name) {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment st = Errors.callState(arena);
            return Errors.notMinusOne("ioctl", (int) DeviceCalls.IOCTL.invokeExact(st, fd, request, argument), st, "request " + name);
        } catch (Throwable t) {
            throw Errors.rethrow(t);
        }
    }

    /** {@code close(2)}. */
    public static void close(int fd) {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment st = Errors.callState(arena);
            Errors.notMinusOne("close", (int) CLOSE.invokeExact(st, fd), st);
        } catch (Throwable t) {
            throw Errors.rethrow(t);
        }
    }

    /**
     * The first {@code limit} bytes of a file, or all of it if it is shorter, with
     * {@link #open}, {@link #read} and {@link #close}: the calls a C program reads a sysfs
     * attribute with. The exception's message quotes the path.
     */
    public static byte[] readFile(String path, int limit) {
        int fd = open(path, O_RDONLY | O_CLOEXEC);
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment buffer = arena.allocate(Math.max(1, limit));
            long size = 0;
            while (size < limit) {
                long n = read(fd, buffer.asSlice(size), limit - size);
                if (n <= 0) {
                    break;
                }
                size += n;
            }
            return buffer.asSlice(0, size).toArray(ValueLayout.JAVA_BYTE);
        } finally {
            close(fd);
        }
    }

    /**
     * The names in a directory ({@code opendir(3)}, {@code readdir(3)}, {@code closedir(3)}), in
     * the order the directory gives them, without {@code .} and {@code ..}; {@code readdir}
     * returning {@code NULL} ends the list (its errors, a directory removed while read, cannot be
     * told apart from the end without clearing {@code errno} first). The exception's message
     * quotes the path.
     */
    @SuppressWarnings("restricted")
    public static List<String> listDirectory(String path) {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment st = Errors.callState(arena);
            String detail = "path " + UntrustedText.quote(path);
            MemorySegment dir = Errors.nonNull("opendir", (MemorySegment) DeviceCalls.OPENDIR.invokeExact(st, arena.allocateFrom(path)), st, detail);
            List<String> names = new ArrayList<>();
            try {
                for (MemorySegment entry = (MemorySegment) DeviceCalls.READDIR.invokeExact(st, dir); entry.address() != 0;
                        entry = (MemorySegment) DeviceCalls.READDIR.invokeExact(st, dir)) {
                    String name = entry.reinterpret(DIRENT_NAME_OFFSET + DIRENT_NAME_SIZE).getString(DIRENT_NAME_OFFSET);
                    if (!name.equals(".") && !name.equals("..")) {
                        names.add(name);
                    }
                }
            } finally {
                Errors.notMinusOne("closedir", (int) DeviceCalls.CLOSEDIR.invokeExact(st, dir), st, detail);
            }
            return names;
        } catch (Throwable t) {
            throw Errors.rethrow(t);
        }
    }
}
