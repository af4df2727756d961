package org.jrdma.examples.cm;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.jrdma.testkit.junit.Peers;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

/**
 * {@link Rping}'s command line against C {@code rping}'s, on this machine (no RDMA device needed:
 * both stop before opening one): the usage text, the size and count checks, an unknown option (the
 * options before it read, none after it), {@code -t} (in C's option string, not in its switch),
 * operands (skipped), a missing argument, a name that does not resolve and one resolved after it
 * (C's {@code ret} is the last lookup's) give the same standard output, standard error and exit
 * status.
 */
class RpingOptionsTest {
    private static final Path RPING = Path.of("/usr/bin/rping");

    @TestFactory
    Stream<DynamicTest> sameAsC() {
        Peers.require(Files.isExecutable(RPING), "C rping (Debian rdmacm-utils) is not installed");
        return Stream.of("", "-c -S 5", "-c -S 65536", "-s -C -1", "-c -x", "-c -C", "-c -a nosuchhost.invalid",
                "-cv -S22", "-x -S 5", "-c -x -d -S 30", "-dc -Sx 30", "-c -S 5 -t 3", "foo -c -S 5 bar",
                "-c -a nosuchhost.invalid -a 127.0.0.1 -S 5").map(args -> DynamicTest.dynamicTest("rping " + args, () -> {
                    List<String> arguments = args.isEmpty() ? List.of() : List.of(args.split(" "));
                    assertEquals(run(RPING.toString(), List.of(), arguments), run(Path.of(System.getProperty("java.home"),
                            "bin", "java").toString(), List.of("--enable-native-access=ALL-UNNAMED", "-cp",
                            System.getProperty("java.class.path"), Rping.class.getName()), arguments));
                }));
    }

    /** Exit status, standard output and standard error of {@code command} with {@code options} then {@code args}. */
    private static String run(String command, List<String> options, List<String> args) throws IOException, InterruptedException {
        List<String> line = new ArrayList<>(List.of(command));
        line.addAll(options);
        line.addAll(args);
        Path err = Files.createTempFile("rping", ".err");
        try {
            Process process = new ProcessBuilder(line).redirectError(err.toFile()).start();
            String out = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            int status = process.waitFor();
            return "exit " + status + "\n--- stdout\n" + out + "--- stderr\n" + Files.readString(err);
        } finally {
            Files.delete(err);
        }
    }
}
