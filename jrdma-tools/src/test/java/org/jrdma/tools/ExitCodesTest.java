package org.jrdma.tools;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.concurrent.Callable;
import org.jrdma.RdmaException;
import org.jrdma.iba.wire.MadDecoder;
import org.jrdma.iba.wire.MalformedMadException;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/**
 * Which failure ends ibtool with which status: bad input (2) is only what the user typed; a MAD
 * that cannot be decoded is a failure of the fabric (255, the C tools' exit(-1)), although MalformedMadException is an
 * IllegalArgumentException.
 */
class ExitCodesTest {
    /** A subcommand that fails as it is told, run by ibtool's command line and its handlers. */
    @Command(name = "fail")
    static final class Failing implements Callable<Integer> {
        private final RuntimeException failure;

        Failing(RuntimeException failure) {
            this.failure = failure;
        }

        @Override
        public Integer call() {
            throw failure;
        }
    }

    private static IbtoolRun runFailing(RuntimeException failure) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        CommandLine cl = Ibtool.commandLine("fail");
        cl.addSubcommand(new Failing(failure));
        cl.setOut(new PrintWriter(out, true));
        cl.setErr(new PrintWriter(err, true));
        return new IbtoolRun(cl.execute("fail"), out.toString(), err.toString());
    }

    /** What MadDecoder throws for a reply too short to hold a MAD header. */
    private static MalformedMadException malformedReply() {
        return assertThrows(MalformedMadException.class, () -> MadDecoder.decode(new byte[10], 0, 10));
    }

    @Test
    void aMalformedMadIsAFailureNotBadInput() {
        MalformedMadException malformed = malformedReply();
        assertEquals(ExitCodes.FAILED, ExitCodes.MAPPER.getExitCode(malformed));
        IbtoolRun run = runFailing(malformed);
        assertEquals(ExitCodes.FAILED, run.exitCode(), run.err());
        assertEquals("fail: iberror: failed: " + malformed.getMessage() + "\n", run.out(), "the C tools' line, no usage message");
        assertEquals("", run.err());
    }

    @Test
    void badInputIsWhatTheUserTyped() {
        assertEquals(ExitCodes.USAGE, ExitCodes.MAPPER.getExitCode(new UsageException("PORTNUM 300 outside 0..254")));
        CommandLine.ParameterException unreadable = assertThrows(CommandLine.ParameterException.class,
                () -> Ibtool.commandLine("ibnetdiscover").parseArgs("ibnetdiscover", "--timeout", "soon"));
        assertEquals(ExitCodes.USAGE, ExitCodes.MAPPER.getExitCode(unreadable));

        IbtoolRun usage = runFailing(new UsageException("--state 5 outside 0..3"));
        assertEquals(ExitCodes.USAGE, usage.exitCode());
        assertTrue(usage.err().contains("Usage: "), "the usage message (picocli's, for a command the C tools do not have): " + usage.err());
        assertTrue(usage.err().endsWith("\nfail: --state 5 outside 0..3\n"), "then jrdma's explanation: " + usage.err());
    }

    @Test
    void otherRefusalsAndFabricFailuresAreFailures() {
        assertEquals(ExitCodes.FAILED, ExitCodes.MAPPER.getExitCode(new IllegalArgumentException("a library's refusal")));
        IbtoolRun fabric = runFailing(new RdmaException("SubnGet(NodeInfo) timed out"));
        assertEquals(ExitCodes.FAILED, fabric.exitCode());
        assertFalse(fabric.err().contains("Usage: "), fabric.err());
    }

    @Test
    void aDefectKeepsItsStackTrace() {
        IbtoolRun run = runFailing(new IllegalStateException("a bug"));
        assertEquals(1, run.exitCode(), "picocli's status for an exception nobody handled");
        assertTrue(run.err().contains("java.lang.IllegalStateException: a bug"), run.err());
        assertTrue(run.err().contains("\tat "), "the stack trace: " + run.err());
    }
}
