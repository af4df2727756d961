package org.jrdma.tools.scripts;

import java.io.PrintWriter;
import java.util.Arrays;
import java.util.List;
import java.util.regex.Pattern;

/**
 * The bits of sh and awk the shell scripts lean on, as they behave there, for the scripts' commands
 * and the ibcheck commands ({@code org.jrdma.tools.compat}) alike.
 */
public final class Shell {
    private static final Pattern AWK_NUMBER = Pattern.compile("[ \t\n]*[-+]?(\\d+\\.?\\d*|\\.\\d+)([eE][-+]?\\d+)?[ \t\n]*");

    private Shell() {
    }

    /** The lines of a command's output as {@code echo "$(cmd)"} gives them: trailing newlines dropped. */
    public static List<String> lines(String text) {
        return List.of(text.replaceFirst("\n+$", "").split("\n", -1));
    }

    /** The shell's word splitting of unquoted expansions, as {@code system("cmd " args)} runs them. */
    public static List<String> words(List<String> expansions) {
        return expansions.stream().flatMap(e -> Arrays.stream(e.trim().split("\\s+"))).filter(w -> !w.isEmpty()).toList();
    }

    /** awk's {@code $n} with its default field splitting, or "" when there are fewer fields. */
    public static String field(String line, int n) {
        String[] fields = line.trim().split("[ \t]+");
        return line.isBlank() || n > fields.length ? "" : fields[n - 1];
    }

    /** awk's {@code $n} with {@code -F '[.:]*'} (mawk splits at each run of dots and colons), or "". */
    public static String dotted(String line, int n) {
        String[] fields = line.split("[.:]+", -1);
        return n > fields.length ? "" : fields[n - 1];
    }

    /** Whether awk's comparison of a field with a number finds them equal: as numbers when the field looks like one. */
    public static boolean awkEquals(String field, String number) {
        if (AWK_NUMBER.matcher(field).matches() && AWK_NUMBER.matcher(number).matches()) {
            return Double.parseDouble(field.trim()) == Double.parseDouble(number.trim());
        }
        return field.equals(number);
    }

    /** awk's {@code field >= threshold}: as numbers when the field looks like one, else as strings. */
    public static boolean awkAtLeast(String field, long threshold) {
        if (AWK_NUMBER.matcher(field).matches()) {
            return Double.parseDouble(field.trim()) >= threshold;
        }
        return field.compareTo(Long.toString(threshold)) >= 0;
    }

    /** The LID after {@code mark} in a topology line, as the scripts' {@code substr(..., index(...))} cut it. */
    public static String lidAfter(String line, String mark) {
        int at = line.indexOf(mark);
        String rest = line.substring(Math.min(line.length(), at < 0 ? mark.length() - 1 : at + mark.length()));
        int blank = rest.indexOf(' ');
        return blank < 0 ? "" : rest.substring(0, blank);
    }

    /**
     * The scripts' {@code red}: the word in bold red, or plain with {@code -N}. The scripts print
     * it with {@code echo -e}, which dash (Debian's /bin/sh) prints as {@code -e} before the escapes:
     * the colour is what they mean, as bash prints it.
     */
    public static void red(PrintWriter out, boolean mono, String word) {
        out.print(mono ? word + "\n" : "\033[1;031m " + word + " \033[0;39m\n");
    }

    /** The scripts' {@code green}: the word in bold green, or plain with {@code -N}. */
    public static void green(PrintWriter out, boolean mono, String word) {
        out.print(mono ? word + "\n" : "\033[1;032m " + word + " \033[0;39m\n");
    }
}
