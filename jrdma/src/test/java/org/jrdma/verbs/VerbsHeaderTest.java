package org.jrdma.verbs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.foreign.GroupLayout;
import java.lang.foreign.MemoryLayout;
import java.lang.foreign.PaddingLayout;
import java.lang.foreign.UnionLayout;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.jrdma.verbs.ffi.IbvQpEx;
import org.jrdma.verbs.ffi.Structs;
import org.jrdma.verbs.ffi.StructsEx;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Checks every hand-written verbs.h layout ({@link Structs#ALL}: the size and alignment of each
 * structure, the offset and size of each named member, nested ones included) and every verbs.h
 * constant jrdma spells in Java (enums and flag bits), plus the texts of
 * {@code ibv_wc_status_str} and {@code ibv_event_type_str}, against one C program compiled with
 * gcc at test time.
 */
class VerbsHeaderTest {
    @TempDir
    static Path dir;

    /** What the C program printed: {@code key -> value}. */
    private static Map<String, String> oracle;
    /** What Java says for the same keys. */
    private static final Map<String, String> EXPECTED = new LinkedHashMap<>();

    @BeforeAll
    static void runOracle() throws Exception {
        StringBuilder c = new StringBuilder("""
                #include <infiniband/verbs.h>
                #include <errno.h>
                #include <stddef.h>
                #include <stdio.h>
                int main(void) {
                """);
        for (GroupLayout layout : Stream.concat(Structs.ALL.stream(), StructsEx.ALL.stream()).toList()) {
            String type = (layout instanceof UnionLayout ? "union " : "struct ") + layout.name().orElseThrow();
            String name = layout.name().orElseThrow();
            line(c, "size " + name, "%zu", "sizeof(" + type + ")", Long.toString(layout.byteSize()));
            line(c, "align " + name, "%zu", "_Alignof(" + type + ")", Long.toString(layout.byteAlignment()));
            members(c, type, name, "", layout, 0);
        }
        constants(c, "IBV_QPT_", QpType.values());
        constants(c, "IBV_QPS_", QpState.values());
        constants(c, "IBV_WC_", WcStatus.values());
        constants(c, "IBV_WC_", WcOpcode.values());
        constants(c, "IBV_WR_", WrOpcode.values());
        constants(c, "IBV_EVENT_", EventType.values());
        flags(c, "IBV_ACCESS_", Access.class);
        flags(c, "IBV_SEND_", SendFlags.class);
        flags(c, "IBV_QP_", QpAttr.class);
        flags(c, "IBV_WC_", WcBuffer.class);
        flags(c, "IBV_", PortAttr.class);
        constants(c, "IBV_FORK_", ForkStatus.values());
        flags(c, "IBV_WC_EX_WITH_", WcFlagsEx.class);
        flags(c, "IBV_QP_EX_WITH_", SendOps.class);
        flags(c, "IBV_MW_", Mw.class);
        flags(c, "IBV_GID_TYPE_", GidEntry.class);
        constant(c, "IBV_DEVICE_MEM_WINDOW", (int) DeviceAttrEx.MEM_WINDOW);
        constant(c, "IBV_DEVICE_XRC", (int) DeviceAttrEx.XRC);
        constant(c, "IBV_DEVICE_MEM_MGT_EXTENSIONS", (int) DeviceAttrEx.MEM_MGT_EXTENSIONS);
        constant(c, "IBV_DEVICE_MEM_WINDOW_TYPE_2A", (int) DeviceAttrEx.MEM_WINDOW_TYPE_2A);
        constant(c, "IBV_DEVICE_MEM_WINDOW_TYPE_2B", (int) DeviceAttrEx.MEM_WINDOW_TYPE_2B);
        constant(c, "IBV_ODP_SUPPORT", (int) DeviceAttrEx.ODP_SUPPORT);
        constant(c, "IBV_ODP_SUPPORT_IMPLICIT", (int) DeviceAttrEx.ODP_SUPPORT_IMPLICIT);
        constant(c, "IBV_QP_INIT_ATTR_PD", IbvQpEx.INIT_ATTR_PD);
        constant(c, "IBV_QP_INIT_ATTR_XRCD", IbvQpEx.INIT_ATTR_XRCD);
        constant(c, "IBV_QP_INIT_ATTR_SEND_OPS_FLAGS", IbvQpEx.INIT_ATTR_SEND_OPS_FLAGS);
        constant(c, "EOPNOTSUPP", UnsupportedVerbException.EOPNOTSUPP);
        constant(c, "ENOSYS", UnsupportedVerbException.ENOSYS);
        constant(c, "IBV_SRQ_MAX_WR", Srq.MAX_WR);
        constant(c, "IBV_SRQ_LIMIT", Srq.LIMIT);
        for (WcStatus status : WcStatus.values()) {
            line(c, "ibv_wc_status_str " + status.value(), "%s", "ibv_wc_status_str(" + status.value() + ")",
                    status.text());
        }
        for (EventType type : EventType.values()) {
            line(c, "ibv_event_type_str " + type.value(), "%s", "ibv_event_type_str(" + type.value() + ")",
                    type.text());
        }
        c.append("    return 0;\n}\n");
        oracle = new LinkedHashMap<>();
        for (String out : GccOracle.run(dir, c.toString())) {
            int bar = out.indexOf('|');
            oracle.put(out.substring(0, bar), out.substring(bar + 1));
        }
    }

    private static void line(StringBuilder c, String key, String format, String expression, String expected) {
        c.append("    printf(\"").append(key).append('|').append(format).append("\\n\", ").append(expression).append(");\n");
        EXPECTED.put(key, expected);
    }

    /** Adds the offset and size of every named member of {@code group}, at {@code base} in {@code type}. */
    private static void members(StringBuilder c, String type, String name, String prefix, GroupLayout group,
            long base) {
        long offset = base;
        for (MemoryLayout member : group.memberLayouts()) {
            long at = group instanceof UnionLayout ? base : offset;
            if (!(member instanceof PaddingLayout)) {
                String path = member.name().map(n -> prefix + n).orElse(null);
                if (path != null) {
                    line(c, "offset " + name + "." + path, "%zu", "offsetof(" + type + ", " + path + ")",
                            Long.toString(at));
                    line(c, "sizeof " + name + "." + path, "%zu", "sizeof(((" + type + " *) 0)->" + path + ")",
                            Long.toString(member.byteSize()));
                }
                if (member instanceof GroupLayout nested) {
                    members(c, type, name, path == null ? prefix : path + ".", nested, at);
                }
            }
            offset += member.byteSize();
        }
    }

    private static void constants(StringBuilder c, String prefix, Enum<?>[] values) throws ReflectiveOperationException {
        for (Enum<?> value : values) {
            int number = (int) value.getClass().getMethod("value").invoke(value);
            constant(c, prefix + value.name(), number);
        }
    }

    private static void flags(StringBuilder c, String prefix, Class<?> holder) throws IllegalAccessException {
        for (Field field : holder.getDeclaredFields()) {
            int modifiers = field.getModifiers();
            if (Modifier.isPublic(modifiers) && Modifier.isStatic(modifiers) && field.getType() == int.class) {
                constant(c, prefix + field.getName(), field.getInt(null));
            }
        }
    }

    private static void constant(StringBuilder c, String name, int value) {
        line(c, "constant " + name, "%lld", "(long long) " + name, Integer.toString(value));
    }

    @Test
    void everyLayoutMatchesVerbsH() {
        assertMatches("size ", "align ", "offset ", "sizeof ");
    }

    @Test
    void everyConstantMatchesVerbsH() {
        assertMatches("constant ");
    }

    @Test
    void statusAndEventTextsMatchLibibverbs() {
        assertMatches("ibv_wc_status_str ", "ibv_event_type_str ");
    }

    /** Compares every expectation whose key starts with one of {@code kinds}; lists all mismatches at once. */
    private static void assertMatches(String... kinds) {
        List<String> mismatches = new ArrayList<>();
        int checked = 0;
        for (Map.Entry<String, String> expected : EXPECTED.entrySet()) {
            String key = expected.getKey();
            if (List.of(kinds).stream().noneMatch(key::startsWith)) {
                continue;
            }
            checked++;
            String actual = oracle.get(key);
            if (!expected.getValue().equals(actual)) {
                mismatches.add(key + ": Java " + expected.getValue() + ", C " + actual);
            }
        }
        assertTrue(checked > 0, "nothing checked for " + List.of(kinds));
        assertEquals(List.of(), mismatches, checked + " checked");
        System.out.println("verbs.h oracle: " + checked + " " + List.of(kinds) + " values match");
    }
}
