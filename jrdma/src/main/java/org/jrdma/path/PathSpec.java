package org.jrdma.path;

import static org.jrdma.iba.UntrustedText.quote;

import java.util.Collections;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.BiConsumer;
import java.util.function.Function;
import org.jrdma.RdmaException;
import org.jrdma.devices.EndPort;
import org.jrdma.iba.Gid;
import org.jrdma.iba.Mtu;
import org.jrdma.iba.StaticRate;

/**
 * The path specification text, python-rdma's {@code repr} of a path: writing it and reading it
 * back safely. The grammar, blanks allowed between tokens:
 * <pre>
 *   spec  = kind "(" [ item { "," item } ] ")"
 *   kind  = "IBPath" | "IBDRPath"
 *   item  = name "=" value                      name: one of the fixed table below, or end_port
 *   value = bare | quoted | "GID(" (bare | quoted) ")"
 *   bare  = 1*( letter | digit | ":" | "." | "_" | "-" | "/" | "%" )
 *   quoted = "'" { char but "'" } "'" | '"' { char but '"' } '"'   (no control characters)
 * </pre>
 * Numbers are decimal without leading zeros or {@code 0x} hex, range-checked against their header
 * field; GIDs are IPv6 text, bare, quoted or in {@code GID('...')}; {@code None} unsets an
 * optional value; {@code True} and {@code False} (or 1 and 0) are {@code has_grh}; drPath is
 * {@code 0:1:}, ports separated and ended by colons. Nothing else is accepted: no nesting, no
 * expressions, each name once. The scan is one pass over the text, at most
 * {@link Path#MAX_TEXT_LENGTH} characters.
 */
final class PathSpec {
    /** How a value was written. */
    private enum Form { BARE, QUOTED, GID_CALL }

    /** A value as written, and where it starts in the text. */
    private record Value(String text, Form form, int index) {
    }

    /** One attribute of the specification: its seed name, how to write it, how to set it. */
    private record Key(String name, boolean directedOnly, Function<IBPath, String> format,
            BiConsumer<IBPath.Builder<?>, Value> parse) {
    }

    private static final String END_PORT = "end_port";
    private static final String NONE = "None";
    private static final int MAX_NAME_LENGTH = 64;

    /** Every attribute, in the order they are written. */
    private static final Map<String, Key> KEYS = table(List.of(
            intKey("retries", 0xFF, Style.DECIMAL, IBPath::retries, (b, v) -> b.retries(v)),
            intKey("DLID", 0xFFFF, Style.LID, IBPath::dlid, (b, v) -> b.dlid(v)),
            intKey("SLID", 0xFFFF, Style.LID, IBPath::slid, (b, v) -> b.slid(v)),
            intKey("SL", 15, Style.DECIMAL, IBPath::sl, (b, v) -> b.sl(v)),
            intKey("pkey", 0xFFFF, Style.HEX, IBPath::pkey, (b, v) -> b.pkey(v)),
            new Key("has_grh", false, p -> p.hasGrh() ? "True" : "False", (b, v) -> b.hasGrh(bool(v))),
            gidKey("SGID", p -> p.values().sgid, (b, g) -> b.sgid(g)),
            gidKey("DGID", p -> p.values().dgid, (b, g) -> b.dgid(g)),
            intKey("hop_limit", 0xFF, Style.DECIMAL, IBPath::hopLimit, (b, v) -> b.hopLimit(v)),
            intKey("traffic_class", 0xFF, Style.DECIMAL, IBPath::trafficClass, (b, v) -> b.trafficClass(v)),
            intKey("flow_label", 0xF_FFFF, Style.DECIMAL, IBPath::flowLabel, (b, v) -> b.flowLabel(v)),
            optionalKey("dqpn", 0xFF_FFFFL, Style.DECIMAL, p -> p.values().dqpn, (b, v) -> b.dqpn(v)),
            optionalKey("sqpn", 0xFF_FFFFL, Style.DECIMAL, p -> p.values().sqpn, (b, v) -> b.sqpn(v)),
            optionalKey("qkey", 0xFFFF_FFFFL, Style.HEX, p -> p.values().qkey, (b, v) -> b.qkey(v)),
            new Key("MTU", false, p -> Integer.toString(p.mtu().value()),
                    (b, v) -> b.mtu(Mtu.fromValue((int) number(v, "MTU", 0xFF)))),
            new Key("rate", false, p -> Integer.toString(p.rate().value()),
                    (b, v) -> b.rate(StaticRate.fromValue((int) number(v, "rate", 0xFF)))),
            optionalKey("umad_agent_id", Integer.MAX_VALUE, Style.DECIMAL, p -> p.values().umadAgentId,
                    (b, v) -> b.umadAgentId(v)),
            intKey("resp_time", 31, Style.DECIMAL, IBPath::respTime, (b, v) -> b.respTime(v)),
            optionalKey("packet_life_time", 63, Style.DECIMAL, p -> p.values().packetLifeTime,
                    (b, v) -> b.packetLifeTime(v)),
            intKey("min_rnr_timer", 31, Style.DECIMAL, IBPath::minRnrTimer, (b, v) -> b.minRnrTimer(v)),
            intKey("dack_resp_time", 31, Style.DECIMAL, IBPath::dackRespTime, (b, v) -> b.dackRespTime(v)),
            intKey("sack_resp_time", 31, Style.DECIMAL, IBPath::sackRespTime, (b, v) -> b.sackRespTime(v)),
            intKey("dqpsn", 0xFF_FFFF, Style.DECIMAL, IBPath::dqpsn, (b, v) -> b.dqpsn(v)),
            intKey("sqpsn", 0xFF_FFFF, Style.DECIMAL, IBPath::sqpsn, (b, v) -> b.sqpsn(v)),
            intKey("drdatomic", 0xFF, Style.DECIMAL, IBPath::drdatomic, (b, v) -> b.drdatomic(v)),
            intKey("srdatomic", 0xFF, Style.DECIMAL, IBPath::srdatomic, (b, v) -> b.srdatomic(v)),
            new Key("MKey", false, p -> "0x" + Long.toHexString(p.mKey()), (b, v) -> b.mKey(number(v, "MKey", -1L))),
            new Key("SMKey", false, p -> "0x" + Long.toHexString(p.smKey()),
                    (b, v) -> b.smKey(number(v, "SMKey", -1L))),
            new Key("drSLID", true, p -> lid(((IBDRPath) p).drSlid()),
                    (b, v) -> b.drSlid((int) number(v, "drSLID", 0xFFFF))),
            new Key("drDLID", true, p -> lid(((IBDRPath) p).drDlid()),
                    (b, v) -> b.drDlid((int) number(v, "drDLID", 0xFFFF))),
            new Key("drPath", true, p -> drPathText(((IBDRPath) p).drPath()), (b, v) -> b.drPath(drPath(v)))));

