package org.jrdma.testkit;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Runs a class's {@code main} in a JVM of its own, with this JVM's class path and native access:
 * for measuring what happens once a process (a first call, a class's initialisation), which an
 * earlier test in the same JVM may already have done.
 */
public final class FreshJvm {
    private FreshJvm() {
    }

    /** How the run ended: its exit status and what it wrote (standard output and error, merged). */
    public record Result(int exitStatus, String output) {
    }

    /**
     * Runs {@code main} with {@code args} and waits at most {@code limit} for it to end.
     *
     * @throws IOException if it cannot be started, or has not ended in time (it is killed)
     */
    public static Result run(Class<?> main, Duration limit, String... args) throws IOException, InterruptedException {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        ProcessBuilder builder = new ProcessBuilder(java, "--enable-native-access=ALL-UNNAMED", "-cp",
                System.getProperty("java.class.path"), main.getName());
        builder.command().addAll(List.of(args));
        Process process = builder.redirectErrorStream(true).start();
        String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (!process.waitFor(limit.toMillis(), TimeUnit.MILLISECONDS)) {
            process.destroyForcibly();
            throw new IOException(main.getName() + " did not end in " + limit + "; it wrote:\n" + output);
        }
        return new Result(process.exitValue(), output);
    }
}
