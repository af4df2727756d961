package org.jrdma.ffi;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import org.jrdma.testkit.ThreadCounters;

/**
 * Run in a fresh JVM by {@link LibcAllocationTest}: prints the bytes that {@value #ROUNDS} rounds
 * of a waiting thread's calls allocate ({@code poll} of an eventfd, its {@code write} and its
 * {@code read} until {@code EAGAIN}), after {@link Libc#customizeInvokers()} when the first
 * argument is {@code customized}. The rounds are too few for C2: the calls run interpreted or
 * compiled by C1, where each counts towards the JDK's customization of its invoker.
 */
public final class WaitCallsProbe {
    private static final int ROUNDS = 300;

    private WaitCallsProbe() {
    }

    /** Prints {@code allocated BYTES}. */
    public static void main(String[] args) {
        if (args.length > 0 && args[0].equals("customized")) {
            Libc.customizeInvokers();
        }
        try (EventFd wakeup = new EventFd(); Arena arena = Arena.ofConfined()) {
            MemorySegment pollFd = Libc.newPollFd(arena);
            MemorySegment state = Errors.callState(arena);
            Runnable round = () -> {
                wakeup.signal();
                if (!Libc.pollIn(wakeup.fd(), 0, pollFd, state)) {
                    throw new IllegalStateException("the signalled eventfd is not readable");
                }
                wakeup.drain();
            };
            round.run(); // the first calls, which link what they use
            long bytes = ThreadCounters.allocatedBy(() -> {
                for (int i = 0; i < ROUNDS; i++) {
                    round.run();
                }
            });
            System.out.println("allocated " + bytes);
        }
    }
}
