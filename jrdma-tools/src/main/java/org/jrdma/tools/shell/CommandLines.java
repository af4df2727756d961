package org.jrdma.tools.shell;

import java.util.List;
import org.jline.reader.EOFError;
import org.jline.reader.Parser;
import org.jline.reader.impl.DefaultParser;

/**
 * How the shell and a batch file split a line into an {@code ibtool} command's arguments, as a
 * POSIX shell would for simple words: blanks separate words, single and double quotes group them,
 * a backslash escapes the next character, and {@code #} starts a comment.
 */
final class CommandLines {
    /** What a line whose quotes do not close is refused with: status 2, as a usage error. */
    static final int BAD_LINE = 2;

    private CommandLines() {
    }

    /** A parser for the shell's line reader (completion and history use it too). */
    static DefaultParser parser() {
        DefaultParser parser = new DefaultParser();
        parser.setLineCommentDelims(new String[] {"#"});
        parser.setEofOnUnclosedQuote(true);
        parser.setEofOnEscapedNewLine(true);
        return parser;
    }

    /**
     * The words of {@code line}, empty for a blank line or a comment.
     *
     * @throws IllegalArgumentException if a quote is not closed or the line ends in a backslash
     */
    static List<String> words(String line) {
        try {
            return parser().parse(line, line.length(), Parser.ParseContext.ACCEPT_LINE).words().stream()
                    .filter(word -> !word.isEmpty()).toList();
        } catch (EOFError e) {
            throw new IllegalArgumentException(e.getMessage() == null ? "unfinished line" : e.getMessage(), e);
        }
    }

    /** Whether {@code words} would start a shell or a batch inside one, which neither allows. */
    static boolean nested(List<String> words) {
        return !words.isEmpty() && (words.getFirst().equals(ShellCommand.NAME) || words.getFirst().equals("--batch"));
    }
}
