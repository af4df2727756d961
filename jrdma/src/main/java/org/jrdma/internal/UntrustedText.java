package org.jrdma.internal;

/** Puts text that came from outside (a user, a file, the wire) into an error message safely. */
public final class UntrustedText {
    /** How many characters of the text a message shows. */
    public static final int SHOWN = 64;

    private UntrustedText() {
    }

    /**
     * {@code text} in double quotes, with control characters, non-ASCII characters, quotes and
     * backslashes escaped as {@code \}{@code uXXXX}, cut at {@link #SHOWN} characters (the length
     * is then given).
     */
    public static String quote(String text) {
        var out = new StringBuilder("\"");
        int shown = Math.min(text.length(), SHOWN);
        for (int i = 0; i < shown; i++) {
            char c = text.charAt(i);
            if (c < 0x20 || c > 0x7e || c == '"' || c == '\\') {
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
