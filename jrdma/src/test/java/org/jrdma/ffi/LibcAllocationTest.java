package org.jrdma.ffi;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.jrdma.SysException;
import org.jrdma.testkit.FreshJvm;
import org.jrdma.testkit.ThreadCounters;
import org.jrdma.verbs.ffi.PollFds;
import org.junit.jupiter.api.Test;

/**
 * The calls a waiting thread repeats ({@code poll(2)}, and an eventfd's {@code write} and
 * {@code read}) allocate nothing even where C2 has not compiled them: a thread that loops rarely,
 * as an endpoint group's lingering thread looks every 2 ms, runs them interpreted or compiled by
 * C1 for seconds. Capturing errno on every call allocated about 40 bytes a call there (the JDK
 * slices the call-state segment), which C2's escape analysis alone removes; CI's allocation check
 * of the endpoints' {@code BUSY} mode met it. The counts here stay below C2's thresholds.
 */
class LibcAllocationTest {
    private static final int WARM_UP = 300;
    private static final int ROUNDS = 1000;

    @Test
    void pollAndEventFdCallsAllocateNothingBeforeC2CompilesThem() {
        try (EventFd wakeup = new EventFd(); Arena arena = Arena.ofConfined()) {
            PollFds fds = new PollFds();
            MemorySegment pollFd = Libc.newPollFd(arena);
            MemorySegment state = Errors.callState(arena);
            Runnable round = () -> {
                wakeup.signal();
                assertEquals(2, fds.pollIn(-1, wakeup.fd(), 0));
                wakeup.drain();
                assertEquals(0, fds.pollIn(-1, wakeup.fd(), 0));
                Libc.pollIn(wakeup.fd(), 0, pollFd, state);
            };
            for (int i = 0; i < WARM_UP; i++) {
                round.run();
            }
            long bytes = ThreadCounters.allocatedBy(() -> {
                for (int i = 0; i < ROUNDS; i++) {
                    round.run();
                }
            });
            // less than 8 bytes a round: a one-off of the JIT's (a method handle customized) may fall in
            // the window, but no object per call (capturing errno cost 200 bytes a round)
            assertTrue(bytes < 8L * ROUNDS, bytes + " bytes allocated in " + ROUNDS + " rounds of five calls");
        }
    }

    /**
     * In a fresh JVM, so that no other test has made these calls fail before: the first failure
     * of each allocates its exception only, not the linking of the errno-capturing call site
     * (before {@link Libc} linked them when it is initialised: 527 KB for poll's, 267 KB for
     * send's and read's).
     */
    @Test
    void theFirstFailureOfACallAllocatesItsExceptionOnly() throws Exception {
        FreshJvm.Result probe = FreshJvm.run(FirstFailedCalls.class, Duration.ofSeconds(60));
        String output = probe.output();
        assertEquals(0, probe.exitStatus(), output);
        Map<String, Long> bytes = new TreeMap<>();
        output.lines().map(l -> l.split(" ")).filter(f -> f.length == 2 && f[1].matches("[0-9]+"))
                .forEach(f -> bytes.put(f[0], Long.parseLong(f[1])));
        assertEquals(List.of("close", "poll", "read", "recv", "send", "write"), List.copyOf(bytes.keySet()), output);
        bytes.remove("close");
        bytes.forEach((call, n) -> assertTrue(n < 8192, call + "'s first failure allocated " + n + " bytes"));
    }

    /**
     * In fresh JVMs: a waiting thread's 300 rounds of poll, write and read (interpreted or C1's:
     * too few for C2) allocate once each of those calls reaches its 128th, when the JDK
     * customizes its invoker; after {@link Libc#customizeInvokers()}, nothing.
     */
    @Test
    void customizedInvokersLeaveNothingToAllocateInALoop() throws Exception {
        long plain = allocatedByWaitCalls();
        long customized = allocatedByWaitCalls("customized");
        System.out.println("300 rounds of poll, write, read: " + plain + " bytes; after customizeInvokers " + customized);
        assertTrue(plain > 8192, "without customizeInvokers the 128th calls allocate: " + plain + " bytes");
        assertEquals(0, customized, "after customizeInvokers");
    }

    private static long allocatedByWaitCalls(String... args) throws Exception {
        FreshJvm.Result probe = FreshJvm.run(WaitCallsProbe.class, Duration.ofSeconds(60), args);
        assertEquals(0, probe.exitStatus(), probe.output());
        return probe.output().lines().filter(l -> l.startsWith("allocated ")).map(l -> Long.parseLong(l.substring(10)))
                .findFirst().orElseThrow(() -> new AssertionError("no figure in:\n" + probe.output()));
    }

    @Test
    void aFailedCallIsMadeAgainWithErrnoCaptured() {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment state = Errors.callState(arena);
            // a closed descriptor: both tries fail, the second tells why
            int fd = Libc.eventfd(0, Libc.EFD_NONBLOCK | Libc.EFD_CLOEXEC);
            Libc.close(fd);
            SysException e = assertThrows(SysException.class,
                    () -> Libc.write(fd, arena.allocate(8), 8, state));
            assertEquals("write", e.call());
            assertEquals(9, e.errno()); // EBADF
        }
    }
}