    private static final IBPath IB_DEFAULT = IBPath.builder(null).build();
    private static final IBPath DR_DEFAULT = IBDRPath.builder(null).build();

    private PathSpec() {
    }

    /** How a number is written. */
    private enum Style { DECIMAL, HEX, LID }

    /**
     * The specification of {@code path}: kind, end port, then the attributes that differ from the
     * kind's defaults, in table order.
     */
    static String format(IBPath path) {
        boolean directed = path instanceof IBDRPath;
        IBPath defaults = directed ? DR_DEFAULT : IB_DEFAULT;
        var out = new StringBuilder(path.specName()).append('(').append(END_PORT).append('=')
                .append(path.endPort().map(p -> "'" + p + "'").orElse(NONE));
        for (Key key : KEYS.values()) {
            if (key.directedOnly && !directed) {
                continue;
            }
            String text = key.format.apply(path);
            if (!text.equals(key.format.apply(defaults))) {
                out.append(", ").append(key.name).append('=').append(text);
            }
        }
        return out.append(')').toString();
    }

    /**
     * The path {@code text} specifies; an {@code end_port} name is given to {@code endPorts},
     * which may throw an {@link RdmaException} when there is no such end port.
     *
     * @throws IllegalArgumentException if the text is not a valid specification, naming what is wrong and where
     */
    static IBPath parse(String text, Function<String, EndPort> endPorts) {
        return new Scanner(text).spec(endPorts);
    }

    private static Map<String, Key> table(List<Key> keys) {
        Map<String, Key> table = new LinkedHashMap<>();
        for (Key key : keys) {
            table.put(key.name, key);
        }
        return Collections.unmodifiableMap(table);
    }

    private static Key intKey(String name, int max, Style style, Function<IBPath, Integer> get,
            BiConsumer<IBPath.Builder<?>, Integer> set) {
        return new Key(name, false, p -> write(get.apply(p), style), (b, v) -> set.accept(b, (int) number(v, name, max)));
    }

    private static Key optionalKey(String name, long max, Style style, Function<IBPath, Integer> get,
            BiConsumer<IBPath.Builder<?>, Integer> set) {
        return new Key(name, false, p -> {
            Integer value = get.apply(p);
            return value == null ? NONE : write(value, style);
        }, (b, v) -> set.accept(b, isNone(v) ? null : (int) number(v, name, max)));
    }

    private static Key gidKey(String name, Function<IBPath, Gid> get, BiConsumer<IBPath.Builder<?>, Gid> set) {
        return new Key(name, false, p -> {
            Gid gid = get.apply(p);
            return gid == null ? NONE : "GID('" + gid + "')";
        }, (b, v) -> set.accept(b, isNone(v) ? null : Gid.parse(v.text)));
    }

