package org.jrdma.iba.wire;

import static org.junit.jupiter.api.Assertions.fail;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.jrdma.testkit.Executables;
import org.jrdma.testkit.junit.NativeCommand;
import org.jrdma.testkit.junit.Peers;

/**
 * libibmad's view of every field it knows ({@code enum MAD_FIELDS} in {@code <infiniband/mad.h>}),
 * obtained by compiling and running {@code src/test/c/ibmad_oracle.c} against the installed
 * library: each field's bits, found by probing, and {@code mad_decode_field}/{@code mad_encode_field}
 * on buffers this side supplies, so the two sides compare the same bytes without sharing a random
 * number generator.
 *
 * <p>The list of fields is not written down here: the enum's identifiers are read from the header
 * the compiler includes and written into {@code mad_fields.inc} as {@code {IB_X_F, "IB_X_F"},}
 * lines, so the compiler supplies their values.
 *
 * <p>A missing gcc, header or library is a missing peer: the test fails when {@code CI=true} and is
 * skipped loudly elsewhere, as {@code org.jrdma.testkit.junit.Peers} does.
 */
final class LibibmadOracle {
    /** Size of every buffer handed to the C side; must match BUF_SIZE in ibmad_oracle.c. */
    static final int BUF_SIZE = 2048;
    /** Room reserved for one value in a value pool; must match MAX_VALUE in ibmad_oracle.c. */
    static final int MAX_VALUE = 256;
    private static final Pattern IDENT = Pattern.compile("\\bIB_[A-Z0-9_]*_F\\b");

    /**
     * One identifier of {@code enum MAD_FIELDS} as libibmad handles it.
     *
     * @param ident    the enum identifier
     * @param value    its value (aliases such as IB_PORT_FIRST_F share one)
     * @param path     how libibmad moves it: "u32" (up to 32 bits), "u64" or "array" (bytes)
     * @param length   its width in bits, 0 for the markers that have none
     * @param first    the first bit it occupies, from the most significant bit of byte 0, or -1
     * @param last     the last bit it occupies, or -1
     * @param popcount how many bits encoding its largest value sets
     * @param name     {@code mad_field_name()}, possibly empty
     */
    record LibField(String ident, int value, String path, int length, int first, int last, int popcount,
            String name) {
        boolean hasBits() {
            return length > 0 && first >= 0;
        }

        /** Whether the bits are one contiguous run of {@code length} bits. */
        boolean regular() {
            return hasBits() && popcount == length && last - first + 1 == length;
        }

        String bits() {
            return hasBits() ? first + ".." + last + " (" + length + " bits)" : "no bits";
        }
    }

    final Path header;
    /** Every identifier in declaration order. */
    final Map<String, LibField> fields;
    private final Map<Integer, String[]> decoded;
    private final Map<Integer, String[]> encoded;
    private final byte[][] pools;
    private final Map<Integer, byte[][]> decodedBytes = new HashMap<>();

    private LibibmadOracle(Path header, Map<String, LibField> fields, Map<Integer, String[]> decoded,
            Map<Integer, String[]> encoded, byte[][] pools) {
        this.header = header;
        this.fields = fields;
        this.decoded = decoded;
        this.encoded = encoded;
        this.pools = pools;
    }

