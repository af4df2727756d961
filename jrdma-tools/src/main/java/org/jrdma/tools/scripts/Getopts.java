package org.jrdma.tools.scripts;

import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * A command line read as Perl's {@code Getopt::Std::getopts(spec)} reads it: single-letter options,
 * those followed by {@code :} in the spec taking a value (attached, {@code -Cmlx5_0}, or the next
 * argument), clustered flags ({@code -Rv}), reading stopped by the first argument that is not an
 * option or by {@code --}; an unknown letter is warned about ({@code Unknown option: x}) and makes
 * the result {@link #ok() not ok}, as is an option missing its value at the end of the line.
 *
 * @param options  the options given, each letter with its value ({@code "1"} for a flag)
 * @param operands the arguments after the options
 * @param ok       whether getopts returned true
 */
record Getopts(Map<Character, String> options, List<String> operands, boolean ok) {

    static Getopts parse(String spec, List<String> args, PrintWriter err) {
        Map<Character, String> options = new HashMap<>();
        List<String> rest = new ArrayList<>(args);
        int errors = 0;
        while (!rest.isEmpty() && rest.getFirst().length() >= 2 && rest.getFirst().charAt(0) == '-') {
            String arg = rest.getFirst();
            if (arg.equals("--")) {
                rest.removeFirst();
                break;
            }
            char first = arg.charAt(1);
            String tail = arg.substring(2);
            int pos = spec.indexOf(first);
            if (pos >= 0) {
                rest.removeFirst();
                if (pos + 1 < spec.length() && spec.charAt(pos + 1) == ':') {
                    String value = tail;
                    if (value.isEmpty()) {
                        if (rest.isEmpty()) {
                            errors++;
                        }
                        value = rest.isEmpty() ? null : rest.removeFirst();
                    }
                    options.put(first, value);
                } else {
                    options.put(first, "1");
                    if (!tail.isEmpty()) {
                        rest.addFirst("-" + tail);
                    }
                }
            } else {
                err.print("Unknown option: " + first + "\n");
                err.flush();
                errors++;
                rest.removeFirst();
                if (!tail.isEmpty()) {
                    rest.addFirst("-" + tail);
                }
            }
        }
        return new Getopts(options, rest, errors == 0);
    }

    /** Whether option {@code letter} was given ({@code defined $opt_x}). */
    boolean has(char letter) {
        return options.containsKey(letter);
    }

    /** The value of option {@code letter}, or {@code otherwise} when it was not given (or had none). */
    String value(char letter, String otherwise) {
        String value = options.get(letter);
        return value == null ? otherwise : value;
    }

    /** Operand {@code i}, or null (Perl's undef) when there are fewer. */
    String operand(int i) {
        return i < operands.size() ? operands.get(i) : null;
    }
}
