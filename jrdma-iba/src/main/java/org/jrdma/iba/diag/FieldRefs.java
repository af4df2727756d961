package org.jrdma.iba.diag;

import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.jrdma.iba.wire.Field;
import org.jrdma.iba.wire.IbaStruct;

/**
 * Finds the field a table names in a structure's {@link IbaStruct#fields() fields()}: a plain or
 * flattened nested name ({@code portInfo.lid}, {@code entry[3].vl}), or an element of an array
 * field ({@code pKey[3]}). The names are indexed once per class: a structure class's fields
 * are the same for all its instances, as the generated classes' are.
 */
final class FieldRefs {
    private static final Map<Class<?>, Map<String, Field>> BY_CLASS = new ConcurrentHashMap<>();

    private FieldRefs() {
    }

    /** A field and the element of it a reference names. */
    record Ref(Field field, int element) {
        int bitOffset() {
            return field.bitOffset(element);
        }
    }

    /**
     * Resolves {@code name} in {@code struct}.
     *
     * @throws IllegalStateException naming the structure and field when there is no such field
     */
    static Ref resolve(IbaStruct struct, String name) {
        Map<String, Field> fields = BY_CLASS.computeIfAbsent(struct.getClass(), c -> index(struct));
        Field f = fields.get(name);
        if (f != null) {
            return new Ref(f, 0);
        }
        if (name.endsWith("]")) {
            int open = name.lastIndexOf('[');
            if (open > 0) {
                Field array = fields.get(name.substring(0, open));
                int element = parseIndex(name.substring(open + 1, name.length() - 1));
                if (array != null && element >= 0 && element < array.count()) {
                    return new Ref(array, element);
                }
            }
        }
        throw new IllegalStateException(struct.ibaName() + " (" + struct.getClass().getSimpleName()
                + ") has no field " + name);
    }

    private static Map<String, Field> index(IbaStruct struct) {
        Map<String, Field> out = new HashMap<>();
        for (Field f : struct.fields()) {
            out.put(f.name(), f);
        }
        return Map.copyOf(out);
    }

    private static int parseIndex(String digits) {
        if (digits.isEmpty() || digits.length() > 4 || !digits.chars().allMatch(Character::isDigit)) {
            return -1;
        }
        return Integer.parseInt(digits);
    }
}
