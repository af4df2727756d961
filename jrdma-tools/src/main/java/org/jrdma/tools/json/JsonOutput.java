package org.jrdma.tools.json;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.SerializerProvider;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.databind.module.SimpleModule;
import com.fasterxml.jackson.databind.ser.std.StdSerializer;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import org.jrdma.iba.Gid;
import org.jrdma.iba.Guid;
import org.jrdma.iba.wire.Field;
import org.jrdma.iba.wire.IbaStruct;

/**
 * Writes a command's result as its JSON document with Jackson. A command hands over a plain value:
 * a record (its components become the members, in declaration order; null components are left out),
 * a list, a map, or the library's values, which have one form everywhere:
 * <ul>
 *   <li>{@link Guid}: a string, {@code "0x0002c90300001491"} (infiniband-diags' form);</li>
 *   <li>{@link Gid}: a string, the IPv6 text form ({@code "fe80::2:c903:0:1491"});</li>
 *   <li>{@link IbaStruct} (a MAD attribute, an SA record): an object with one member per component,
 *       named as in IBA ({@code lid}, {@code linkWidthActive}, {@code portXmitData}), reserved bits
 *       left out, nested structures as nested objects, arrays as arrays, integers as numbers
 *       (64-bit counters above 2^63 stay exact), GUIDs and GIDs as above, text as strings, opaque
 *       bytes as hex strings.</li>
 *   <li>{@code byte[]}: a hex string.</li>
 * </ul>
 */
public final class JsonOutput {
    private static final ObjectMapper MAPPER = JsonMapper.builder()
            .addModule(new SimpleModule("jrdma")
                    .addSerializer(Guid.class, new ToStringSerializer<>(Guid.class, Guid::toHexString))
                    .addSerializer(Gid.class, new ToStringSerializer<>(Gid.class, Gid::toString))
                    .addSerializer(byte[].class, new ToStringSerializer<>(byte[].class, HexFormat.of()::formatHex))
                    .addSerializer(IbaStruct.class, new StructSerializer()))
            .defaultPropertyInclusion(JsonInclude.Value.construct(JsonInclude.Include.NON_NULL, JsonInclude.Include.NON_NULL))
            .disable(SerializationFeature.FAIL_ON_EMPTY_BEANS)
            .build();

    private JsonOutput() {
    }

    /** Writes {@code document} on {@code out}, indented or on one line, followed by a newline. */
    public static void write(PrintWriter out, Object document, boolean compact) {
        try {
            String text = compact ? MAPPER.writeValueAsString(document) : MAPPER.writerWithDefaultPrettyPrinter().writeValueAsString(document);
            out.print(text + "\n");
            out.flush();
        } catch (JsonProcessingException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * A JSON document another command wrote ({@code text}), as a value {@link #write} writes as it
     * was: for a command that runs another with {@code --json} and carries its document.
     *
     * @throws IllegalArgumentException if {@code text} is not one JSON document
     */
    public static Object document(String text) {
        try {
            JsonNode document = MAPPER.readTree(text);
            if (document == null || document.isMissingNode()) {
                throw new IllegalArgumentException("not a JSON document: nothing written");
            }
            return document;
        } catch (JsonProcessingException e) {
            throw new IllegalArgumentException("not a JSON document: " + e.getOriginalMessage(), e);
        }
    }

    /**
     * An IBA structure's components as an ordered map (the form {@link #write} gives it): reserved
     * bits left out, dotted names of nested structures as nested maps.
     */
    public static Map<String, Object> fields(IbaStruct struct) {
        Map<String, Object> members = new LinkedHashMap<>();
        for (Field f : struct.fields()) {
            if (f.kind() == Field.Kind.RESERVED) {
                continue;
            }
            Object value;
            if (f.count() == 1) {
                value = value(f, struct, 0);
            } else {
                Object[] elements = new Object[f.count()];
                for (int i = 0; i < elements.length; i++) {
                    elements[i] = value(f, struct, i);
                }
                value = List.of(elements);
            }
            put(members, f.name(), value);
        }
        return members;
    }

    private static Object value(Field f, IbaStruct struct, int index) {
        Object v = f.value(struct, index);
        return v instanceof Long l && l < 0 ? new BigInteger(Long.toUnsignedString(l)) : v;
    }

    /**
     * Puts {@code value} at {@code dottedName}: a part {@code name[i]} (an element of an array of
     * nested structures, {@code caCongestionEntryList[3].cctiTimer}) is element {@code i} of the
     * array {@code name}, the others nested objects.
     */
    @SuppressWarnings("unchecked")
    private static void put(Map<String, Object> members, String dottedName, Object value) {
        int dot = dottedName.indexOf('.');
        if (dot < 0) {
            members.put(dottedName, value);
            return;
        }
        String part = dottedName.substring(0, dot);
        Map<String, Object> inner;
        int bracket = part.indexOf('[');
        if (bracket > 0 && part.endsWith("]")) {
            List<Object> elements = (List<Object>) members.computeIfAbsent(part.substring(0, bracket), _ -> new ArrayList<>());
            int index = Integer.parseInt(part.substring(bracket + 1, part.length() - 1));
            while (elements.size() <= index) {
                elements.add(new LinkedHashMap<String, Object>());
            }
            inner = (Map<String, Object>) elements.get(index);
        } else {
            inner = (Map<String, Object>) members.computeIfAbsent(part, _ -> new LinkedHashMap<String, Object>());
        }
        put(inner, dottedName.substring(dot + 1), value);
    }

    /** A value written as one string. */
    private static final class ToStringSerializer<T> extends StdSerializer<T> {
        private static final long serialVersionUID = 1L;
        private final transient Function<T, String> text;

        ToStringSerializer(Class<T> type, Function<T, String> text) {
            super(type);
            this.text = text;
        }

        @Override
        public void serialize(T value, JsonGenerator gen, SerializerProvider provider) throws IOException {
            gen.writeString(text.apply(value));
        }
    }

    /** An IBA structure written as {@link #fields}. */
    private static final class StructSerializer extends StdSerializer<IbaStruct> {
        private static final long serialVersionUID = 1L;

        StructSerializer() {
            super(IbaStruct.class);
        }

        @Override
        public void serialize(IbaStruct value, JsonGenerator gen, SerializerProvider provider) throws IOException {
            provider.defaultSerializeValue(fields(value), gen);
        }
    }
}
