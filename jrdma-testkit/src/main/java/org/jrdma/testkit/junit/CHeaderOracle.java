package org.jrdma.testkit.junit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.lang.foreign.GroupLayout;
import java.lang.foreign.MemoryLayout;
import java.lang.foreign.PaddingLayout;
import java.lang.foreign.UnionLayout;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The C compiler as the oracle of a hand-written binding: a C program, built with gcc against the
 * real header and library at test time, prints what the header says of each layout (size,
 * alignment, the offset and size of every named member, nested ones included), constant and
 * library text that the Java side spells by hand, one {@code key|value} line each; the test then
 * compares it, key by key, with what Java says. A missing gcc or header is a missing peer
 * ({@link NativeCommand#gcc}): the test fails under {@code CI=true}.
 *
 * <p>Use: {@code new CHeaderOracle("rdma/rdma_cma.h")}, then {@link #layout}, {@link #constant},
 * {@link #line} for each thing Java spells, {@link #run} once, and {@link #assertMatches} per kind.
 */
public final class CHeaderOracle {
    private final String header;
    private final StringBuilder program = new StringBuilder();
    /** What Java says, by key. */
    private final Map<String, String> expected = new LinkedHashMap<>();
    /** What the C program printed, by key; null before {@link #run}. */
    private Map<String, String> printed;

    /** A program including {@code header} (as {@code <header>}) and then {@code more} headers. */
    public CHeaderOracle(String header, String... more) {
        this.header = header;
        for (String include : List.of(header, "stddef.h", "stdio.h")) {
            program.append("#include <").append(include).append(">\n");
        }
        for (String include : more) {
            program.append("#include <").append(include).append(">\n");
        }
        program.append("int main(void) {\n");
    }

    /** Prints {@code expression} with printf's {@code format} under {@code key}; Java says {@code javaValue}. */
    public void line(String key, String format, String expression, String javaValue) {
        program.append("    printf(\"").append(key).append('|').append(format).append("\\n\", ").append(expression)
                .append(");\n");
        expected.put(key, javaValue);
    }

    /** The size, alignment and every named member's offset and size of the struct or union {@code layout} names. */
    public void layout(GroupLayout layout) {
        String name = layout.name().orElseThrow();
        String type = (layout instanceof UnionLayout ? "union " : "struct ") + name;
        line("size " + name, "%zu", "sizeof(" + type + ")", Long.toString(layout.byteSize()));
        line("align " + name, "%zu", "_Alignof(" + type + ")", Long.toString(layout.byteAlignment()));
        members(type, name, "", layout, 0);
    }

    /** Adds the offset and size of every named member of {@code group}, at {@code base} in {@code type}. */
    private void members(String type, String name, String prefix, GroupLayout group, long base) {
        long offset = base;
        for (MemoryLayout member : group.memberLayouts()) {
            long at = group instanceof UnionLayout ? base : offset;
            if (!(member instanceof PaddingLayout)) {
                String path = member.name().map(n -> prefix + n).orElse(null);
                if (path != null) {
                    line("offset " + name + "." + path, "%zu", "offsetof(" + type + ", " + path + ")", Long.toString(at));
                    line("sizeof " + name + "." + path, "%zu", "sizeof(((" + type + " *) 0)->" + path + ")",
                            Long.toString(member.byteSize()));
                }
                if (member instanceof GroupLayout nested) {
                    members(type, name, path == null ? prefix : path + ".", nested, at);
                }
            }
            offset += member.byteSize();
        }
    }

    /** The C constant {@code name}; Java says {@code value}. */
    public void constant(String name, long value) {
        line("constant " + name, "%lld", "(long long) " + name, Long.toString(value));
    }

    /** {@code prefix + NAME} for each enum constant, whose {@code int value()} Java says. */
    public void constants(String prefix, Enum<?>[] values) throws ReflectiveOperationException {
        for (Enum<?> value : values) {
            constant(prefix + value.name(), (int) value.getClass().getMethod("value").invoke(value));
        }
    }

    /** {@code prefix + NAME} for each public static int field of {@code holder} (flag bits). */
    public void flags(String prefix, Class<?> holder) throws IllegalAccessException {
        for (Field field : holder.getDeclaredFields()) {
            int modifiers = field.getModifiers();
            if (Modifier.isPublic(modifiers) && Modifier.isStatic(modifiers) && field.getType() == int.class) {
                constant(prefix + field.getName(), field.getInt(null));
            }
        }
    }

    /**
     * Compiles the program in {@code dir} with {@code libraries} (e.g. {@code -libverbs}; the
     * Debian {@code packages} hold the headers) and runs it.
     */
    public void run(Path dir, List<String> libraries, String packages) throws IOException, InterruptedException {
        Path source = dir.resolve("oracle.c");
        Files.writeString(source, program + "    return 0;\n}\n");
        List<String> arguments = new ArrayList<>(List.of("-Werror", source.toString()));
        arguments.addAll(libraries);
        Path exe = NativeCommand.gcc(dir, "oracle", arguments, packages);
        printed = new LinkedHashMap<>();
        for (String out : NativeCommand.run(dir, List.of(exe.toString()), null).requireSuccess().lines()) {
            int bar = out.indexOf('|');
            printed.put(out.substring(0, bar), out.substring(bar + 1));
        }
    }

    /** Compares every key starting with one of {@code kinds} ({@code "size "}, {@code "constant "}...); lists all mismatches at once. */
    public void assertMatches(String... kinds) {
        assertTrue(printed != null, "the oracle has not run");
        List<String> mismatches = new ArrayList<>();
        int checked = 0;
        for (Map.Entry<String, String> entry : expected.entrySet()) {
            String key = entry.getKey();
            if (List.of(kinds).stream().noneMatch(key::startsWith)) {
                continue;
            }
            checked++;
            String actual = printed.get(key);
            if (!entry.getValue().equals(actual)) {
                mismatches.add(key + ": Java " + entry.getValue() + ", C " + actual);
            }
        }
        assertTrue(checked > 0, "nothing checked for " + List.of(kinds));
        assertEquals(List.of(), mismatches, checked + " checked");
        System.out.println(header + " oracle: " + checked + " " + List.of(kinds) + " values match");
    }
}
