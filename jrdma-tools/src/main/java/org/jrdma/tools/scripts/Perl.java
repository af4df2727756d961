package org.jrdma.tools.scripts;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** What the perl scripts get from Perl itself: a string's numeric value, {@code split}. */
final class Perl {
    private static final Pattern LEADING_NUMBER = Pattern.compile("^\\s*([+-]?(?:\\d+\\.?\\d*|\\.\\d+)(?:[eE][+-]?\\d+)?)");

    private Perl() {
    }

    /** The value Perl gives a string in a numeric comparison: its leading decimal number, else 0 (undef too). */
    static double number(String text) {
        if (text == null) {
            return 0;
        }
        Matcher m = LEADING_NUMBER.matcher(text);
        return m.find() ? Double.parseDouble(m.group(1)) : 0;
    }

    /** Perl's {@code split(",", text)}: the fields between commas, trailing empty fields dropped. */
    static List<String> splitCommas(String text) {
        List<String> fields = new ArrayList<>(List.of(text.split(",", -1)));
        while (!fields.isEmpty() && fields.getLast().isEmpty()) {
            fields.removeLast();
        }
        return fields;
    }
}
