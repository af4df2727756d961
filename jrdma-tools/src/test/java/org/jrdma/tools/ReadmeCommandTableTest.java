package org.jrdma.tools;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/**
 * The README's ibtool table lists every command ibtool has, and nothing it lacks: each subcommand's
 * name stands in the first cell of a row of the table under "## ibtool", and each name in a first
 * cell is a subcommand (or one of its legacy aliases).
 */
class ReadmeCommandTableTest {
    private static final Path README = Path.of("..", "README.md");
    /** A command name at the start of a back-quoted span: {@code `ibroute [-M] ...`}, {@code `shell`}. */
    private static final Pattern QUOTED = Pattern.compile("`([a-z][a-z0-9_]*(?:\\.[a-z]+)?)(?:[ `])");

    @Test
    void theTableListsEveryCommandAndNoOther() throws IOException {
        List<String> firstCells = firstCellsOfTheIbtoolTable();
        Set<String> names = new TreeSet<>();
        Set<String> aliases = new TreeSet<>();
        for (CommandLine command : Set.copyOf(Ibtool.commandLine().getSubcommands().values())) {
            if (!command.getCommandName().equals("help")) {
                names.add(command.getCommandName());
                aliases.addAll(List.of(command.getCommandSpec().aliases()));
            }
        }
        Set<String> missing = new TreeSet<>();
        for (String name : names) {
            if (firstCells.stream().noneMatch(cell -> cell.contains("`" + name + "`") || cell.contains("`" + name + " "))) {
                missing.add(name);
            }
        }
        assertEquals(Set.of(), missing, "commands without a row in README's ibtool table");
        Set<String> unknown = new TreeSet<>();
        for (String cell : firstCells) {
            Matcher quoted = QUOTED.matcher(cell);
            while (quoted.find()) {
                String word = quoted.group(1);
                if (!names.contains(word) && !aliases.contains(word)) {
                    unknown.add(word);
                }
            }
        }
        assertEquals(Set.of(), unknown, "rows of README's ibtool table naming no ibtool command");
    }

    private static List<String> firstCellsOfTheIbtoolTable() throws IOException {
        List<String> lines = Files.readAllLines(README);
        int start = lines.indexOf("## ibtool");
        int end = start + 1;
        while (end < lines.size() && !lines.get(end).startsWith("## ")) {
            end++;
        }
        int header = start;
        while (!lines.get(header).startsWith("| command | what |")) {
            header++;
        }
        return lines.subList(header + 2, end).stream().takeWhile(line -> line.startsWith("|"))
                .map(line -> line.substring(1, line.indexOf(" | ", 1) < 0 ? line.length() : line.indexOf(" | ", 1)))
                .toList();
    }
}