    /**
     * Builds and runs the oracle in {@code dir}: libibmad decodes every field of every buffer, and
     * for round r encodes a value taken from {@code pools[r]} into a copy of {@code buffers[r]}.
     */
    static LibibmadOracle run(Path dir, byte[][] buffers, byte[][] pools) throws IOException, InterruptedException {
        if (pools.length > buffers.length) {
            throw new IllegalArgumentException("more rounds than buffers");
        }
        Path header = locateHeader(dir);
        List<String> idents = enumIdentifiers(Files.readString(header));
        if (idents.size() < 100) {
            fail("found only " + idents.size() + " identifiers of enum MAD_FIELDS in " + header);
        }
        StringBuilder table = new StringBuilder();
        for (String ident : idents) {
            table.append('{').append(ident).append(", \"").append(ident).append("\"},\n");
        }
        Files.writeString(dir.resolve("mad_fields.inc"), table);
        Path exe = NativeCommand.gcc(dir, "ibmad_oracle", List.of("-O1", "-I", dir.toString(), source().toString(),
                "-libmad"), "libibmad-dev");
        Path input = dir.resolve("oracle-input.bin");
        try (var out = Files.newOutputStream(input)) {
            byte[] counts = new byte[8];
            putBits(counts, 0, 32, buffers.length);
            putBits(counts, 32, 32, pools.length);
            out.write(counts);
            for (byte[] b : buffers) {
                checkSize(b);
                out.write(b);
            }
            for (byte[] p : pools) {
                checkSize(p);
                out.write(p);
            }
        }
        NativeCommand.Output result = NativeCommand.run(dir, List.of(exe.toString(), input.toString()), null)
                .requireSuccess();
        Map<String, LibField> fields = new LinkedHashMap<>();
        Map<Integer, String[]> decoded = new HashMap<>();
        Map<Integer, String[]> encoded = new HashMap<>();
        for (String line : result.stdout().split("\n")) {
            if (line.isEmpty()) {
                continue;
            }
            String[] t = line.split(" ", 9);
            switch (t[0]) {
                case "F" -> fields.put(t[1], new LibField(t[1], Integer.parseInt(t[2]), t[3], Integer.parseInt(t[4]),
                        Integer.parseInt(t[5]), Integer.parseInt(t[6]), Integer.parseInt(t[7]), t.length > 8 ? t[8] : ""));
                case "D" -> decoded.computeIfAbsent(Integer.parseInt(t[2]), k -> new String[buffers.length])
                        [Integer.parseInt(t[1])] = t[3];
                case "E" -> encoded.computeIfAbsent(Integer.parseInt(t[2]), k -> new String[pools.length])
                        [Integer.parseInt(t[1])] = t[3];
                default -> fail("unexpected oracle output: " + line);
            }
        }
        if (!fields.keySet().equals(new java.util.LinkedHashSet<>(idents))) {
            fail("the oracle printed other identifiers than mad.h declares");
        }
        return new LibibmadOracle(header, Collections.unmodifiableMap(fields), decoded, encoded, pools);
    }

    /** The identifiers {@code IB_..._F} of {@code enum MAD_FIELDS { ... }}, in declaration order. */
    static List<String> enumIdentifiers(String headerText) {
        String text = headerText.replaceAll("(?s)/\\*.*?\\*/", " ").replaceAll("//[^\n]*", " ");
        Matcher start = Pattern.compile("\\benum\\s+MAD_FIELDS\\s*\\{").matcher(text);
        if (!start.find()) {
            fail("no 'enum MAD_FIELDS {' in mad.h");
        }
        int end = text.indexOf('}', start.end());
        if (end < 0) {
            fail("enum MAD_FIELDS in mad.h has no closing brace");
        }
        List<String> idents = new ArrayList<>();
        for (String entry : text.substring(start.end(), end).split(",")) {
            // "IB_X_F" or "IB_X_F = IB_Y_F": the declared name is the first word.
            String name = entry.strip().split("[\\s=]+", 2)[0];
            if (IDENT.matcher(name).matches()) {
                idents.add(name);
            }
        }
        return idents;
    }

    /**
     * The decoded value of a field in buffer {@code buffer}, as left-aligned bytes of its width (shared:
     * do not modify).
     */
    byte[] decoded(LibField f, int buffer) {
        return decodedBytes.computeIfAbsent(f.value(), v -> {
            String[] hex = decoded.get(v);
            byte[][] out = new byte[hex.length][];
            for (int i = 0; i < hex.length; i++) {
                out[i] = switch (f.path()) {
                    case "u32", "u64" -> leftAligned(Long.parseUnsignedLong(hex[i], 16), f.length());
                    default -> HexFormat.of().parseHex(hex[i]);
                };
            }
            return out;
        })[buffer];
    }

