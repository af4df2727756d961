package org.jrdma.ffi;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.locks.ReentrantLock;

/**
 * A connected Unix-domain datagram socket in the Linux abstract namespace (names that start with
 * a NUL byte and never touch the file system). The JDK has no AF_UNIX datagram sockets, and ibsim
 * speaks its client protocol over them.
 *
 * <p>Datagrams go in and out as {@code byte[]}, copied through native buffers the socket owns; one
 * thread may receive while any number send. Senders never wait for each other: a datagram whose
 * sender finds another send under way is queued, and the thread sending sends it next, so many
 * virtual threads sending at once do not park on a lock (a park copies the thread's stack to the
 * heap). A failure to send is thrown by the thread that sends, which may be one whose own
 * datagram went out before. Closing twice is harmless; use after close throws
 * {@link IllegalStateException}.
 */
public final class UnixDatagramSocket implements AutoCloseable {
    /** The largest datagram this socket sends or receives. */
    public static final int MAX_DATAGRAM = 4096;
    private static final int MAX_NAME = 107;

    private final int fd;
    private final Arena arena = Arena.ofShared();
    private final MemorySegment sendBuffer = arena.allocate(MAX_DATAGRAM);
    private final MemorySegment receiveBuffer = arena.allocate(MAX_DATAGRAM);
    private final MemorySegment sendState = Errors.callState(arena);
    private final MemorySegment receiveState = Errors.callState(arena);
    private final MemorySegment pollFd = Libc.newPollFd(arena);
    private final ReentrantLock sendLock = new ReentrantLock();
    private final ReentrantLock receiveLock = new ReentrantLock();
    /** Datagrams whose senders found a send under way, sent by whoever holds {@link #sendLock}. */
    private final Queue<byte[]> queued = new ConcurrentLinkedQueue<>();
    private final AtomicBoolean closed = new AtomicBoolean();

    private UnixDatagramSocket(int fd) {
        this.fd = fd;
    }

    /** A new unbound socket. */
    public static UnixDatagramSocket open() {
        return new UnixDatagramSocket(Libc.socket(Libc.AF_UNIX, Libc.SOCK_DGRAM | Libc.SOCK_CLOEXEC, 0));
    }

    /** Binds to the abstract name {@code @name}. */
    public UnixDatagramSocket bind(String name) {
        try (Arena a = Arena.ofConfined()) {
            MemorySegment address = address(a, name);
            Libc.bind(fd, address, (int) address.byteSize());
        }
        return this;
    }

    /** Connects to the abstract name {@code @name}: sends go there, and only its datagrams are received. */
    public UnixDatagramSocket connect(String name) {
        try (Arena a = Arena.ofConfined()) {
            MemorySegment address = address(a, name);
            Libc.connect(fd, address, (int) address.byteSize());
        }
        return this;
    }

    /**
     * Sends the first {@code length} bytes of {@code data} as one datagram, now or, when another
     * thread is sending, by that thread right after its own (then from a copy).
     */
    public void send(byte[] data, int length) {
        if (length < 0 || length > Math.min(data.length, MAX_DATAGRAM)) {
            throw new IllegalArgumentException("datagram length " + length + " outside 0.." + Math.min(data.length, MAX_DATAGRAM));
        }
        checkOpen();
        if (sendLock.tryLock()) {
            try {
                sendNow(data, length);
            } finally {
                sendLock.unlock();
            }
        } else {
            queued.add(Arrays.copyOf(data, length));
        }
        // A datagram queued while we held the lock is ours to send: its sender's tryLock failed.
        while (!queued.isEmpty() && sendLock.tryLock()) {
            try {
                for (byte[] next = queued.poll(); next != null; next = queued.poll()) {
                    sendNow(next, next.length);
                }
            } finally {
                sendLock.unlock();
            }
        }
    }

    private void sendNow(byte[] data, int length) {
        checkOpen();
        MemorySegment.copy(data, 0, sendBuffer, ValueLayout.JAVA_BYTE, 0, length);
        long sent = Libc.send(fd, sendBuffer, length, sendState);
        if (sent != length) {
            throw new IllegalStateException("sent " + sent + " of a " + length + "-byte datagram");
        }
    }

    /**
     * Receives one datagram into {@code into} (bytes beyond its length are dropped).
     *
     * @param timeoutMillis how long to wait; negative waits for ever
     * @return the datagram's length, or -1 if none came in time
     */
    public int receive(byte[] into, int timeoutMillis) {
        receiveLock.lock();
        try {
            checkOpen();
            // Take a waiting datagram at once; poll only when there is none.
            int n = (int) Libc.recv(fd, receiveBuffer, MAX_DATAGRAM, Libc.MSG_DONTWAIT, receiveState);
            if (n < 0) {
                if (!Libc.pollIn(fd, timeoutMillis, pollFd, receiveState)) {
                    return -1;
                }
                n = (int) Libc.recv(fd, receiveBuffer, MAX_DATAGRAM, 0, receiveState);
            }
            MemorySegment.copy(receiveBuffer, ValueLayout.JAVA_BYTE, 0, into, 0, Math.min(n, into.length));
            return n;
        } finally {
            receiveLock.unlock();
        }
    }

    /** Whether {@link #close()} was called. */
    public boolean isClosed() {
        return closed.get();
    }

    /**
     * Closes the descriptor. A thread blocked in {@link #receive} keeps its buffers until it
     * returns; the memory is released once both are idle.
     */
    @Override
    public void close() {
        if (closed.compareAndSet(false, true)) {
            Libc.close(fd);
            sendLock.lock();
            receiveLock.lock();
            try {
                arena.close();
            } finally {
                receiveLock.unlock();
                sendLock.unlock();
            }
        }
    }

    private void checkOpen() {
        if (closed.get()) {
            throw new IllegalStateException("socket is closed");
        }
    }

    /**
     * A {@code sockaddr_un} for an abstract name: a NUL, the name, and a terminating NUL, which
     * counts as part of the name (ibsim 0.10 names its sockets that way, and abstract names match
     * only byte for byte, length included).
     */
    private static MemorySegment address(Arena a, String name) {
        byte[] bytes = name.getBytes(StandardCharsets.UTF_8);
        if (bytes.length == 0 || bytes.length > MAX_NAME - 1) {
            throw new IllegalArgumentException("abstract socket names are 1.." + (MAX_NAME - 1) + " bytes: " + name);
        }
        MemorySegment sa = a.allocate(2 + 1 + bytes.length + 1, 2);
        sa.set(ValueLayout.JAVA_SHORT, 0, (short) Libc.AF_UNIX);
        MemorySegment.copy(bytes, 0, sa, ValueLayout.JAVA_BYTE, 3, bytes.length);
        return sa;
    }
}
