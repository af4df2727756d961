package org.jrdma.iba.diag;

import java.util.Objects;
import org.jrdma.iba.wire.IbaStruct;

/**
 * How a C tool prints a run of array elements on one line, as smpquery prints P_Key, GUID,
 * SL-to-VL and VL arbitration tables: a prefix, the elements with a separator between them, and
 * an ending.
 *
 * @param name      what the grid prints (for messages)
 * @param field     the element to show, by name with {@code {}} where its index goes:
 *                  {@code pKeyBlock[{}]} for element i of an array field, {@code guid{}} for
 *                  fields named by number, {@code entry[{}].vl} for a field of element i of an
 *                  array of structures
 * @param format    how each element is shown
 * @param prefix    what the line starts with: a {@link String#format} pattern given the caller's
 *                  arguments (smpquery's {@code "%4u: "} takes the index of the first element)
 * @param separator what goes between two elements
 * @param end       what goes after the last element
 */
public record Grid(String name, String field, Format format, String prefix, String separator, String end) {

    public Grid {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(field, "field");
        Objects.requireNonNull(format, "format");
        Objects.requireNonNull(prefix, "prefix");
        Objects.requireNonNull(separator, "separator");
        Objects.requireNonNull(end, "end");
        if (!field.contains("{}")) {
            throw new IllegalArgumentException(name + ": the field must say where the index goes with {}, not " + field);
        }
    }

    /**
     * One line of {@code count} elements (at least one) from element {@code from} of
     * {@code struct}, without the newline.
     *
     * @param prefixArguments the arguments of the {@link #prefix} pattern
     */
    public String line(IbaStruct struct, int from, int count, DiagOptions options, Object... prefixArguments) {
        StringBuilder out = new StringBuilder(String.format(java.util.Locale.ROOT, prefix, prefixArguments));
        for (int i = from; i < from + count; i++) {
            if (i > from) {
                out.append(separator);
            }
            FieldRefs.Ref ref = FieldRefs.resolve(struct, elementName(i));
            out.append(format.apply(new Cell(struct, ref.field(), ref.bitOffset(), ref.field().bitLength(), options)));
        }
        return out.append(end).toString();
    }

    /** The name of element {@code index}: {@code pKeyBlock[3]}, {@code guid3}, {@code entry[3].vl}. */
    String elementName(int index) {
        return field.replace("{}", Integer.toString(index));
    }

    /** Whether {@code struct} has elements 0 to {@code count - 1} of the field. */
    public boolean fits(IbaStruct struct, int count) {
        try {
            for (int i = 0; i < count; i++) {
                FieldRefs.resolve(struct, elementName(i));
            }
            return true;
        } catch (IllegalStateException e) {
            return false;
        }
    }
}