    private static String write(int value, Style style) {
        return switch (style) {
            case DECIMAL -> Integer.toString(value);
            case HEX -> "0x" + Integer.toHexString(value);
            case LID -> lid(value);
        };
    }

    /** A LID as python-rdma writes it: decimal, hex from the multicast range up. */
    private static String lid(int lid) {
        return lid >= 0xC000 ? "0x" + Integer.toHexString(lid) : Integer.toString(lid);
    }

    private static String drPathText(byte[] drPath) {
        var out = new StringBuilder();
        for (byte port : drPath) {
            out.append(port & 0xFF).append(':');
        }
        return out.toString();
    }

    private static boolean isNone(Value v) {
        return v.form == Form.BARE && v.text.equals(NONE);
    }

    private static boolean bool(Value v) {
        if (v.form == Form.BARE) {
            switch (v.text) {
                case "True", "1" -> {
                    return true;
                }
                case "False", "0" -> {
                    return false;
                }
                default -> {
                }
            }
        }
        throw new IllegalArgumentException("has_grh must be True or False, not " + quote(v.text));
    }

    /**
     * An unsigned number written bare in decimal (no leading zero) or {@code 0x} hex, at most
     * {@code max} read as unsigned (-1 for any 64 bits).
     */
    private static long number(Value v, String name, long max) {
        String text = v.text;
        if (v.form != Form.BARE) {
            throw new IllegalArgumentException(name + " must be a number, not quoted text " + quote(text));
        }
        boolean hex = text.startsWith("0x") || text.startsWith("0X");
        String digits = hex ? text.substring(2) : text;
        int radix = hex ? 16 : 10;
        if (digits.isEmpty() || !digits.chars().allMatch(c -> Character.digit(c, radix) >= 0 && c < 0x80)) {
            throw new IllegalArgumentException(name + " must be a decimal or 0x hex number, not " + quote(text));
        }
        if (!hex && digits.length() > 1 && digits.charAt(0) == '0') {
            throw new IllegalArgumentException(name + " " + quote(text) + " has a leading zero; write it without, or in 0x hex");
        }
        long value;
        try {
            value = digits.length() > 20 ? -1 : Long.parseUnsignedLong(digits, radix);
        } catch (NumberFormatException tooLarge) {
            throw outside(name, text, max);
        }
        if (digits.length() > 20 || Long.compareUnsigned(value, max) > 0) {
            throw outside(name, text, max);
        }
        return value;
    }

    private static IllegalArgumentException outside(String name, String text, long max) {
        return new IllegalArgumentException(name + " " + quote(text) + " is outside 0 to "
                + (max == -1L ? "0xffffffffffffffff" : Long.toString(max)));
    }

    /** A drPath value {@code 0:1:}: port numbers each followed by a colon (the last colon optional). */
    private static int[] drPath(Value v) {
        if (v.form == Form.GID_CALL) {
            throw new IllegalArgumentException("drPath must be port numbers such as 0:1:, not GID(...)");
        }
        String text = v.text;
        String body = text.endsWith(":") ? text.substring(0, text.length() - 1) : text;
        String[] parts = body.split(":", -1);
        if (body.isEmpty() || parts.length > IBDRPath.MAX_HOPS + 1) {
            throw new IllegalArgumentException("drPath " + quote(text) + " must hold 1 to " + (IBDRPath.MAX_HOPS + 1)
                    + " port numbers such as 0:1:");
        }
        int[] ports = new int[parts.length];
        for (int i = 0; i < parts.length; i++) {
            ports[i] = (int) number(new Value(parts[i], Form.BARE, v.index), "drPath entry " + i, EndPort.MAX_PORT_NUMBER);
        }
        return ports;
    }

    /** One pass over a specification. */
    private static final class Scanner {
        private final String text;
        private int pos;

        Scanner(String text) {
            this.text = text;
        }

