package org.jrdma.testkit.junit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.fail;

import java.util.List;
import java.util.stream.Stream;
import org.jrdma.testkit.vm.VmResult;
import org.junit.jupiter.api.DynamicTest;

/**
 * Turns the output of a program run in the VM that reports each check as a line
 * {@code PASS <name> (<ms> ms)} or {@code FAIL <name>: <reason>} ({@link org.jrdma.testkit.vm.VmChecks})
 * into one JUnit test per expected check, plus one that every check ran, in order, and the
 * program exited 0.
 */
public final class PassFailChecks {
    private PassFailChecks() {
    }

    /** The dynamic tests for {@code checks} in {@code result}'s output. */
    public static Stream<DynamicTest> of(VmResult result, List<String> checks) {
        String output = result.output();
        List<String> lines = output.lines().toList();
        Stream<DynamicTest> each = checks.stream().map(name -> DynamicTest.dynamicTest(name, () -> {
            if (lines.stream().anyMatch(l -> l.startsWith("PASS " + name + " ("))) {
                return;
            }
            String failure = lines.stream().filter(l -> l.startsWith("FAIL " + name + ":")).findFirst()
                    .orElse("no PASS or FAIL line for it");
            fail(failure + "\n--- VM output ---\n" + output);
        }));
        Stream<DynamicTest> complete = Stream.of(DynamicTest.dynamicTest("every check ran and passed", () -> {
            assertEquals(checks, lines.stream().filter(l -> l.startsWith("PASS ") || l.startsWith("FAIL "))
                    .map(l -> l.substring(5).replaceFirst("(: .*| \\(\\d+ ms\\))$", "")).toList(), "checks run");
            assertEquals(0, result.exitCode(), output);
        }));
        return Stream.concat(each, complete);
    }
}
