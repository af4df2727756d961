package org.jrdma.iba;

import java.util.Collection;
import java.util.EnumSet;
import java.util.function.IntFunction;

/** The lookups every {@link WireCode} enum offers, written once: by value, by bit mask, as text. */
final class WireCodes {
    private WireCodes() {
    }

    /** The code among {@code codes} whose value is {@code value}, or null for a reserved value. */
    static <E extends WireCode> E byValueOrNull(E[] codes, int value) {
        for (E code : codes) {
            if (code.value() == value) {
                return code;
            }
        }
        return null;
    }

    /**
     * The code among {@code codes} whose value is {@code value}.
     *
     * @param field the IBA name of the field, for the message
     * @param defined what the IBA defines, for the message
     * @throws IllegalArgumentException if no code has that value
     */
    static <E extends WireCode> E byValue(E[] codes, int value, String field, String defined) {
        E code = byValueOrNull(codes, value);
        if (code == null) {
            throw new IllegalArgumentException("Unknown " + field + " " + value + " (" + defined + ")");
        }
        return code;
    }

    /** The codes whose single-bit values are set in {@code mask}; other bits are ignored. */
    static <E extends Enum<E> & WireCode> EnumSet<E> fromMask(Class<E> type, E[] codes, int mask) {
        EnumSet<E> set = EnumSet.noneOf(type);
        for (E code : codes) {
            if ((mask & code.value()) != 0) {
                set.add(code);
            }
        }
        return set;
    }

    /** The bit mask of single-bit {@code codes}. */
    static int toMask(Collection<? extends WireCode> codes) {
        int mask = 0;
        for (WireCode code : codes) {
            mask |= code.value();
        }
        return mask;
    }

    /** The text of the code whose value is {@code value}, or {@code unknown} applied to it. */
    static <E extends WireCode> String describe(E[] codes, int value, IntFunction<String> unknown) {
        E code = byValueOrNull(codes, value);
        return code != null ? code.text() : unknown.apply(value);
    }
}
