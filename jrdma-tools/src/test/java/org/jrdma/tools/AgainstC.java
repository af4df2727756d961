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
 * <p>Standard output and exit status must be identical, failures included ({@code <tool>: iberror:
 * failed: ...} on standard output, 255). Standard error must begin with the C tool's, with the
 * process ids of {@code ibwarn: [pid]} lines masked; what follows is jrdma's explanation.
 *
 * @param ours what ibtool printed and returned
 * @param c    what the C tool printed and returned
 */
record AgainstC(IbtoolRun ours, ToolResult c) {
    private static final Duration C_TIMEOUT = Duration.ofSeconds(60);
    /** The C tools' fatal error line ({@code ibexit}). */
    private static final Pattern IBERROR = Pattern.compile("(?m)^\\S+: iberror: failed: (.*)\n");
    /** libumad2sim's own line when it attaches, which is the simulator's, not the C tool's. */
    private static final Pattern SIM_CONNECT = Pattern.compile("(?m)^ibwarn: \\[\\d+\\] sim_connect: .*\n");
    private static final Pattern PID = Pattern.compile("(?m)^(ib(?:warn|panic): )\\[\\d+\\]");

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

    /** The C tool's standard output. */
    String cOut() {
        return c.stdout();
    }

    /** The C tool's {@code iberror} message, or null if it printed none. */
    String cError() {
        Matcher m = IBERROR.matcher(c.stdout());
        return m.find() ? m.group(1) : null;
    }

    /** The exit status ibtool should have: the C tool's. */
    int expectedStatus() {
        return c.exitCode();
    }

    /** Standard error with the process ids of libibmad's {@code ibwarn: [pid]} and {@code ibpanic: [pid]} lines masked. */
    static String maskPids(String stderr) {
        return PID.matcher(SIM_CONNECT.matcher(stderr).replaceAll("")).replaceAll("$1[pid]");
    }

    /** Asserts the same standard output and exit status, and standard error beginning with the C tool's. */
    AgainstC assertSame() {
        return assertSame(UnaryOperator.identity());
    }

    /**
     * Asserts the same standard output once {@code mask} has replaced what legitimately differs
     * between two runs, the same exit status, and standard error beginning with the C tool's (pids masked).
     */
    AgainstC assertSame(UnaryOperator<String> mask) {
        String context = "ibtool " + String.join(" ", c.command().subList(1, c.command().size())) + "\n--- ibtool stderr ---\n"
                + ours.err() + "\n--- C stderr ---\n" + c.stderr();
        assertEquals(mask.apply(cOut()), mask.apply(ours.out()), context);
        assertEquals(expectedStatus(), ours.exitCode(), context);
        assertTrue(maskPids(ours.err()).startsWith(maskPids(c.stderr())), "standard error should begin with the C tool's\n" + context);
        return this;
    }

    /**
     * Asserts a usage error as the C tool reports it: status 2 from both tools, nothing on ibtool's
     * standard output, and ibtool's standard error beginning with the C tool's first line.
     */
    AgainstC assertUsageError() {
        assertEquals(2, c.exitCode(), c.stderr());
        assertEquals(2, ours.exitCode(), ours.err());
        assertEquals("", ours.out());
        assertTrue(ours.err().startsWith(c.stderr().lines().findFirst().orElseThrow()), ours.err());
        return this;
    }
}
