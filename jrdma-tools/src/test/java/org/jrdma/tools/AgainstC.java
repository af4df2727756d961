package org.jrdma.tools;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.UnaryOperator;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.jrdma.testkit.fabric.Fabric;
import org.jrdma.testkit.fabric.ToolResult;

/**
 * One command run twice on the same simulated fabric, attached at the same node: as
 * {@code ibtool <tool>} in process and as the infiniband-diags tool of the same name.
 *
 * <p>Two differences are by design and are taken out before comparing: the C tools print a fatal
 * error ({@code <tool>: iberror: failed: ...}) on standard output and exit 255, where ibtool
 * prints it on standard error and exits 1 ({@link ExitCodes#FAILED}); and a C usage error exits 2
 * as ibtool's does.
 *
 * @param ours what ibtool printed and returned
 * @param c    what the C tool printed and returned
 */
record AgainstC(IbtoolRun ours, ToolResult c) {
    private static final Duration C_TIMEOUT = Duration.ofSeconds(60);
    /** The C tools' fatal error line ({@code ibexit}). */
    private static final Pattern IBERROR = Pattern.compile("(?m)^\\S+: iberror: failed: (.*)\n");

    /** Runs {@code tool args...} both ways, attached at the fabric's first node. */
    static AgainstC run(Fabric fabric, String tool, String... args) {
        return runAt(fabric, null, tool, args);
    }

    /** Runs {@code tool args...} both ways, attached at {@code node} (null for the first node). */
    static AgainstC runAt(Fabric fabric, String node, String tool, String... args) {
        List<String> ibtool = new ArrayList<>(List.of(tool, "--sim", fabric.socketName()));
        if (node != null) {
            ibtool.addAll(List.of("--sim-node", node));
        }
        ibtool.addAll(List.of(args));
        List<String> c = new ArrayList<>(List.of(tool));
        c.addAll(List.of(args));
        return new AgainstC(IbtoolRun.of(ibtool.toArray(String[]::new)), fabric.runAt(node, C_TIMEOUT, c));
    }

    /** The C tool's standard output without its {@code iberror} line (ibtool prints that on standard error). */
    String cOut() {
        return IBERROR.matcher(c.stdout()).replaceAll("");
    }

    /** The C tool's {@code iberror} message, or null if it printed none. */
    String cError() {
        Matcher m = IBERROR.matcher(c.stdout());
        return m.find() ? m.group(1) : null;
    }

    /** The exit status ibtool should have: the C tool's, with its 255 for a failure read as {@link ExitCodes#FAILED}. */
    int expectedStatus() {
        return c.exitCode() == 255 ? ExitCodes.FAILED : c.exitCode();
    }

    /** Asserts the same standard output and the same exit status (as {@link #expectedStatus()} reads it). */
    AgainstC assertSame() {
        return assertSame(UnaryOperator.identity());
    }

    /**
     * Asserts the same standard output once {@code mask} has replaced what legitimately differs
     * between two runs, and the same exit status; a C failure's message must appear in ibtool's
     * standard error.
     */
    AgainstC assertSame(UnaryOperator<String> mask) {
        String context = "ibtool " + String.join(" ", c.command().subList(1, c.command().size())) + "\n--- ibtool stderr ---\n"
                + ours.err() + "\n--- C stderr ---\n" + c.stderr();
        assertEquals(mask.apply(cOut()), mask.apply(ours.out()), context);
        assertEquals(expectedStatus(), ours.exitCode(), context);
        if (cError() != null) {
            assertTrue(ours.err().contains(cError()), "ibtool's error should say what the C tool says: " + cError() + "\n" + context);
        }
        return this;
    }
}
