package org.jrdma.iba;

/**
 * Puts text that came from outside (a user, a file, the wire) into an error message safely: an
 * untrusted string can never make a message unbounded or unreadable.
 */
public final class UntrustedText {
    /** How many characters of the text a message shows. */
    public static final int SHOWN = 64;

    private UntrustedText() {
    }

    /**
     * {@code text} in double quotes, with quotes and backslashes escaped by a backslash, control
     * and non-ASCII characters as {@code \}{@code uXXXX}, cut at {@link #SHOWN} characters (the
     * length is then given); {@code null} for null.
     */
    public static String quote(String text) {
        if (text == null) {
            return "null";
        }
        int shown = Math.min(text.length(), SHOWN);
        var out = new StringBuilder(shown + 24).append('"');
        for (int i = 0; i < shown; i++) {
            char c = text.charAt(i);
            if (c == '"' || c == '\\') {
                out.append('\\').append(c);
            } else if (c < 0x20 || c > 0x7e) {
                out.append(String.format("\\u%04x", (int) c));
            } else {
                out.append(c);
            }
        }
        out.append('"');
        if (shown < text.length()) {
            out.append("... (").append(text.length()).append(" chars)");
        }
        return out.toString();
    }
}
