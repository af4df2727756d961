package org.jrdma.tools.json;

import java.util.List;

/**
 * A command's failure as its JSON document: {@code {"error": {...}}}, written on standard output in
 * place of the result, the exit status unchanged. Standard error still carries the C tool's lines.
 *
 * @param command  the ibtool command, e.g. {@code smpquery}
 * @param status   the exit status (255 a fabric or MAD failure, 2 bad input)
 * @param message  the C tool's failure text (its {@code iberror: failed:} text, or its usage complaint)
 * @param detail   jrdma's explanation (the cause's message), or null
 * @param warnings the C tool's standard error lines ({@code ibwarn: ...}), possibly none
 */
public record JsonError(String command, int status, String message, String detail, List<String> warnings) {
    /** The document: this error under the key {@code error}. */
    public Document document() {
        return new Document(this);
    }

    /** {@code {"error": {...}}}. */
    public record Document(JsonError error) {
    }
}
