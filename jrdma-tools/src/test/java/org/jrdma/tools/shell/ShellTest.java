package org.jrdma.tools.shell;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.jline.reader.Candidate;
import org.jline.reader.LineReaderBuilder;
import org.jline.reader.Parser;
import org.jline.terminal.Terminal;
import org.jline.terminal.TerminalBuilder;
import org.jline.terminal.impl.DumbTerminal;
import org.jrdma.testkit.fabric.Fabric;
import org.jrdma.testkit.junit.SimulatedFabric;
import org.jrdma.tools.Ibtool;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code ibtool shell} driven through a JLine dumb terminal and through piped standard input: each
 * line runs as {@code ibtool LINE}, failures show their status, the history is kept, and Tab
 * completes command names, options and option values.
 */
@SimulatedFabric(topology = "two-switch")
class ShellTest {
    private static final String NODE = "node01 HCA-1";

    @Test
    void runsEachLineAndKeepsTheHistory(Fabric fabric, @TempDir Path dir) throws IOException {
        String perfquery = "perfquery --sim " + fabric.socketName() + " --sim-node '" + NODE + "' 3 1";
        String input = perfquery + "\nperfquery --bogus\n\n" + perfquery + "\nexit\nibaddr\n";
        ByteArrayOutputStream screen = new ByteArrayOutputStream();
        StringWriter err = new StringWriter();
        Path history = dir.resolve(".jrdma/ibtool_history");
        int status;
        try (Terminal terminal = new DumbTerminal(new ByteArrayInputStream(input.getBytes(StandardCharsets.UTF_8)), screen)) {
            status = new Shell(terminal, history, new PrintWriter(err, true)).run();
        }
        String shown = screen.toString(StandardCharsets.UTF_8);

        assertEquals(0, status, "the last command run, perfquery, succeeded");
        assertEquals(2, shown.split("# Port counters: Lid 3 port 1", -1).length - 1, shown);
        assertTrue(shown.contains("[exit status 2]"), shown);
        assertTrue(err.toString().startsWith("perfquery: unrecognized option"), err.toString());
        assertTrue(!shown.contains("ibaddr") || !shown.contains("LID 0x"), "nothing runs after exit");
        List<String> kept = Files.readAllLines(history).stream().map(line -> line.substring(line.indexOf(':') + 1)).toList();
        assertEquals(List.of(perfquery, "perfquery --bogus", perfquery, "exit"), kept);
    }

    @Test
    void readsPipedStandardInput(Fabric fabric, @TempDir Path home) throws Exception {
        List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "--enable-native-access=ALL-UNNAMED", "-XX:TieredStopAtLevel=1", "-Duser.home=" + home,
                "-cp", System.getProperty("java.class.path"), Ibtool.class.getName(), "shell"));
        Process process = new ProcessBuilder(command).start();
        String line = "smpquery --sim " + fabric.socketName() + " --sim-node '" + NODE + "' nodedesc 1\n";
        process.getOutputStream().write((line + "smpquery --sim " + fabric.socketName() + " -t 100 nodedesc 77\n")
                .getBytes(StandardCharsets.UTF_8));
        process.getOutputStream().close();
        String out = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        String err = new String(process.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(process.waitFor(60, TimeUnit.SECONDS));
        assertEquals(255, process.exitValue(), "the status of the last command: " + out + err);
        assertTrue(out.contains("Node Description:"), out);
        assertTrue(out.contains("[exit status 255]"), out);
        assertTrue(Files.exists(home.resolve(".jrdma/ibtool_history")));
    }

    @Test
    void completesCommandsOptionsAndValues() throws IOException {
        assertEquals(List.of("perfquery"), complete("perf"));
        assertTrue(complete("").containsAll(List.of("ibnetdiscover", "saquery", "help", "exit")));
        assertTrue(complete("perfquery --ext").containsAll(List.of("--extended", "--extended_speeds")), complete("perfquery --ext").toString());
        assertTrue(complete("smpquery -").contains("--sim"));
    }

    private static List<String> complete(String line) throws IOException {
        try (Terminal terminal = TerminalBuilder.builder().dumb(true).system(false)
                .streams(new ByteArrayInputStream(new byte[0]), new ByteArrayOutputStream()).build()) {
            var reader = LineReaderBuilder.builder().terminal(terminal).build();
            List<Candidate> candidates = new ArrayList<>();
            new IbtoolCompleter().complete(reader, CommandLines.parser().parse(line, line.length(), Parser.ParseContext.COMPLETE),
                    candidates);
            return candidates.stream().map(Candidate::value).sorted().toList();
        }
    }
}
