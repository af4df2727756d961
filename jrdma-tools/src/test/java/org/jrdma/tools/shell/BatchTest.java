package org.jrdma.tools.shell;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.jrdma.testkit.fabric.Fabric;
import org.jrdma.testkit.junit.SimulatedFabric;
import org.jrdma.tools.Ibtool;
import org.jrdma.tools.SharedEngines;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * {@code ibtool --batch}: each line prints what {@code ibtool LINE} prints on its own, the batch's
 * status is its first failing line's, failing lines are named on standard error, and the lines
 * that name the same port share one engine.
 */
@SimulatedFabric(topology = "two-switch")
class BatchTest {
    private static final String NODE = "node01 HCA-1";

    /** One captured run of {@code ibtool ARGS...} in this JVM. */
    record Run(int status, String out, String err) {
        static Run of(String... args) {
            StringWriter out = new StringWriter();
            StringWriter err = new StringWriter();
            CommandLine cl = Ibtool.commandLine(args);
            cl.setOut(new PrintWriter(out, true));
            cl.setErr(new PrintWriter(err, true));
            int status = cl.execute(args);
            return new Run(status, out.toString(), err.toString());
        }
    }

    private static String sim(Fabric fabric) {
        return "--sim " + fabric.socketName() + " --sim-node '" + NODE + "'";
    }

    @Test
    void eachLinePrintsWhatItPrintsAloneAndTheFirstFailureIsTheStatus(Fabric fabric, @TempDir Path dir) throws IOException {
        String sim = sim(fabric);
        List<String> lines = List.of("# counters of the HCA and a switch port", "perfquery " + sim + " 3 1", "",
                "smpquery " + sim + " nodeinfo 1", "smpquery " + sim + " -t 100 nodeinfo 77", "saquery " + sim + " -t 100 NR",
                "perfquery " + sim + " --bogus", "ibaddr " + sim);
        Path file = Files.write(dir.resolve("commands"), lines);
        Run batch = Run.of("--batch", file.toString());

        StringBuilder out = new StringBuilder();
        StringBuilder err = new StringBuilder();
        int first = 0;
        for (int i = 0; i < lines.size(); i++) {
            List<String> words = CommandLines.words(lines.get(i));
            if (words.isEmpty()) {
                continue;
            }
            Run alone = Run.of(words.toArray(String[]::new));
            out.append(alone.out());
            err.append(alone.err());
            if (alone.status() != 0) {
                err.append("ibtool: batch line ").append(i + 1).append(": exit status ").append(alone.status()).append('\n');
                first = first == 0 ? alone.status() : first;
            }
        }
        assertEquals(255, first, "smpquery of a LID nobody has fails as C's does");
        assertEquals(maskTraffic(out.toString()), maskTraffic(batch.out()));
        assertEquals(maskIds(err.toString()), maskIds(batch.err()));
        assertEquals(first, batch.status());
        assertTrue(batch.err().contains("ibtool: batch line 5: exit status 255"), batch.err());
        assertTrue(batch.err().contains("ibtool: batch line 7: exit status 2"), batch.err());
    }

    /** perfquery's traffic counters, which each query moves. */
    private static String maskTraffic(String out) {
        return out.replaceAll("(?m)^(Port(?:Xmit|Rcv)(?:Data|Pkts):\\.+)\\d+$", "$1<n>");
    }

    /** The process id in libibmad-style warnings and the transaction ids, which differ from run to run. */
    private static String maskIds(String err) {
        return err.replaceAll("\\[\\d+\\]", "[pid]").replaceAll("TID 0x[0-9a-f]+", "TID <tid>");
    }

    @Test
    void commandsNamingThePortAlikeShareOneEngine(Fabric fabric) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        PrintWriter o = new PrintWriter(out);
        PrintWriter e = new PrintWriter(err);
        try (SharedEngines engines = new SharedEngines()) {
            for (int i = 0; i < 20; i++) {
                assertEquals(0, Batch.runLine(engines, "perfquery " + sim(fabric) + " 3 1", o, e), err.toString());
                assertEquals(0, Batch.runLine(engines, "smpquery " + sim(fabric) + " -t 500 portinfo 3 1", o, e), err.toString());
            }
            assertEquals(1, engines.openEngines(), "one port, named alike by every line");
            assertEquals(0, Batch.runLine(engines, "perfquery --sim " + fabric.socketName() + " --sim-node sw1 1 1", o, e), err.toString());
            assertEquals(0, Batch.runLine(engines, "perfquery " + sim(fabric) + " --max-outstanding 4 3 1", o, e), err.toString());
            assertEquals(0, Batch.runLine(engines, "perfquery " + sim(fabric) + " --trace 3 1", o, e), err.toString());
            assertEquals(3, engines.openEngines(), "another node and another bound each open one; --trace's is its own");
        }
    }

    @Test
    void badLinesFailWithStatus2(@TempDir Path dir) throws IOException {
        Path file = Files.write(dir.resolve("bad"), List.of("perfquery 'unclosed", "shell", "--batch other"));
        Run batch = Run.of("--batch", file.toString());
        assertEquals(2, batch.status());
        assertEquals("", batch.out());
        for (int line = 1; line <= 3; line++) {
            assertTrue(batch.err().contains("ibtool: batch line " + line + ": exit status 2"), batch.err());
        }
        Run missing = Run.of("--batch", dir.resolve("none").toString());
        assertEquals(255, missing.status());
        assertEquals("ibtool: --batch: " + dir.resolve("none") + ": no such file\n", missing.err());
    }

    @Test
    void readsStandardInputWithDash(Fabric fabric) throws Exception {
        List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "--enable-native-access=ALL-UNNAMED", "-XX:TieredStopAtLevel=1", "-cp", System.getProperty("java.class.path"),
                Ibtool.class.getName(), "--batch", "-"));
        Process process = new ProcessBuilder(command).start();
        String line = "perfquery " + sim(fabric) + " 3 1\n";
        process.getOutputStream().write((line + line).getBytes(StandardCharsets.UTF_8));
        process.getOutputStream().close();
        String out = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        String err = new String(process.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(process.waitFor(60, TimeUnit.SECONDS));
        assertEquals(0, process.exitValue(), err);
        assertEquals(2, out.split("# Port counters: Lid 3 port 1", -1).length - 1, out);
    }
}
