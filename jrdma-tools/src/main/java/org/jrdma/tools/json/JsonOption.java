package org.jrdma.tools.json;

import picocli.CommandLine.Option;

/**
 * The {@code --json} and {@code --compact} options every ibtool command has (a picocli mixin of the
 * commands' common base): with {@code --json} the command writes its result as one JSON document on
 * standard output instead of the C tool's text, indented; {@code --compact} writes it on one line (and
 * implies {@code --json}). This class holds the choice only: Jackson is loaded by {@link JsonOutput},
 * when a document is written, so runs without {@code --json} never load it.
 */
public final class JsonOption {
    @Option(names = "--json", description = "write the result as one JSON document on standard output (shapes: README, \"JSON output\")")
    boolean json;

    @Option(names = "--compact", description = "with --json: the document on one line (implies --json)")
    boolean compact;

    /** Whether the command writes JSON. */
    public boolean requested() {
        return json || compact;
    }

    /** Whether the document is written on one line rather than indented. */
    public boolean compact() {
        return compact;
    }
}
