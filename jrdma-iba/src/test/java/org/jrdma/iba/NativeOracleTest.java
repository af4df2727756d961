package org.jrdma.iba;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.function.IntFunction;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Compares this package's numbers and texts with the C libraries infiniband-diags is built on:
 * libibmad's dumpers, libibumad's string tables, libibverbs' rate conversions, and glibc's
 * {@code inet_pton}/{@code inet_ntop} for GID text.
 */
class NativeOracleTest {
    @TempDir
    Path dir;

    @Test
    void enumTextsAreThoseOfLibibmad() throws Exception {
        Path exe = NativeOracle.compile(dir, """
                #include <stdio.h>
                #include <infiniband/mad.h>
                typedef void (*dumper)(char *, int, void *, int);
                static void dump(const char *kind, dumper f) {
                    char buf[256];
                    for (int v = 0; v < 256; v++) {
                        f(buf, sizeof buf, &v, sizeof v);
                        printf("%s %d %s\\n", kind, v, buf);
                    }
                }
                int main(void) {
                    dump("NodeType", mad_dump_node_type);
                    dump("PortState", mad_dump_portstate);
                    dump("PhysPortState", mad_dump_physportstate);
                    dump("Mtu", mad_dump_mtu);
                    dump("LinkWidth", mad_dump_linkwidth);
                    dump("LinkSpeed", mad_dump_linkspeed);
                    dump("LinkSpeedExt", mad_dump_linkspeedext);
                    return 0;
                }
                """, "ibmad");
        Map<String, IntFunction<String>> ours = Map.of(
                "NodeType", NodeType::describe, "PortState", PortState::describe,
                "PhysPortState", PhysPortState::describe, "Mtu", Mtu::describe, "LinkWidth", LinkWidth::describe,
                "LinkSpeed", LinkSpeed::describe, "LinkSpeedExt", LinkSpeedExt::describe);
        List<String> lines = NativeOracle.execute(exe, "");
        assertEquals(7 * 256, lines.size());
        for (String line : lines) {
            String[] fields = line.split(" ", 3);
            assertEquals(fields[2], ours.get(fields[0]).apply(Integer.parseInt(fields[1])), line);
        }
    }

    @Test
    void ratesAreThoseOfLibibverbs() throws Exception {
        Path exe = NativeOracle.compile(dir, """
                #include <stdio.h>
                #include <infiniband/verbs.h>
                int main(void) {
                    for (int v = 0; v < 64; v++) {
                        int mbps = ibv_rate_to_mbps((enum ibv_rate) v);
                        printf("%d %d %d\\n", v, mbps, mbps < 0 ? -1 : (int) mbps_to_ibv_rate(mbps));
                    }
                    return 0;
                }
                """, "ibverbs");
        List<String> lines = NativeOracle.execute(exe, "");
        assertEquals(64, lines.size());
        for (String line : lines) {
            String[] fields = line.split(" ");
            int value = Integer.parseInt(fields[0]);
            StaticRate rate = StaticRate.fromValueOrNull(value);
            assertEquals(Integer.parseInt(fields[1]), rate == null ? -1 : rate.mbps(), line);
            if (rate != null) {
                assertEquals(value, Integer.parseInt(fields[2]), line);
            }
        }
    }

    @Test
    void madNamesAreThoseOfLibibumad() throws Exception {
        Path exe = NativeOracle.compile(dir, """
                #include <stdio.h>
                #include <arpa/inet.h>
                #include <infiniband/umad_str.h>
                int main(void) {
                    for (int c = 0; c < 256; c++) {
                        printf("class %d %s\\n", c, umad_class_str(c));
                        for (int m = 0; m < 256; m++)
                            printf("method %d %d %s\\n", c, m, umad_method_str(c, m));
                    }
                    for (int s = 0; s < 0x20; s++)
                        printf("status %d %s\\n", s, umad_common_mad_status_str(htons(s)));
                    for (int code = 0; code < 0x80; code++)
                        printf("sa %d %s\\n", code, umad_sa_mad_status_str(htons(code << 8)));
                    return 0;
                }
                """, "ibumad");
        int checked = 0;
        for (String line : NativeOracle.execute(exe, "")) {
            String[] f = line.split(" ", 4);
            switch (f[0]) {
                case "class" -> assertEquals(line.substring(line.indexOf(' ', 6) + 1),
                        Mad.className(Integer.parseInt(f[1])), line);
                case "method" -> {
                    // umad_str.c misses the '>' of "<unknown>" for common methods.
                    String expected = f[3].equals("<unknown") ? "<unknown>" : f[3];
                    assertEquals(expected, Mad.methodName(Integer.parseInt(f[1]), Integer.parseInt(f[2])), line);
                }
                case "status" -> {
                    int status = Integer.parseInt(f[1]);
                    String expected = line.substring(line.indexOf(' ', 7) + 1);
                    int field = (status & Mad.STATUS_INVALID_FIELD_MASK) >> 2;
                    if (field >= 4 && field <= 6 && (status & 3) == 0) {
                        // Reserved field codes: libibumad says "Success", we name the code.
                        assertEquals("Success", expected, line);
                        assertEquals("Reserved invalid field code " + field, Mad.statusToString(status), line);
                    } else {
                        // libibumad names the first error only, in the order we list them.
                        assertEquals(expected, Mad.statusToString(status).split(", ")[0], line);
                    }
                }
                case "sa" -> {
                    int code = Integer.parseInt(f[1]);
                    String expected = line.substring(line.indexOf(' ', 3) + 1);
                    String text = Mad.statusToString(Mad.CLASS_SUBN_ADM, code << 8);
                    if (code <= 8) {
                        assertEquals(expected, text, line);
                    } else {
                        assertEquals("Undefined Error", expected, line);
                        assertEquals(String.format("Class-specific status 0x%02x", code), text, line);
                    }
                }
                default -> throw new AssertionError(line);
            }
            checked++;
        }
        assertEquals(256 + 256 * 256 + 0x20 + 0x80, checked);
    }

