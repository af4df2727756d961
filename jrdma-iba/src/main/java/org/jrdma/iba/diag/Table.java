package org.jrdma.iba.diag;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import org.jrdma.iba.wire.IbaStruct;

/**
 * How a C tool prints one structure: its lines in order, each naming the generated class's field
 * it shows and how. Printing is generic; adding an attribute is adding a table to {@link Tables}.
 *
 * @param name    what the table prints (for messages)
 * @param padding how labels are padded
 * @param indent  what each value line starts with (saquery indents its values by two tabs)
 * @param rows    the lines
 */
public record Table(String name, Padding padding, String indent, List<Row> rows) {

    public Table {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(padding, "padding");
        Objects.requireNonNull(indent, "indent");
        rows = List.copyOf(rows);
    }

    /** A table of libibmad-style lines ({@code Name:.....value}), as smpquery and perfquery print. */
    public static Table ibmad(String name, Row... rows) {
        return new Table(name, Padding.IBMAD, "", List.of(rows));
    }

    /** A table of saquery-style lines: two tabs, the label, dots up to {@code width} columns, the value. */
    public static Table saquery(String name, int width, Row... rows) {
        return new Table(name, Padding.dotsTo(width), "\t\t", List.of(rows));
    }

    /** The text the tool prints for {@code struct}, every line ending in a newline. */
    public String print(IbaStruct struct, DiagOptions options) {
        StringBuilder out = new StringBuilder();
        render(out, struct, options, "", "");
        return out.toString();
    }

    /** The text with the default options (keys hidden). */
    public String print(IbaStruct struct) {
        return print(struct, DiagOptions.defaults());
    }

    /**
     * The fields this table names that {@code struct} does not have (or spans that run past its
     * end), or an empty list: a table
     * refers to fields by name, so a renamed field shows up here (and in the tests) rather than
     * when printing.
     */
    public List<String> missingFields(IbaStruct struct) {
        List<String> missing = new ArrayList<>();
        collectMissing(struct, "", missing);
        return missing;
    }

    private void collectMissing(IbaStruct struct, String prefix, List<String> missing) {
        for (Row row : rows) {
            switch (row) {
                case Row.Line line -> {
                    try {
                        cell(struct, prefix, line, DiagOptions.defaults());
                    } catch (IllegalStateException e) {
                        missing.add(name + ": " + prefix + line.field());
                    }
                }
                case Row.Text text -> { }
                case Row.Nest nest -> nest.table().collectMissing(struct, prefix + nest.fieldPrefix(), missing);
                case Row.When when -> new Table(name, padding, indent, when.rows()).collectMissing(struct, prefix, missing);
            }
        }
    }

    /** The bits a line shows; a span must stay within the structure. */
    private static Cell cell(IbaStruct struct, String prefix, Row.Line line, DiagOptions options) {
        FieldRefs.Ref ref = FieldRefs.resolve(struct, prefix + line.field());
        int bits = line.bits() == 0 ? ref.field().bitLength() : line.bits();
        if (ref.bitOffset() + bits > struct.size() * 8) {
            throw new IllegalStateException(line.label() + ": " + bits + " bits from " + prefix + line.field()
                    + " run past the end of " + struct.ibaName());
        }
        return new Cell(struct, ref.field(), ref.bitOffset(), bits, options);
    }

    private void render(StringBuilder out, IbaStruct struct, DiagOptions options, String prefix, String lineStart) {
        for (Row row : rows) {
            switch (row) {
                case Row.Line line -> {
                    String value = line.format().apply(cell(struct, prefix, line, options));
                    out.append(lineStart).append(indent).append(padding.prefix(line.label(), value))
                            .append(value).append('\n');
                }
                case Row.Text text -> out.append(lineStart).append(text.text()).append('\n');
                case Row.Nest nest -> nest.table().render(out, struct, options, prefix + nest.fieldPrefix(),
                        lineStart + nest.indent());
                case Row.When when -> {
                    if (when.condition().test(options)) {
                        new Table(name, padding, indent, when.rows()).render(out, struct, options, prefix, lineStart);
                    }
                }
            }
        }
    }
}
