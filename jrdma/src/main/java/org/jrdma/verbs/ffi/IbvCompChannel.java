package org.jrdma.verbs.ffi;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.MemorySegment;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.VarHandle;
import org.jrdma.ffi.Errors;
import org.jrdma.ffi.Invokers;
import org.jrdma.ffi.Libc;

/**
 * {@code struct ibv_comp_channel}: a completion event channel ({@code ibv_create_comp_channel},
 * {@code ibv_get_cq_event}, {@code ibv_ack_cq_events}, {@code ibv_destroy_comp_channel}).
 */
public final class IbvCompChannel extends NativeObject {
    private static final MethodHandle CREATE = Ibv.function("ibv_create_comp_channel",
            FunctionDescriptor.of(ADDRESS, ADDRESS), true);
    private static final MethodHandle DESTROY = Ibv.function("ibv_destroy_comp_channel",
            FunctionDescriptor.of(JAVA_INT, ADDRESS), false);
    private static final FunctionDescriptor GET_CQ_EVENT_TYPE = FunctionDescriptor.of(JAVA_INT, ADDRESS, ADDRESS, ADDRESS);
    private static final MethodHandle GET_CQ_EVENT = Ibv.function("ibv_get_cq_event", GET_CQ_EVENT_TYPE, true);
    /**
     * {@code ibv_get_cq_event} capturing no errno, tried first: capturing allocates per call
     * wherever C2 has not compiled the caller (see {@link org.jrdma.ffi.Libc}). A failed call
     * (its read of the channel failed) has taken no event, so it is made again with errno captured.
     */
    private static final MethodHandle GET_CQ_EVENT_PLAIN = Ibv.function("ibv_get_cq_event", GET_CQ_EVENT_TYPE, false);
    /** {@code ibv_ack_cq_events}, the CQ by address: the event's CQ is read as a number, making no segment. */
    private static final MethodHandle ACK_CQ_EVENTS = Ibv.function("ibv_ack_cq_events",
            FunctionDescriptor.ofVoid(JAVA_LONG, JAVA_INT), false);
    private static final VarHandle FD = Structs.handle(Structs.IBV_COMP_CHANNEL, "fd");

    private final int fd;
    /**
     * Storage made once for {@link #getCqEvent}: a {@code struct pollfd}, the errno of the
     * calls, and {@code ibv_get_cq_event}'s two out-parameters. In an automatic arena rather than
     * the object's, so that a close never finds it in use by a waiting thread. Guarded by this
     * object's lock.
     */
    private final MemorySegment pollFd;
    private final MemorySegment pollState;
    private final MemorySegment callState;
    private final MemorySegment eventCq;
    private final MemorySegment eventContext;

    private IbvCompChannel(MemorySegment raw, boolean confined) {
        super(raw, Structs.IBV_COMP_CHANNEL, "completion channel", confined);
        this.fd = (int) FD.get(ptr, 0L);
        Arena storage = Arena.ofAuto();
        this.pollFd = Libc.newPollFd(storage);
        this.pollState = Errors.callState(storage);
        this.callState = Errors.callState(storage);
        this.eventCq = storage.allocate(ADDRESS);
        this.eventContext = storage.allocate(ADDRESS);
    }