    @Test
    void gidTextIsThatOfGlibc() throws Exception {
        Path exe = NativeOracle.compile(dir, """
                #include <stdio.h>
                #include <string.h>
                #include <arpa/inet.h>
                int main(void) {
                    char line[512], out[INET6_ADDRSTRLEN];
                    unsigned char b[16];
                    while (fgets(line, sizeof line, stdin)) {
                        size_t n = strlen(line);
                        if (n && line[n - 1] == '\\n') line[--n] = 0;
                        if (line[0] == 'P') {
                            if (inet_pton(AF_INET6, line + 2, b) == 1) {
                                printf("OK ");
                                for (int i = 0; i < 16; i++) printf("%02x", b[i]);
                                printf("\\n");
                            } else {
                                printf("ERR\\n");
                            }
                        } else {
                            for (int i = 0; i < 16; i++) sscanf(line + 2 + 2 * i, "%2hhx", &b[i]);
                            printf("%s\\n", inet_ntop(AF_INET6, b, out, sizeof out));
                        }
                    }
                    return 0;
                }
                """);
        Random random = new Random(20240611);
        List<Gid> gids = new ArrayList<>();
        int[] special = {0, 0, 0, 0, 0xffff, 1, 0xfe80, 0xff02};
        for (int i = 0; i < 4000; i++) {
            long[] halves = new long[2];
            for (int w = 0; w < 8; w++) {
                int word = random.nextInt(3) == 0 ? random.nextInt(0x10000) : special[random.nextInt(special.length)];
                halves[w / 4] = halves[w / 4] << 16 | word;
            }
            gids.add(new Gid(halves[0], halves[1]));
        }
        gids.add(new Gid(0, 0));
        gids.add(new Gid(-1L, -1L));
        Set<String> texts = new LinkedHashSet<>(List.of("::", "::1", "1::", ":::", "::ffff:1.2.3.4", "::1.2.3.4",
                "1:2:3:4:5:6:1.2.3.4", "::01.2.3.4", "::1.2.3.04", "::0.0.0.0", "1:2:3:4:5:6:7::", "::2:3:4:5:6:7:8",
                "1:2:3:4:5:6::1.2.3.4", "1:2:3:4:5:6:7:1.2.3.4", "00000::", "0000::", "::00000", "1.2.3.4",
                "fe80::1%eth0", "::1.2.3.256", "::1.2.3", "::1.2.3.4.5", "", ":", "1:", ":1", "::1:2:3:4:5:6:7:8",
                "1::2:3:4:5:6:7:8", "::ffff:0.0.0.0", "1:2:3:4:5:6:7:8:", "::1.2.3.4:5"));
        String alphabet = "0123456789abcdefABCDEF::::....xg% ";
        for (Gid gid : gids) {
            String text = gid.toString();
            texts.add(text);
            texts.add(mutate(text, random, alphabet));
        }
        for (int i = 0; i < 4000; i++) {
            var text = new StringBuilder();
            for (int n = random.nextInt(30); n > 0; n--) {
                text.append(alphabet.charAt(random.nextInt(alphabet.length())));
            }
            texts.add(text.toString());
        }
        var input = new StringBuilder();
        HexFormat hex = HexFormat.of();
        for (Gid gid : gids) {
            input.append("N ").append(hex.formatHex(gid.toBytes())).append('\n');
        }
        for (String text : texts) {
            input.append("P ").append(text).append('\n');
        }
        List<String> lines = NativeOracle.execute(exe, input.toString());
        assertEquals(gids.size() + texts.size(), lines.size());
        int line = 0;
        for (Gid gid : gids) {
            assertEquals(lines.get(line++), gid.toString(), () -> "inet_ntop of " + hex.formatHex(gid.toBytes()));
        }
        int accepted = 0;
        for (String text : texts) {
            String expected = lines.get(line++);
            String actual;
            try {
                actual = "OK " + hex.formatHex(Gid.parse(text).toBytes());
                accepted++;
            } catch (IllegalArgumentException rejected) {
                actual = "ERR";
            }
            assertEquals(expected, actual, () -> "inet_pton of " + UntrustedText.quote(text));
        }
        assertTrue(accepted > 4000, "too few valid inputs to be a meaningful comparison: " + accepted);
    }

    private static String mutate(String text, Random random, String alphabet) {
        var mutated = new StringBuilder(text);
        for (int n = 1 + random.nextInt(2); n > 0; n--) {
            int at = random.nextInt(mutated.length() + 1);
            switch (random.nextInt(3)) {
                case 0 -> mutated.insert(at, alphabet.charAt(random.nextInt(alphabet.length())));
                case 1 -> {
                    if (at < mutated.length()) {
                        mutated.deleteCharAt(at);
                    }
                }
                default -> {
                    if (at < mutated.length()) {
                        mutated.setCharAt(at, alphabet.charAt(random.nextInt(alphabet.length())));
                    }
                }
            }
        }
        return mutated.toString();
    }
}
