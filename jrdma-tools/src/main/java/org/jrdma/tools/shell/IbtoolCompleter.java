package org.jrdma.tools.shell;

import java.util.ArrayList;
import java.util.List;
import org.jline.reader.Candidate;
import org.jline.reader.Completer;
import org.jline.reader.LineReader;
import org.jline.reader.ParsedLine;
import org.jrdma.tools.Ibtool;
import picocli.AutoComplete;
import picocli.CommandLine.Model.CommandSpec;

/**
 * Tab completion in {@code ibtool shell}: the first word completes to a command's name (and the
 * shell's own {@code exit}), the words after it to that command's options and, where an option
 * takes one of a fixed set of values, to those values, from the commands' picocli models
 * ({@link AutoComplete#complete}).
 */
final class IbtoolCompleter implements Completer {
    private final CommandSpec ibtool = Ibtool.commandLine().getCommandSpec();

    @Override
    public void complete(LineReader reader, ParsedLine line, List<Candidate> candidates) {
        List<String> words = line.words();
        String word = line.word();
        String prefix = word.substring(0, Math.min(line.wordCursor(), word.length()));
        if (line.wordIndex() == 0) {
            for (String name : commandNames()) {
                if (name.startsWith(prefix)) {
                    candidates.add(new Candidate(name));
                }
            }
            return;
        }
        if (!ibtool.subcommands().containsKey(words.getFirst())) {
            return;
        }
        List<CharSequence> suffixes = new ArrayList<>();
        AutoComplete.complete(ibtool, words.toArray(String[]::new), line.wordIndex(), prefix.length(), 0, suffixes);
        for (CharSequence suffix : suffixes) {
            candidates.add(new Candidate(prefix + suffix));
        }
    }

    /** The names the first word completes to: every command's, {@code help}'s and {@link Shell#EXIT}. */
    List<String> commandNames() {
        List<String> names = new ArrayList<>(ibtool.subcommands().keySet());
        names.remove(ShellCommand.NAME);
        names.add(Shell.EXIT);
        return names;
    }
}
