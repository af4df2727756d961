package org.jrdma.verbs.ffi;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.jrdma.testkit.FreshJvm;
import org.junit.jupiter.api.Test;

/**
 * {@link IbvCompChannel} links the errno-capturing call of {@code ibv_get_cq_event} when it is
 * initialised, so that the first failed call of a process allocates no more than any other: in a
 * fresh JVM ({@link FirstFailedCqEvent}), since linking happens once a process. Without the
 * initialiser's call the probe measured 271,392 bytes; with it 40 (the capture of errno itself,
 * interpreted).
 */
class CompChannelFailurePathTest {
    private static final Pattern LINE = Pattern.compile("ibv_get_cq_event (\\d+) result (-?\\d+) errno (\\d+)");

    @Test
    void theFirstFailedCqEventAllocatesNoLinking() throws Exception {
        FreshJvm.Result probe = FreshJvm.run(FirstFailedCqEvent.class, Duration.ofSeconds(60));
        String output = probe.output();
        assertEquals(0, probe.exitStatus(), output);
        Matcher m = LINE.matcher(output);
        assertTrue(m.find(), "libibverbs is installed by the test command; the probe said: " + output);
        assertEquals(-1, Integer.parseInt(m.group(2)), output);
        assertEquals(9, Integer.parseInt(m.group(3)), "EBADF: " + output);
        long bytes = Long.parseLong(m.group(1));
        assertTrue(bytes < 1024, "the first failed ibv_get_cq_event allocated " + bytes + " bytes");
    }
}
