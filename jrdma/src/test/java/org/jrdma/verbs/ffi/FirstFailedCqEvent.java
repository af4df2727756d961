package org.jrdma.verbs.ffi;

import static java.lang.foreign.ValueLayout.ADDRESS;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import org.jrdma.ffi.Errors;
import org.jrdma.testkit.ThreadCounters;

/**
 * Run in a fresh JVM by {@link CompChannelFailurePathTest}: prints {@code ibv_get_cq_event BYTES},
 * the bytes the first failed {@code ibv_get_cq_event} made here allocates (a channel whose
 * descriptor is -1, as {@link IbvCompChannel}'s initialiser makes one), and {@code unavailable}
 * when libibverbs cannot be used in this JVM.
 */
public final class FirstFailedCqEvent {
    private FirstFailedCqEvent() {
    }

    /** Prints the bytes, or {@code unavailable}. */
    public static void main(String[] args) throws Throwable {
        if (Ibv.unavailabilityCause() != null) {
            System.out.println("unavailable");
            return;
        }
        try (Arena arena = Arena.ofConfined()) {
            // initialises IbvCompChannel before the count (linking its handles allocates megabytes)
            MemorySegment channel = IbvCompChannel.channelWithoutDescriptor(arena);
            MemorySegment state = Errors.callState(arena);
            MemorySegment cq = arena.allocate(ADDRESS);
            MemorySegment context = arena.allocate(ADDRESS);
            int[] result = new int[1];
            long bytes = ThreadCounters.allocatedBy(() -> {
                try {
                    result[0] = IbvCompChannel.takeEvent(channel, cq, context, state);
                } catch (Throwable t) {
                    throw new IllegalStateException(t);
                }
            });
            System.out.println("ibv_get_cq_event " + bytes + " result " + result[0] + " errno " + Errors.errno(state));
        }
    }
}