    /** {@code ibv_create_comp_channel}. */
    public static IbvCompChannel create(IbvContext context) {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment state = Errors.callState(arena);
            MemorySegment raw = (MemorySegment) CREATE.invokeExact(state, context.ptr);
            return new IbvCompChannel(Errors.nonNull("ibv_create_comp_channel", raw, state), context.isConfined());
        } catch (Throwable t) {
            throw Errors.rethrow(t);
        }
    }

    /** {@code channel->fd}: readable when a completion event is waiting. */
    public int fd() {
        return fd;
    }

    /**
     * Waits for a completion event ({@code ibv_get_cq_event}) and acknowledges it at once
     * ({@code ibv_ack_cq_events(cq, 1)}), so that destroying the CQ never waits for it.
     *
     * @param timeoutMillis how long to wait; negative waits for ever
     * @return the address of the {@code struct ibv_cq} that has completions, or 0 on time-out
     * Allocates nothing; callers take turns.
     *
     * @throws IllegalStateException if this object is closed, also by another thread during the wait
     */
    public synchronized long getCqEvent(int timeoutMillis) {
        if (!awaitReadable(fd, timeoutMillis, pollFd, pollState)) {
            return 0;
        }
        try {
            Errors.notMinusOne("ibv_get_cq_event", takeEvent(ptr, eventCq, eventContext, callState), callState);
            long cq = eventCq.get(JAVA_LONG, 0);
            ACK_CQ_EVENTS.invokeExact(cq, 1);
            return cq;
        } catch (Throwable t) {
            throw Errors.rethrow(t);
        }
    }

    /**
     * {@code ibv_get_cq_event(channel, cq, context)}: through the handle that captures nothing,
     * and once more with errno captured into {@code state} if that returned -1; returns the result.
     */
    static int takeEvent(MemorySegment channel, MemorySegment cq, MemorySegment context, MemorySegment state)
            throws Throwable {
        int result = (int) GET_CQ_EVENT_PLAIN.invokeExact(channel, cq, context);
        if (result == -1) {
            result = (int) GET_CQ_EVENT.invokeExact(state, channel, cq, context);
        }
        return result;
    }

    /** A {@code struct ibv_comp_channel} in {@code arena} with no context and descriptor -1: every read of it fails. */
    static MemorySegment channelWithoutDescriptor(Arena arena) {
        MemorySegment channel = arena.allocate(Structs.IBV_COMP_CHANNEL);
        FD.set(channel, 0L, -1);
        return channel;
    }

    /**
     * Takes an event from a channel whose descriptor is -1, made here: libibverbs' read of it
     * fails ({@code EBADF}) before anything else of the channel is used, so that the JDK links
     * {@link #takeEvent}'s errno-capturing call site now, not in the first thread whose call fails
     * (as {@link org.jrdma.ffi.Libc} links its own: a first link spins hundreds of kilobytes of
     * method-handle classes).
     */
    private static void linkFailurePath() {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment state = Errors.callState(arena);
            if (takeEvent(channelWithoutDescriptor(arena), arena.allocate(ADDRESS), arena.allocate(ADDRESS), state) != -1) {
                throw new IllegalStateException("ibv_get_cq_event on descriptor -1 did not fail");
            }
        } catch (Throwable t) {
            throw Errors.rethrow(t);
        }
    }

    static {
        linkFailurePath();
    }

    /**
     * Has the JDK customize the invokers of taking a completion event ({@code ibv_get_cq_event},
     * both handles) and acknowledging it ({@code ibv_ack_cq_events}) now, rather than at an event
     * loop's 128th sleep ({@link Invokers}): the event is taken {@link Invokers#CUSTOMIZE_CALLS}
     * times from a channel whose descriptor is -1 (the read fails at once), and none acknowledged
     * on {@code cq}, an open queue's address (adding 0 to its count changes nothing).
     */
    public static void customizeInvokers(long cq) {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment state = Errors.callState(arena);
            MemorySegment channel = channelWithoutDescriptor(arena);
            MemorySegment eventCq = arena.allocate(ADDRESS);
            MemorySegment eventContext = arena.allocate(ADDRESS);
            Invokers.customize(() -> {
                int plain = (int) GET_CQ_EVENT_PLAIN.invokeExact(channel, eventCq, eventContext);
                int capturing = (int) GET_CQ_EVENT.invokeExact(state, channel, eventCq, eventContext);
                ACK_CQ_EVENTS.invokeExact(cq, 0);
            });
        }
    }

    @Override
    void destroy(MemorySegment raw) {
        try {
            Errors.zero("ibv_destroy_comp_channel", (int) DESTROY.invokeExact(raw));
        } catch (Throwable t) {
            throw Errors.rethrow(t);
        }
    }
}