        IBPath spec(Function<String, EndPort> endPorts) {
            if (text.length() > Path.MAX_TEXT_LENGTH) {
                throw error(Path.MAX_TEXT_LENGTH, "longer than " + Path.MAX_TEXT_LENGTH + " characters");
            }
            skipBlanks();
            int kindIndex = pos;
            String kind = name("a path kind, IBPath or IBDRPath");
            boolean directed = switch (kind) {
                case "IBPath" -> false;
                case "IBDRPath" -> true;
                default -> throw error(kindIndex, "unknown path kind " + quote(kind) + "; expected IBPath or IBDRPath");
            };
            skipBlanks();
            expect('(');
            IBPath.Builder<? extends IBPath> builder = directed ? IBDRPath.builder(null) : IBPath.builder(null);
            Set<String> seen = new HashSet<>();
            Value endPort = null;
            skipBlanks();
            if (peek() == ')') {
                pos++;
            } else {
                while (true) {
                    skipBlanks();
                    int nameIndex = pos;
                    String name = name("an attribute name");
                    Key key = KEYS.get(name);
                    if (!name.equals(END_PORT) && (key == null || key.directedOnly && !directed)) {
                        throw error(nameIndex, "unknown attribute " + quote(name) + " of " + kind);
                    }
                    if (!seen.add(name)) {
                        throw error(nameIndex, name + " is given twice");
                    }
                    skipBlanks();
                    expect('=');
                    skipBlanks();
                    Value value = value(name);
                    if (key == null) {
                        endPort = value;
                    } else {
                        try {
                            key.parse.accept(builder, value);
                        } catch (IllegalArgumentException | IllegalStateException e) {
                            throw error(value.index, e.getMessage());
                        }
                    }
                    skipBlanks();
                    int separator = peek();
                    pos++;
                    if (separator == ')') {
                        break;
                    }
                    if (separator != ',') {
                        throw error(pos - 1, "expected ',' or ')' after the value of " + name);
                    }
                }
            }
            skipBlanks();
            if (pos < text.length()) {
                throw error(pos, "unexpected text after ')'");
            }
            if (endPort != null && !isNone(endPort)) {
                if (endPort.form == Form.GID_CALL) {
                    throw error(endPort.index, "end_port must be an end port name such as 'mlx4_0/1'");
                }
                try {
                    builder.endPort(endPorts.apply(endPort.text));
                } catch (RdmaException | IllegalArgumentException e) {
                    throw error(endPort.index, "end_port: could not find " + quote(endPort.text) + ": " + e.getMessage());
                }
            }
            try {
                return builder.build();
            } catch (IllegalArgumentException | IllegalStateException e) {
                throw error(0, e.getMessage());
            }
        }

        /** A name: a letter or underscore, then letters, digits and underscores; 64 at most. */
        private String name(String what) {
            int start = pos;
            while (pos < text.length() && pos - start <= MAX_NAME_LENGTH && isNameChar(text.charAt(pos), pos == start)) {
                pos++;
            }
            if (pos == start) {
                throw error(start, "expected " + what);
            }
            if (pos - start > MAX_NAME_LENGTH) {
                throw error(start, "name longer than " + MAX_NAME_LENGTH + " characters");
            }
            return text.substring(start, pos);
        }

        private Value value(String name) {
            int start = pos;
            int c = peek();
            if (c == '\'' || c == '"') {
                return new Value(quoted(), Form.QUOTED, start);
            }
            String bare = bare();
            if (bare.isEmpty()) {
                throw error(start, "expected a value for " + name);
            }
            if (peek() != '(') {
                return new Value(bare, Form.BARE, start);
            }
            if (!bare.equals("GID")) {
                throw error(pos, "'(' after " + quote(bare) + ": only GID(...) takes parentheses, nothing nests");
            }
            pos++;
            skipBlanks();
            int innerStart = pos;
            c = peek();
            String inner = c == '\'' || c == '"' ? quoted() : bare();
            if (inner.isEmpty()) {
                throw error(innerStart, "expected a GID inside GID(...)");
            }
            skipBlanks();
            expect(')');
            return new Value(inner, Form.GID_CALL, start);
        }

        private String bare() {
            int start = pos;
            while (pos < text.length() && isBareChar(text.charAt(pos))) {
                pos++;
            }
            return text.substring(start, pos);
        }

        private String quoted() {
            char quote = text.charAt(pos);
            int close = text.indexOf(quote, pos + 1);
            if (close < 0) {
                throw error(pos, "unterminated quoted value");
            }
            for (int i = pos + 1; i < close; i++) {
                if (text.charAt(i) < 0x20) {
                    throw error(i, "control character in a quoted value");
                }
            }
            String inner = text.substring(pos + 1, close);
            pos = close + 1;
            return inner;
        }

        private int peek() {
            return pos < text.length() ? text.charAt(pos) : -1;
        }

        private void expect(char c) {
            if (peek() != c) {
                throw error(pos, "expected '" + c + "'");
            }
            pos++;
        }

        private void skipBlanks() {
            while (pos < text.length() && (text.charAt(pos) == ' ' || text.charAt(pos) == '\t')) {
                pos++;
            }
        }

        private static boolean isNameChar(char c, boolean first) {
            return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c == '_' || !first && c >= '0' && c <= '9';
        }

        private static boolean isBareChar(char c) {
            return isNameChar(c, false) || c == ':' || c == '.' || c == '-' || c == '/' || c == '%';
        }

        private IllegalArgumentException error(int index, String detail) {
            return new IllegalArgumentException("Invalid path specification " + quote(text) + ": " + detail
                    + " (at index " + index + ")");
        }
    }
}
