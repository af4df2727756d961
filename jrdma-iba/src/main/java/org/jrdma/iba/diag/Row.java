package org.jrdma.iba.diag;

import java.util.List;
import java.util.Objects;
import java.util.function.Predicate;

/** One entry of a {@link Table}: a value line, a literal line, a nested table or a conditional group. */
public sealed interface Row {

    /**
     * A {@code label....value} line.
     *
     * @param label  the name the tool prints
     * @param field  the generated class's field, by name: {@code lid}, a nested {@code portInfo.lid},
     *               an array element {@code pKey[3]}
     * @param bits   how many bits to show from the field's first bit, or 0 for the field's own width
     *               (saquery prints some bytes whole, across several components)
     * @param format how the value is shown
     */
    record Line(String label, String field, int bits, Format format) implements Row {
        public Line {
            Objects.requireNonNull(label, "label");
            Objects.requireNonNull(field, "field");
            Objects.requireNonNull(format, "format");
            if (bits < 0 || bits > 64) {
                throw new IllegalArgumentException(label + ": bits must be 0 (the field's width) to 64, not " + bits);
            }
        }
    }

    /** A line printed as it is (its own tabs included), such as {@code NodeRecord dump:}. */
    record Text(String text) implements Row {
        public Text {
            Objects.requireNonNull(text, "text");
        }
    }

    /**
     * Another table printed inline, on the nested structure whose fields are named
     * {@code fieldPrefix + name}, each of its lines after {@code indent} (saquery prints a
     * PortInfoRecord's PortInfo as smpquery does, two tabs in).
     */
    record Nest(String fieldPrefix, String indent, Table table) implements Row {
        public Nest {
            Objects.requireNonNull(fieldPrefix, "fieldPrefix");
            Objects.requireNonNull(indent, "indent");
            Objects.requireNonNull(table, "table");
        }
    }

    /** Rows printed only when {@code condition} holds for the options (perfquery's capability masks). */
    record When(String description, Predicate<DiagOptions> condition, List<Row> rows) implements Row {
        public When {
            Objects.requireNonNull(description, "description");
            Objects.requireNonNull(condition, "condition");
            rows = List.copyOf(rows);
        }
    }

    /** A value line showing {@code field} with {@code format}. */
    static Line line(String label, String field, Format format) {
        return new Line(label, field, 0, format);
    }

    /** A value line showing {@code bits} bits from the start of {@code field}. */
    static Line span(String label, String field, int bits, Format format) {
        return new Line(label, field, bits, format);
    }

    /** A literal line. */
    static Text text(String text) {
        return new Text(text);
    }

    /** A nested table. */
    static Nest nest(String fieldPrefix, String indent, Table table) {
        return new Nest(fieldPrefix, indent, table);
    }

    /** A conditional group of rows. */
    static When when(String description, Predicate<DiagOptions> condition, Row... rows) {
        return new When(description, condition, List.of(rows));
    }
}
