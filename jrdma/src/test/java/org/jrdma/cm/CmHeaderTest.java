package org.jrdma.cm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.foreign.GroupLayout;
import java.lang.foreign.MemoryLayout;
import java.lang.foreign.PaddingLayout;
import java.lang.foreign.UnionLayout;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.jrdma.cm.ffi.CmStructs;
import org.jrdma.testkit.junit.NativeCommand;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Checks every hand-written {@code <rdma/rdma_cma.h>} layout ({@link CmStructs#ALL}: size,
 * alignment, and the offset and size of each named member, nested ones included), the port
 * spaces, the address families, the event types and their {@code rdma_event_str} texts against
 * one C program compiled with gcc and linked with librdmacm at test time.
 */
class CmHeaderTest {
    @TempDir
    static Path dir;

    private static Map<String, String> oracle;
    private static final Map<String, String> EXPECTED = new LinkedHashMap<>();

    @BeforeAll
    static void runOracle() throws Exception {
        StringBuilder c = new StringBuilder("""
                #include <rdma/rdma_cma.h>
                #include <netinet/in.h>
                #include <stddef.h>
                #include <stdio.h>
                int main(void) {
                """);
        for (GroupLayout layout : CmStructs.ALL) {
            String type = "struct " + layout.name().orElseThrow();
            String name = layout.name().orElseThrow();
            line(c, "size " + name, "%zu", "sizeof(" + type + ")", Long.toString(layout.byteSize()));
            line(c, "align " + name, "%zu", "_Alignof(" + type + ")", Long.toString(layout.byteAlignment()));
            members(c, type, name, "", layout, 0);
        }
        for (PortSpace ps : PortSpace.values()) {
            constant(c, "RDMA_PS_" + ps.name(), ps.value());
        }
        for (CmEventType type : CmEventType.values()) {
            constant(c, type.text(), type.value());
            line(c, "rdma_event_str " + type.value(), "%s", "rdma_event_str(" + type.value() + ")", type.text());
        }
        constant(c, "AF_INET", CmStructs.AF_INET);
        constant(c, "AF_INET6", CmStructs.AF_INET6);
        constant(c, "AF_IB", CmStructs.AF_IB);
        constant(c, "sizeof(struct sockaddr_storage)", (int) CmStructs.SOCKADDR_STORAGE_SIZE);
        constant(c, "RDMA_UDP_QKEY", RdmaCmId.UDP_QKEY);
        c.append("    return 0;\n}\n");
        Path source = dir.resolve("oracle.c");
        Files.writeString(source, c.toString());
        Path exe = NativeCommand.gcc(dir, "oracle", List.of("-Werror", source.toString(), "-lrdmacm", "-libverbs"),
                "librdmacm-dev");
        oracle = new LinkedHashMap<>();
        for (String out : NativeCommand.run(dir, List.of(exe.toString()), null).requireSuccess().lines()) {
            int bar = out.indexOf('|');
            oracle.put(out.substring(0, bar), out.substring(bar + 1));
        }
    }

    private static void line(StringBuilder c, String key, String format, String expression, String expected) {
        c.append("    printf(\"").append(key).append('|').append(format).append("\\n\", ").append(expression).append(");\n");
        EXPECTED.put(key, expected);
    }

    /** Adds the offset and size of every named member of {@code group}, at {@code base} in {@code type}. */
    private static void members(StringBuilder c, String type, String name, String prefix, GroupLayout group, long base) {
        long offset = base;
        for (MemoryLayout member : group.memberLayouts()) {
            long at = group instanceof UnionLayout ? base : offset;
            if (!(member instanceof PaddingLayout)) {
                String path = prefix + member.name().orElseThrow();
                line(c, "offset " + name + "." + path, "%zu", "offsetof(" + type + ", " + path + ")", Long.toString(at));
                line(c, "sizeof " + name + "." + path, "%zu", "sizeof(((" + type + " *) 0)->" + path + ")",
                        Long.toString(member.byteSize()));
                if (member instanceof GroupLayout nested) {
                    members(c, type, name, path + ".", nested, at);
                }
            }
            offset += member.byteSize();
        }
    }

    private static void constant(StringBuilder c, String name, long value) {
        line(c, "constant " + name, "%lld", "(long long) " + name, Long.toString(value));
    }

    @Test
    void everyLayoutMatchesRdmaCmaH() {
        assertMatches("size ", "align ", "offset ", "sizeof ");
    }

    @Test
    void everyConstantMatchesRdmaCmaH() {
        assertMatches("constant ");
    }

    @Test
    void eventTextsMatchLibrdmacm() {
        assertMatches("rdma_event_str ");
    }

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
        System.out.println("rdma_cma.h oracle: " + checked + " " + List.of(kinds) + " values match");
    }
}
