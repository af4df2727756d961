package org.jrdma.tools.shell;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.jrdma.tools.Ibtool;
import org.junit.jupiter.api.Test;

/**
 * What the build writes into {@code target/ibtool-docs} (src/build/IbtoolDocs.java) and bin/setup
 * installs: the completion script, sourced by bash and asked what its completion function offers
 * as bash's {@code complete -F} would ask it, and an AsciiDoc man page for every command.
 */
class IbtoolDocsTest {
    private static final Path DOCS = Path.of("target", "ibtool-docs");

    @Test
    void bashCompletesCommandsOptionsAndValues() throws Exception {
        assertEquals(List.of("perfquery"), bashCompletes("ibtool", "perfq"));
        assertEquals(List.of("--extended", "--extended_speeds"), bashCompletes("ibtool", "perfquery", "--ext"));
        assertTrue(bashCompletes("ibtool", "smpquery", "-").contains("--sim"));
        assertTrue(bashCompletes("ibtool", "").containsAll(List.of("shell", "ibnetdiscover", "saquery")));
        assertEquals("complete -o default -F _complete_ibtool ibtool", bash("source " + DOCS.resolve("ibtool_completion")
                + " 2>/dev/null; complete -p ibtool").strip());
    }

    @Test
    void everyCommandHasAManPage() throws IOException {
        Path man = DOCS.resolve("man");
        assertTrue(Files.readString(man.resolve("ibtool.adoc")).contains("--batch"));
        // one page per command under its name; the legacy aliases (ibidsverify.pl...) share it
        for (picocli.CommandLine command : Set.copyOf(Ibtool.commandLine().getSubcommands().values())) {
            String name = command.getCommandName();
            assertTrue(Files.isRegularFile(man.resolve("ibtool-" + name + ".adoc")), name);
        }
        String perfquery = Files.readString(man.resolve("ibtool-perfquery.adoc"));
        assertTrue(perfquery.contains(":doctype: manpage") && perfquery.contains("*--extended*"), perfquery);
    }

    /** The words the completion function offers for the last of {@code words}, the cursor at its end. */
    private static List<String> bashCompletes(String... words) throws Exception {
        String line = String.join(" ", words);
        StringBuilder array = new StringBuilder();
        for (String word : words) {
            array.append(" '").append(word).append('\'');
        }
        String out = bash("source " + DOCS.resolve("ibtool_completion") + " 2>/dev/null; COMP_WORDS=(" + array + "); COMP_CWORD="
                + (words.length - 1) + "; COMP_LINE='" + line + "'; COMP_POINT=" + line.length()
                + "; _complete_ibtool 2>/dev/null; printf '%s\\n' \"${COMPREPLY[@]}\"");
        return Arrays.stream(out.split("\n")).filter(word -> !word.isEmpty()).sorted().toList();
    }

    private static String bash(String script) throws Exception {
        Process process = new ProcessBuilder("bash", "-c", script).redirectErrorStream(true).start();
        String out = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(process.waitFor(30, TimeUnit.SECONDS));
        assertEquals(0, process.exitValue(), out);
        return out;
    }
}