    /** The value libibmad encoded in round {@code round}, as left-aligned bytes of its width. */
    byte[] encodedValue(LibField f, int round) {
        int at = (int) (((long) f.value() * 8) % (BUF_SIZE - MAX_VALUE));
        byte[] pool = pools[round];
        return switch (f.path()) {
            case "u32" -> leftAligned(getBits(pool, at * 8, 32) & (0xFFFF_FFFFL >>> (32 - f.length())), f.length());
            case "u64" -> leftAligned(getBits(pool, at * 8, 64), 64);
            default -> java.util.Arrays.copyOfRange(pool, at, at + f.length() / 8);
        };
    }

    /** The bytes first/8 .. last/8 of buffer {@code round} after libibmad encoded the round's value. */
    byte[] encodedSpan(LibField f, int round) {
        return HexFormat.of().parseHex(encoded.get(f.value())[round]);
    }

    /** The low {@code length} bits of {@code value} as ceil(length/8) bytes, most significant bit first. */
    static byte[] leftAligned(long value, int length) {
        byte[] out = new byte[(length + 7) / 8];
        putBits(out, 0, length, value);
        return out;
    }

    // Bit access one bit at a time, bit 0 being the most significant bit of byte 0. The test's own
    // plumbing uses these rather than Bits, which is under test.

    /** The {@code length} (0..64) bits at bit {@code offset}, as an unsigned number. */
    static long getBits(byte[] b, int offset, int length) {
        long v = 0;
        for (int i = offset; i < offset + length; i++) {
            v = (v << 1) | ((b[i >>> 3] >>> (7 - (i & 7))) & 1);
        }
        return v;
    }

    /** Writes the low {@code length} (0..64) bits of {@code value} at bit {@code offset}. */
    static void putBits(byte[] b, int offset, int length, long value) {
        for (int i = 0; i < length; i++) {
            int at = offset + i;
            int mask = 0x80 >>> (at & 7);
            if (((value >>> (length - 1 - i)) & 1) != 0) {
                b[at >>> 3] |= (byte) mask;
            } else {
                b[at >>> 3] &= (byte) ~mask;
            }
        }
    }

    private static void checkSize(byte[] b) {
        if (b.length != BUF_SIZE) {
            throw new IllegalArgumentException("buffers are " + BUF_SIZE + " bytes, not " + b.length);
        }
    }

    private static Path source() {
        Path base = Path.of(System.getProperty("basedir", "")).toAbsolutePath();
        for (Path candidate : List.of(base.resolve("src/test/c/ibmad_oracle.c"),
                base.resolve("jrdma-iba/src/test/c/ibmad_oracle.c"))) {
            if (Files.isRegularFile(candidate)) {
                return candidate;
            }
        }
        fail("cannot find src/test/c/ibmad_oracle.c from " + base);
        return null;
    }

    /** The mad.h the compiler includes, asked of gcc itself (-M lists the headers a file pulls in). */
    private static Path locateHeader(Path dir) throws IOException, InterruptedException {
        Path probe = dir.resolve("find_mad_h.c");
        Files.writeString(probe, "#include <infiniband/mad.h>\n");
        Peers.require(Executables.isInstalled("gcc"), "gcc, to build the libibmad oracle (apt-get install gcc)");
        NativeCommand.Output deps = NativeCommand.run(dir, List.of("gcc", "-M", probe.toString()), null);
        Peers.require(deps.exitCode() == 0, "<infiniband/mad.h>; install libibmad-dev (gcc said: "
                + deps.stderr().strip() + ")");
        for (String token : deps.stdout().split("[\\s\\\\]+")) {
            if (token.endsWith("/infiniband/mad.h")) {
                return Path.of(token);
            }
        }
        fail("gcc -M did not name infiniband/mad.h:\n" + deps.stdout());
        return null;
    }
}
