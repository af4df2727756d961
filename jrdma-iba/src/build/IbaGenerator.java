import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * Build-time generator: reads the IBA structure descriptions ({@code src/main/iba/*.iba}) and writes
 * one Java class per structure, one Java enum per enumerated field, and the registry
 * {@code org.jrdma.iba.wire.IbaStructs}.
 * Run as {@code java IbaGenerator.java <description folder> <output folder>}. The format is
 * documented in the README ("IBA structure descriptions"). Any error names the file and line.
 */
public final class IbaGenerator {
    /** Management class groups a description may bind a structure to, with their class numbers. */
    static final Map<String, int[]> CLASSES = Map.ofEntries(
            Map.entry("SMP", new int[] {0x01, 0x81}), Map.entry("SA", new int[] {0x03}),
            Map.entry("PM", new int[] {0x04}), Map.entry("BM", new int[] {0x05}),
            Map.entry("DM", new int[] {0x06}), Map.entry("CM", new int[] {0x07}),
            Map.entry("SNMP", new int[] {0x08}), Map.entry("CC", new int[] {0x21}),
            // OpenIB's vendor classes (range 2, with OUI): infiniband-diags' ibping and ibsysstat
            Map.entry("OPENIB_PING", new int[] {0x32}), Map.entry("OPENIB_SYSSTAT", new int[] {0x33}),
            // Mellanox's vendor class (range 1, no OUI): infiniband-diags' vendstat
            Map.entry("MLX_VENDOR", new int[] {0x0A}));
    static final Map<String, Integer> METHODS = Map.ofEntries(
            Map.entry("Get", 0x01), Map.entry("Set", 0x02), Map.entry("Send", 0x03), Map.entry("Trap", 0x05),
            Map.entry("Report", 0x06), Map.entry("TrapRepress", 0x07), Map.entry("GetTable", 0x12),
            Map.entry("GetTraceTable", 0x13), Map.entry("GetMulti", 0x14), Map.entry("Delete", 0x15));
    static final Set<String> TAKEN = Set.of("size", "ibaName", "fields", "buffer", "offset", "unpack", "pack",
            "toBytes", "clear", "hexDump", "toDottedString", "toString", "equals", "hashCode", "getClass", "decode",
            "notify", "wait");
    /** Names taken by {@code MadAttribute} in structures bound to a management class. */
    static final Set<String> TAKEN_BY_ATTRIBUTES = Set.of("mgmtClass", "attributeId", "methodMask");

    record FieldDecl(String name, String type, int bitOffset, Map<String, String> attrs, String where) {
    }

    record StructDecl(String pkg, String className, String ibaName, int bytes, Map<String, String> attrs,
            List<String> doc, List<FieldDecl> fields, String where) {
        String fqcn() {
            return pkg + "." + className;
        }

        boolean sa() {
            return attrs.containsKey("sa");
        }
    }

    /** A flattened leaf component, as written into the FIELDS table. */
    record Leaf(String name, String kind, int bitOffset, int bitLength, int count, String ibmad) {
    }

    /** A field's type once parsed: kind, element width in bits, element count, struct if nested. */
    record Type(String kind, int bits, int count, StructDecl struct) {
    }

    /**
     * An enumerated component of a structure ({@code enum} block): the Java enum that names its
     * values, the text infiniband-diags prints for each, and extra columns.
     */
    record EnumDecl(String pkg, String className, String structName, String fieldName, Map<String, String> attrs,
            List<String> doc, List<Column> columns, List<Constant> constants, String where) {
    }

    /** An extra property of every constant of an enum: {@code column name type | Javadoc}. */
    record Column(String name, String type, String doc) {
    }

    /** One value of an enum: {@code NAME value "text" [column=value...] | Javadoc}. */
    record Constant(String name, int value, String text, Map<String, String> columns, String doc, String where) {
    }

    /** A token: a word, a double-quoted text, or key="quoted text". */
    static final Pattern TOKEN = Pattern.compile("(?:[\\w-]+=)?\"[^\"]*\"|\\S+");

    final Map<String, StructDecl> structs = new LinkedHashMap<>();
    final Map<String, EnumDecl> enums = new LinkedHashMap<>();

    public static void main(String[] args) throws IOException {
        if (args.length != 2) {
            throw new IllegalArgumentException("usage: IbaGenerator <description folder> <output folder>");
        }
        IbaGenerator g = new IbaGenerator();
        try (Stream<Path> files = Files.list(Path.of(args[0]))) {
            for (Path f : files.filter(p -> p.toString().endsWith(".iba")).sorted().toList()) {
                g.read(f);
            }
        }
        g.check();
        g.checkEnums();
        g.write(Path.of(args[1]));
    }

    // --- reading -----------------------------------------------------------------------------------

    void read(Path file) throws IOException {
        List<String> lines = Files.readAllLines(file);
        String pkg = null;
        StructDecl current = null;
        for (int i = 0; i < lines.size(); i++) {
            String where = file.getFileName() + ":" + (i + 1);
            String raw = lines.get(i);
            String line = raw.strip();
            if (line.startsWith("|") && current != null) {
                current.doc().add(line.substring(1).strip());
                continue;
            }
            int hash = line.indexOf('#');
            if (hash >= 0) {
                line = line.substring(0, hash).strip();
            }
            if (line.isEmpty()) {
                continue;
            }
            String[] t = line.split("\\s+");
            switch (t[0]) {
                case "package" -> pkg = t[1];
                case "enum" -> {
                    if (current != null) {
                        throw error(where, "struct " + current.className() + " has no 'end'");
                    }
                    if (pkg == null) {
                        throw error(where, "no 'package' line before the first enum");
                    }
                    i = readEnum(file, lines, i, pkg);
                }
                case "struct" -> {
                    if (current != null) {
                        throw error(where, "struct " + current.className() + " has no 'end'");
                    }
                    if (pkg == null) {
                        throw error(where, "no 'package' line before the first struct");
                    }
                    current = struct(pkg, t, where);
                }
                case "end" -> {
                    if (current == null) {
                        throw error(where, "'end' without 'struct'");
                    }
                    if (structs.putIfAbsent(current.className(), current) != null) {
                        throw error(where, "struct " + current.className() + " defined twice");
                    }
                    current = null;
                }
                default -> {
                    if (current == null) {
                        throw error(where, "field outside a struct: " + line);
                    }
                    if (t.length < 3) {
                        throw error(where, "a field is 'name type bitOffset [key=value...]'");
                    }
                    current.fields().add(new FieldDecl(t[0], t[1], integer(t[2], where), attrs(t, 3, where), where));
                }
            }
        }
        if (current != null) {
            throw error(file.getFileName().toString(), "struct " + current.className() + " has no 'end'");
        }
    }

    /**
     * Reads the enum block that starts at line {@code start}:
     * {@code enum ClassName Struct.field [unknown="..."] [zero="..."] [defines="..."] [mask=field,field]},
     * Javadoc lines, {@code column} lines, one line per constant, {@code end}.
     *
     * @return the index of the {@code end} line
     */
    int readEnum(Path file, List<String> lines, int start, String pkg) {
        String where = file.getFileName() + ":" + (start + 1);
        List<String> head = tokens(lines.get(start));
        if (head.size() < 3 || !head.get(2).matches("\\w+\\.\\w+")) {
            throw error(where, "an enum is 'enum ClassName Struct.field [key=value...]'");
        }
        String[] of = head.get(2).split("\\.");
        EnumDecl e = new EnumDecl(pkg, head.get(1), of[0], of[1], attrs(head.toArray(String[]::new), 3, where),
                new ArrayList<>(), new ArrayList<>(), new ArrayList<>(), where);
        e.attrs().replaceAll((k, v) -> unquote(v));
        for (int i = start + 1; i < lines.size(); i++) {
            String at = file.getFileName() + ":" + (i + 1);
            String line = lines.get(i).strip();
            if (line.startsWith("|")) {
                if (!e.constants().isEmpty() || !e.columns().isEmpty()) {
                    throw error(at, "the enum's Javadoc comes before its columns and constants");
                }
                e.doc().add(line.substring(1).strip());
                continue;
            }
            int bar = line.indexOf('|');
            String doc = bar < 0 ? null : line.substring(bar + 1).strip();
            List<String> t = tokens(bar < 0 ? line : line.substring(0, bar));
            if (t.isEmpty() || t.getFirst().startsWith("#")) {
                continue;
            }
            if (t.getFirst().equals("end")) {
                if (e.constants().isEmpty()) {
                    throw error(at, "enum " + e.className() + " has no constants");
                }
                if (enums.putIfAbsent(e.className(), e) != null || structs.containsKey(e.className())) {
                    throw error(at, e.className() + " defined twice");
                }
                return i;
            }
            if (doc == null || doc.isEmpty()) {
                throw error(at, "every column and constant has its Javadoc after a '|'");
            }
            if (t.getFirst().equals("column")) {
                if (t.size() != 3 || !t.get(2).matches("int|double")) {
                    throw error(at, "a column is 'column name int|double | Javadoc'");
                }
                e.columns().add(new Column(t.get(1), t.get(2), doc));
                continue;
            }
            if (t.size() < 3 || !t.getFirst().matches("[A-Z][A-Z0-9_]*") || !t.get(2).startsWith("\"")) {
                throw error(at, "a constant is 'NAME value \"text\" [column=value...] | Javadoc'");
            }
            Map<String, String> columns = attrs(t.toArray(String[]::new), 3, at);
            if (!columns.keySet().equals(e.columns().stream().map(Column::name).collect(java.util.stream.Collectors.toSet()))) {
                throw error(at, t.getFirst() + " needs a value for each column, and only those: "
                        + e.columns().stream().map(Column::name).toList());
            }
            for (Column c : e.columns()) {
                String v = columns.get(c.name());
                if (!v.matches(c.type().equals("int") ? "-?\\d+" : "-?\\d+(\\.\\d+)?")) {
                    throw error(at, c.name() + "=" + v + " is not a " + c.type());
                }
            }
            e.constants().add(new Constant(t.getFirst(), integer(t.get(1), at), unquote(t.get(2)), columns, doc, at));
        }
        throw error(where, "enum " + e.className() + " has no 'end'");
    }

    static List<String> tokens(String line) {
        List<String> out = new ArrayList<>();
        Matcher m = TOKEN.matcher(line);
        while (m.find()) {
            out.add(m.group());
        }
        return out;
    }

    static String unquote(String s) {
        return s.length() >= 2 && s.startsWith("\"") && s.endsWith("\"") ? s.substring(1, s.length() - 1) : s;
    }

    StructDecl struct(String pkg, String[] t, String where) {
        // struct ClassName "IBA name" bytes=N section=S [class=SMP,SA attr=0x11 methods=Get,Set] [sa]
        if (t.length < 3 || !t[2].startsWith("\"")) {
            throw error(where, "a struct is 'struct ClassName \"IBA name\" bytes=N ...'");
        }
        int nameEnd = 2;
        StringBuilder name = new StringBuilder(t[2]);
        while (!name.toString().endsWith("\"") || name.length() == 1) {
            name.append(' ').append(t[++nameEnd]);
        }
        Map<String, String> attrs = attrs(t, nameEnd + 1, where);
        if (!attrs.containsKey("bytes")) {
            throw error(where, "struct " + t[1] + " has no bytes=N");
        }
        return new StructDecl(pkg, t[1], name.substring(1, name.length() - 1), integer(attrs.get("bytes"), where),
                attrs, new ArrayList<>(), new ArrayList<>(), where);
    }

    static Map<String, String> attrs(String[] t, int from, String where) {
        Map<String, String> m = new LinkedHashMap<>();
        for (int i = from; i < t.length; i++) {
            int eq = t[i].indexOf('=');
            if (eq < 0) {
                m.put(t[i], "");
            } else {
                m.put(t[i].substring(0, eq), t[i].substring(eq + 1));
            }
        }
        return m;
    }

    static int integer(String s, String where) {
        try {
            return s.startsWith("0x") ? Integer.parseInt(s.substring(2), 16) : Integer.parseInt(s);
        } catch (NumberFormatException e) {
            throw error(where, "not a number: " + s);
        }
    }

    static IllegalArgumentException error(String where, String message) {
        return new IllegalArgumentException(where + ": " + message);
    }

    // --- checking ----------------------------------------------------------------------------------

    Type type(FieldDecl f) {
        String t = f.type();
        int count = 1;
        int bracket = t.indexOf('[');
        if (bracket >= 0) {
            count = integer(t.substring(bracket + 1, t.length() - 1), f.where());
            t = t.substring(0, bracket);
        }
        if (t.matches("u\\d+")) {
            int bits = integer(t.substring(1), f.where());
            if (bits < 1 || bits > 64) {
                throw error(f.where(), "unsigned fields are 1 to 64 bits: " + t);
            }
            return new Type("UINT", bits, count, null);
        }
        int colon = t.indexOf(':');
        String base = colon < 0 ? t : t.substring(0, colon);
        int n = colon < 0 ? 0 : integer(t.substring(colon + 1), f.where());
        return switch (base) {
            case "guid" -> new Type("GUID", 64, count, null);
            case "gid" -> new Type("GID", 128, count, null);
            case "string" -> new Type("STRING", n * 8, count, null);
            case "bytes" -> new Type("BYTES", n * 8, count, null);
            case "reserved" -> new Type("RESERVED", n, count, null);
            default -> {
                StructDecl s = structs.get(base);
                if (s == null) {
                    throw error(f.where(), "unknown type " + base);
                }
                yield new Type("STRUCT", s.bytes() * 8, count, s);
            }
        };
    }

    void check() {
        for (StructDecl s : structs.values()) {
            BitSet used = new BitSet();
            Set<String> names = new java.util.HashSet<>();
            for (FieldDecl f : s.fields()) {
                Type t = type(f);
                if (!f.type().startsWith("reserved")) {
                    if (!f.name().matches("[a-zA-Z][a-zA-Z0-9_]*") || TAKEN.contains(f.name())
                            || (s.attrs().containsKey("class") && TAKEN_BY_ATTRIBUTES.contains(f.name()))) {
                        throw error(f.where(), "field name " + f.name() + " is not usable as an accessor");
                    }
                    if (!names.add(f.name())) {
                        throw error(f.where(), "field " + f.name() + " declared twice");
                    }
                }
                int end = f.bitOffset() + t.bits() * t.count();
                if (f.bitOffset() < 0 || end > s.bytes() * 8) {
                    throw error(f.where(), f.name() + " (bits " + f.bitOffset() + ".." + (end - 1)
                            + ") does not fit in " + s.bytes() + " bytes");
                }
                if (used.get(f.bitOffset(), end).cardinality() > 0) {
                    throw error(f.where(), f.name() + " overlaps an earlier field");
                }
                used.set(f.bitOffset(), end);
                boolean needsBytes = !t.kind().equals("UINT") && !t.kind().equals("RESERVED");
                if (needsBytes && (f.bitOffset() % 8 != 0 || t.bits() % 8 != 0)) {
                    throw error(f.where(), f.name() + " must start and end on a byte boundary");
                }
            }
            if (s.attrs().containsKey("class")) {
                for (String c : s.attrs().get("class").split(",")) {
                    if (!CLASSES.containsKey(c)) {
                        throw error(s.where(), "unknown class " + c + "; known: " + new TreeMap<>(CLASSES).keySet());
                    }
                }
                if (!s.attrs().containsKey("attr")) {
                    throw error(s.where(), "class= needs attr=0xNNNN");
                }
            }
        }
    }

    /** The attributes an enum block may have. */
    static final Set<String> ENUM_ATTRS = Set.of("unknown", "zero", "defines", "mask");

    void checkEnums() {
        for (EnumDecl e : enums.values()) {
            for (String key : e.attrs().keySet()) {
                if (!ENUM_ATTRS.contains(key)) {
                    throw error(e.where(), "unknown enum attribute " + key + "; known: " + new TreeMap<>(
                            ENUM_ATTRS.stream().collect(java.util.stream.Collectors.toMap(k -> k, k -> ""))).keySet());
                }
            }
            if (!e.attrs().getOrDefault("unknown", "").contains("%d")) {
                throw error(e.where(), "enum " + e.className() + " needs unknown=\"...%d...\", what describe() prints for other values");
            }
            int bits = enumField(e, e.fieldName()).bits();
            for (String mask : maskFields(e)) {
                bits = Math.min(bits, enumField(e, mask).bits());
            }
            Set<Integer> values = new java.util.HashSet<>();
            Set<String> names = new java.util.HashSet<>();
            for (Constant c : e.constants()) {
                if (c.value() < 0 || c.value() >= 1L << bits) {
                    throw error(c.where(), c.value() + " does not fit the " + bits + " bits of " + e.fieldName()
                            + (maskFields(e).isEmpty() ? "" : " and its masks"));
                }
                if (!maskFields(e).isEmpty() && Integer.bitCount(c.value()) != 1) {
                    throw error(c.where(), "the values of a mask enum are single bits, not " + c.value());
                }
                if (!values.add(c.value()) || !names.add(c.name())) {
                    throw error(c.where(), c.name() + " repeats a name or a value");
                }
            }
        }
    }

    /** The unsigned field {@code name} of the enum's structure. */
    Type enumField(EnumDecl e, String name) {
        StructDecl s = structs.get(e.structName());
        if (s == null) {
            throw error(e.where(), "unknown struct " + e.structName());
        }
        for (FieldDecl f : s.fields()) {
            if (f.name().equals(name)) {
                Type t = type(f);
                if (!t.kind().equals("UINT") || t.count() != 1 || t.bits() > 31) {
                    throw error(e.where(), e.structName() + "." + name + " is not an unsigned field of at most 31 bits");
                }
                return t;
            }
        }
        throw error(e.where(), e.structName() + " has no field " + name);
    }

    static List<String> maskFields(EnumDecl e) {
        String mask = e.attrs().get("mask");
        return mask == null ? List.of() : List.of(mask.split(","));
    }

    List<Leaf> leaves(StructDecl s, String prefix, int base) {
        List<Leaf> out = new ArrayList<>();
        for (FieldDecl f : s.fields()) {
            Type t = type(f);
            if (t.kind().equals("STRUCT")) {
                for (int i = 0; i < t.count(); i++) {
                    String name = prefix + f.name() + (t.count() > 1 ? "[" + i + "]" : "") + ".";
                    out.addAll(leaves(t.struct(), name, base + f.bitOffset() + i * t.bits()));
                }
            } else {
                out.add(new Leaf(prefix + f.name(), t.kind(), base + f.bitOffset(), t.bits(), t.count(),
                        f.attrs().get("ibmad")));
            }
        }
        return out;
    }

    // --- writing -----------------------------------------------------------------------------------

    void write(Path out) throws IOException {
        if (Files.exists(out)) {
            try (Stream<Path> old = Files.walk(out)) {
                for (Path p : old.sorted(java.util.Comparator.reverseOrder()).toList()) {
                    Files.delete(p);
                }
            }
        }
        for (StructDecl s : structs.values()) {
            Path file = out.resolve(s.pkg().replace('.', '/')).resolve(s.className() + ".java");
            Files.createDirectories(file.getParent());
            Files.writeString(file, classSource(s));
        }
        for (EnumDecl e : enums.values()) {
            Path file = out.resolve(e.pkg().replace('.', '/')).resolve(e.className() + ".java");
            Files.createDirectories(file.getParent());
            Files.writeString(file, enumSource(e));
        }
        Path registry = out.resolve("org/jrdma/iba/wire/IbaStructs.java");
        Files.createDirectories(registry.getParent());
        Files.writeString(registry, registrySource());
    }

    static String constant(String name) {
        return name.replaceAll("([a-z0-9])([A-Z])", "$1_$2").replaceAll("([A-Z])([A-Z][a-z])", "$1_$2")
                .toUpperCase(Locale.ROOT);
    }

    String classSource(StructDecl s) {
        String c = s.className();
        StringBuilder o = new StringBuilder();
        o.append("// Generated by IbaGenerator from ").append(s.where()).append(". Do not edit.\n");
        o.append("package ").append(s.pkg()).append(";\n\n");
        o.append("import java.lang.foreign.MemorySegment;\nimport java.util.List;\nimport java.util.Objects;\n");
        o.append("import org.jrdma.iba.Gid;\nimport org.jrdma.iba.Guid;\nimport org.jrdma.iba.wire.Bits;\n");
        o.append("import org.jrdma.iba.wire.Field;\nimport org.jrdma.iba.wire.IbaStruct;\nimport org.jrdma.iba.wire.MadAttribute;\n\n");
        o.append("/**\n * IBA ").append(s.ibaName());
        if (s.attrs().containsKey("section")) {
            o.append(" (IBA ").append(s.attrs().get("section")).append(")");
        }
        o.append(", ").append(s.bytes()).append(" bytes.\n");
        for (String d : s.doc()) {
            o.append(" * ").append(d.replace("*/", "* /")).append('\n');
        }
        o.append(" *\n * <pre>\n *   bit   bits  component\n");
        for (FieldDecl f : s.fields()) {
            Type t = type(f);
            o.append(String.format(" * %5d %6s  %s%n", f.bitOffset(),
                    t.count() > 1 ? t.count() + "x" + t.bits() : Integer.toString(t.bits()),
                    f.name() + (t.kind().equals("STRUCT") ? " (" + t.struct().ibaName() + ")" : "")));
        }
        o.append(" * </pre>\n */\n");
        boolean mad = s.attrs().containsKey("class");
        o.append("public final class ").append(c).append(" extends IbaStruct").append(mad ? " implements MadAttribute" : "").append(" {\n");
        o.append("    /** Size in bytes. */\n    public static final int SIZE = ").append(s.bytes()).append(";\n");
        o.append("    /** The name in the IBA specification. */\n    public static final String IBA_NAME = \"").append(s.ibaName()).append("\";\n");
        if (mad) {
            String[] classes = s.attrs().get("class").split(",");
            o.append("    /** The management class this attribute belongs to (the first, if several). */\n");
            o.append("    public static final int MGMT_CLASS = 0x").append(Integer.toHexString(CLASSES.get(classes[0])[0])).append(";\n");
            o.append("    /** The attribute ID. */\n    public static final int ATTRIBUTE_ID = ").append(s.attrs().get("attr")).append(";\n");
            long mask = 0;
            String methods = s.attrs().getOrDefault("methods", "");
            for (String m : methods.isEmpty() ? new String[0] : methods.split(",")) {
                Integer v = METHODS.get(m);
                if (v == null) {
                    throw error(s.where(), "unknown method " + m + "; known: " + new TreeMap<>(METHODS).keySet());
                }
                mask |= 1L << v;
            }
            o.append("    /** The request methods allowed on this attribute, bit N for method N (").append(methods).append("). */\n");
            o.append("    public static final long METHOD_MASK = 0x").append(Long.toHexString(mask)).append("L;\n");
        }
        List<Leaf> leaves = leaves(s, "", 0);
        if (s.sa() && leaves.size() > 64) {
            throw error(s.where(), "SA record " + s.className() + " has " + leaves.size()
                    + " components but a ComponentMask has 64 bits");
        }
        for (FieldDecl f : s.fields()) {
            if (f.type().startsWith("reserved")) {
                continue;
            }
            Type t = type(f);
            String k = constant(f.name());
            o.append("    /** Bit offset of {@code ").append(f.name()).append("}. */\n");
            o.append("    public static final int ").append(k).append("_BIT_OFFSET = ").append(f.bitOffset()).append(";\n");
            o.append("    /** Width in bits of one {@code ").append(f.name()).append("}. */\n");
            o.append("    public static final int ").append(k).append("_BIT_LENGTH = ").append(t.bits()).append(";\n");
            if (t.count() > 1) {
                o.append("    /** Number of elements of {@code ").append(f.name()).append("}. */\n");
                o.append("    public static final int ").append(k).append("_COUNT = ").append(t.count()).append(";\n");
            }
            if (s.sa() && !t.kind().equals("STRUCT")) {
                int bit = indexOf(leaves, f.name());
                o.append("    /** SA ComponentMask bit of {@code ").append(f.name()).append("}. */\n");
                o.append("    public static final long ").append(k).append("_COMPONENT_MASK = 1L << ").append(bit).append(";\n");
            }
        }
        o.append("    private static final List<Field> FIELDS = List.of(\n");
        for (int i = 0; i < leaves.size(); i++) {
            Leaf l = leaves.get(i);
            o.append(String.format("            new Field(\"%s\", Field.Kind.%s, %d, %d, %d, %s, %d)%s%n", l.name(), l.kind(),
                    l.bitOffset(), l.bitLength(), l.count(), l.ibmad() == null ? "null" : "\"" + l.ibmad() + "\"",
                    s.sa() ? i : -1, i + 1 < leaves.size() ? "," : ""));
        }
        o.append("    );\n\n");
        o.append("    /** A zeroed ").append(s.ibaName()).append(" with storage of its own. */\n");
        o.append("    public ").append(c).append("() {\n        super();\n    }\n\n");
        o.append("    /** A view of the ").append(s.ibaName()).append(" stored at {@code offset} in {@code buffer}. */\n");
        o.append("    public ").append(c).append("(byte[] buffer, int offset) {\n        super(buffer, offset);\n    }\n\n");
        o.append("    /** A copy of the ").append(s.ibaName()).append(" stored at {@code offset} in {@code src}. */\n");
        o.append("    public static ").append(c).append(" decode(byte[] src, int offset) {\n        return new ").append(c).append("().unpack(src, offset);\n    }\n\n");
        o.append("    @Override\n    public ").append(c).append(" unpack(byte[] src, int srcOffset) {\n        super.unpack(src, srcOffset);\n        return this;\n    }\n\n");
        o.append("    @Override\n    public ").append(c).append(" unpack(MemorySegment src, long srcOffset) {\n        super.unpack(src, srcOffset);\n        return this;\n    }\n\n");
        o.append("    @Override\n    public ").append(c).append(" clear() {\n        super.clear();\n        return this;\n    }\n\n");
        o.append("    @Override\n    public int size() {\n        return SIZE;\n    }\n\n");
        o.append("    @Override\n    public String ibaName() {\n        return IBA_NAME;\n    }\n\n");
        o.append("    @Override\n    public List<Field> fields() {\n        return FIELDS;\n    }\n");
        if (mad) {
            o.append("\n    @Override\n    public int mgmtClass() {\n        return MGMT_CLASS;\n    }\n");
            o.append("\n    @Override\n    public int attributeId() {\n        return ATTRIBUTE_ID;\n    }\n");
            o.append("\n    @Override\n    public long methodMask() {\n        return METHOD_MASK;\n    }\n");
        }
        for (FieldDecl f : s.fields()) {
            if (!f.type().startsWith("reserved")) {
                accessors(o, c, f, type(f));
            }
        }
        o.append("}\n");
        return o.toString();
    }

    /** The IBA name of a component, {@code PortInfo:LinkSpeedActive}, from its struct's IBA name and the field's. */
    String ibaName(EnumDecl e, String field) {
        return structs.get(e.structName()).ibaName() + ":" + Character.toUpperCase(field.charAt(0)) + field.substring(1);
    }

    static String component(String ibaName) {
        return ibaName.substring(ibaName.indexOf(':') + 1);
    }

    /** {@code a, b or c}. */
    static String either(List<String> items, String last) {
        return items.size() == 1 ? items.getFirst()
                : String.join(", ", items.subList(0, items.size() - 1)) + " " + last + " " + items.getLast();
    }

    String enumSource(EnumDecl e) {
        String c = e.className();
        String name = ibaName(e, e.fieldName());
        String field = component(name);
        String section = structs.get(e.structName()).attrs().get("section");
        List<String> masks = maskFields(e).stream().map(m -> component(ibaName(e, m))).toList();
        boolean mask = !masks.isEmpty();
        StringBuilder o = new StringBuilder();
        o.append("// Generated by IbaGenerator from ").append(e.where()).append(". Do not edit.\n");
        o.append("package ").append(e.pkg()).append(";\n\n");
        if (mask) {
            o.append("import java.util.Collection;\nimport java.util.EnumSet;\n\n");
        }
        o.append("/**\n");
        for (String d : e.doc()) {
            o.append(" * ").append(d.replace("*/", "* /")).append('\n');
        }
        o.append(" */\n");
        o.append("public enum ").append(c).append(" implements WireCode {\n");
        for (int i = 0; i < e.constants().size(); i++) {
            Constant k = e.constants().get(i);
            o.append("    /** ").append(k.doc()).append(" */\n");
            o.append("    ").append(k.name()).append('(').append(mask ? String.format("0x%x", k.value()) : k.value())
                    .append(", \"").append(k.text()).append('"');
            for (Column col : e.columns()) {
                o.append(", ").append(k.columns().get(col.name()));
            }
            o.append(')').append(i + 1 < e.constants().size() ? ",\n" : ";\n\n");
        }
        o.append("    private static final ").append(c).append("[] VALUES = values();\n\n");
        o.append("    private final int value;\n    private final String text;\n");
        StringBuilder params = new StringBuilder("int value, String text");
        StringBuilder sets = new StringBuilder("        this.value = value;\n        this.text = text;\n");
        for (Column col : e.columns()) {
            o.append("    private final ").append(col.type()).append(' ').append(col.name()).append(";\n");
            params.append(", ").append(col.type()).append(' ').append(col.name());
            sets.append("        this.").append(col.name()).append(" = ").append(col.name()).append(";\n");
        }
        o.append('\n').append("    ").append(c).append('(').append(params).append(") {\n").append(sets).append("    }\n\n");
        o.append("    /** The ").append(field).append(" value on the wire").append(mask ? ": one bit" : "").append(". */\n");
        o.append("    @Override\n    public int value() {\n        return value;\n    }\n\n");
        o.append("    /** The text infiniband-diags prints, for example {@code ").append(e.constants().getFirst().text()).append("}. */\n");
        o.append("    @Override\n    public String text() {\n        return text;\n    }\n");
        for (Column col : e.columns()) {
            o.append("\n    /** ").append(col.doc()).append(" */\n");
            o.append("    public ").append(col.type()).append(' ').append(col.name()).append("() {\n        return ")
                    .append(col.name()).append(";\n    }\n");
        }
        List<String> values = e.constants().stream().map(k -> Integer.toString(k.value())).toList();
        String defines = e.attrs().getOrDefault("defines",
                String.join(", ", e.constants().stream().map(k -> k.value() + " " + k.text()).toList()));
        o.append("\n    /**\n     * The {@code ").append(c).append("} whose ").append(field).append(" value is {@code value}.\n     *\n");
        o.append("     * @throws IllegalArgumentException if {@code value} is not ").append(either(values, "or")).append("\n     */\n");
        o.append("    public static ").append(c).append(" fromValue(int value) {\n");
        o.append("        return WireCodes.byValue(VALUES, value, \"").append(name).append("\",\n                \"IBA ")
                .append(section).append(" defines ").append(defines).append("\");\n    }\n\n");
        o.append("    /** The {@code ").append(c).append("} whose ").append(field)
                .append(" value is {@code value}, or null for any other value. */\n");
        o.append("    public static ").append(c).append(" fromValueOrNull(int value) {\n        return WireCodes.byValueOrNull(VALUES, value);\n    }\n");
        if (mask) {
            String held = either(masks, "or");
            o.append("\n    /**\n     * The values whose bits are set in a ").append(held).append(" {@code mask}.\n");
            o.append("     * Bits no value here stands for are ignored; {@code toMask(fromMask(m)) != m} reveals them.\n     */\n");
            o.append("    public static EnumSet<").append(c).append("> fromMask(int mask) {\n        return WireCodes.fromMask(")
                    .append(c).append(".class, VALUES, mask);\n    }\n\n");
            o.append("    /** The bit mask of {@code codes}, as ").append(either(masks, "and")).append(" hold it. */\n");
            o.append("    public static int toMask(Collection<").append(c).append("> codes) {\n        return WireCodes.toMask(codes);\n    }\n");
        }
        String[] unknown = e.attrs().get("unknown").split("%d", -1);
        String zero = e.attrs().get("zero");
        o.append("\n    /**\n     * What infiniband-diags prints for ").append(field).append(" {@code value}: the text,");
        if (zero != null) {
            o.append("\n     * {@code ").append(zero).append("} for 0,");
        }
        o.append(" or {@code ").append(String.join("N", unknown)).append("}.\n     */\n");
        o.append("    public static String describe(int value) {\n");
        if (zero != null) {
            o.append("        if (value == 0) {\n            return \"").append(zero).append("\";\n        }\n");
        }
        o.append("        return WireCodes.describe(VALUES, value, v -> \"").append(unknown[0]).append("\" + v + \"")
                .append(unknown[1]).append("\");\n    }\n}\n");
        return o.toString();
    }

    static int indexOf(List<Leaf> leaves, String name) {
        for (int i = 0; i < leaves.size(); i++) {
            if (leaves.get(i).name().equals(name)) {
                return i;
            }
        }
        throw new IllegalStateException(name);
    }

    void accessors(StringBuilder o, String c, FieldDecl f, Type t) {
        String n = f.name();
        String k = constant(n);
        boolean array = t.count() > 1;
        String idxParam = array ? "int index" : "";
        String idxCheck = array ? "        Objects.checkIndex(index, " + t.count() + ");\n" : "";
        String bitAt = array ? k + "_BIT_OFFSET + index * " + t.bits() : k + "_BIT_OFFSET";
        String byteAt = "offset() + (" + bitAt + ") / 8";
        String doc = "    /** {@code " + n + "}" + (array ? ", element {@code index}" : "") + ". */\n";
        String sep = array ? ", " : "";
        switch (t.kind()) {
            case "UINT" -> {
                String jt = t.bits() <= 31 ? "int" : "long";
                String read = fastRead(t.bits(), f.bitOffset(), array, byteAt, bitAt);
                boolean readsInt = read.startsWith("Bits.u8(") || read.startsWith("Bits.u16(");
                String cast = jt.equals("int") && !readsInt ? "(int) " : "";
                o.append('\n').append(doc).append("    public ").append(jt).append(' ').append(n).append('(').append(idxParam).append(") {\n")
                        .append(idxCheck).append("        return ").append(cast).append(read).append(";\n    }\n");
                o.append('\n').append(doc.replace("*/", "Checked against the field width. */"))
                        .append("    public ").append(c).append(' ').append(n).append('(').append(idxParam).append(sep).append(jt).append(" value) {\n")
                        .append(idxCheck)
                        .append("        Bits.set(buffer(), offset(), ").append(bitAt).append(", ").append(t.bits())
                        .append(", Bits.checkUnsigned(\"").append(n).append("\", ").append(t.bits()).append(", value));\n        return this;\n    }\n");
            }
            case "GUID" -> {
                o.append('\n').append(doc).append("    public Guid ").append(n).append('(').append(idxParam).append(") {\n").append(idxCheck)
                        .append("        return Guid.fromBytes(buffer(), ").append(byteAt).append(");\n    }\n");
                o.append('\n').append(doc).append("    public ").append(c).append(' ').append(n).append('(').append(idxParam).append(sep).append("Guid value) {\n").append(idxCheck)
                        .append("        value.writeTo(buffer(), ").append(byteAt).append(");\n        return this;\n    }\n");
            }
            case "GID" -> {
                o.append('\n').append(doc).append("    public Gid ").append(n).append('(').append(idxParam).append(") {\n").append(idxCheck)
                        .append("        return Gid.fromBytes(buffer(), ").append(byteAt).append(");\n    }\n");
                o.append('\n').append(doc).append("    public ").append(c).append(' ').append(n).append('(').append(idxParam).append(sep).append("Gid value) {\n").append(idxCheck)
                        .append("        int at = ").append(byteAt).append(";\n")
                        .append("        Bits.u64(buffer(), at, value.prefix());\n        Bits.u64(buffer(), at + 8, value.interfaceId());\n        return this;\n    }\n");
            }
            case "STRING" -> {
                o.append('\n').append(doc.replace("*/", "Text up to the first NUL. */")).append("    public String ").append(n).append('(').append(idxParam).append(") {\n").append(idxCheck)
                        .append("        return Bits.text(buffer(), ").append(byteAt).append(", ").append(t.bits() / 8).append(");\n    }\n");
                o.append('\n').append(doc.replace("*/", "NUL-padded; at most " + t.bits() / 8 + " ISO-8859-1 bytes. */")).append("    public ").append(c).append(' ').append(n).append('(').append(idxParam).append(sep).append("String value) {\n").append(idxCheck)
                        .append("        Bits.text(buffer(), ").append(byteAt).append(", ").append(t.bits() / 8).append(", \"").append(n).append("\", value);\n        return this;\n    }\n");
            }
            case "BYTES" -> {
                o.append('\n').append(doc.replace("*/", "A copy. */")).append("    public byte[] ").append(n).append('(').append(idxParam).append(") {\n").append(idxCheck)
                        .append("        int at = ").append(byteAt).append(";\n")
                        .append("        return java.util.Arrays.copyOfRange(buffer(), at, at + ").append(t.bits() / 8).append(");\n    }\n");
                o.append('\n').append(doc.replace("*/", "Exactly " + t.bits() / 8 + " bytes. */")).append("    public ").append(c).append(' ').append(n).append('(').append(idxParam).append(sep).append("byte[] value) {\n").append(idxCheck)
                        .append("        Bits.bytes(buffer(), ").append(byteAt).append(", ").append(t.bits() / 8).append(", \"").append(n).append("\", value);\n        return this;\n    }\n");
            }
            case "STRUCT" -> {
                String sc = t.struct().fqcn();
                o.append('\n').append(doc.replace("*/", "A view: writing to it writes this structure. */")).append("    public ").append(sc).append(' ').append(n).append('(').append(idxParam).append(") {\n").append(idxCheck)
                        .append("        return new ").append(sc).append("(buffer(), ").append(byteAt).append(");\n    }\n");
                o.append('\n').append(doc.replace("*/", "Copies {@code value} in. */")).append("    public ").append(c).append(' ').append(n).append('(').append(idxParam).append(sep).append(sc).append(" value) {\n").append(idxCheck)
                        .append("        value.pack(buffer(), ").append(byteAt).append(");\n        return this;\n    }\n");
            }
            default -> throw new IllegalStateException(t.kind());
        }
    }

    static String fastRead(int bits, int bitOffset, boolean array, String byteAt, String bitAt) {
        boolean aligned = bitOffset % 8 == 0 && (!array || bits % 8 == 0);
        if (aligned) {
            switch (bits) {
                case 8: return "Bits.u8(buffer(), " + byteAt + ")";
                case 16: return "Bits.u16(buffer(), " + byteAt + ")";
                case 32: return "Bits.u32(buffer(), " + byteAt + ")";
                case 64: return "Bits.u64(buffer(), " + byteAt + ")";
                default: break;
            }
        }
        return "Bits.get(buffer(), offset(), " + bitAt + ", " + bits + ")";
    }

    String registrySource() {
        StringBuilder o = new StringBuilder();
        o.append("// Generated by IbaGenerator. Do not edit.\npackage org.jrdma.iba.wire;\n\n");
        o.append("import java.util.List;\nimport java.util.Map;\nimport java.util.function.Supplier;\n\n");
        o.append("/**\n * Every generated IBA structure, and the MAD attributes by management class and attribute ID, so\n");
        o.append(" * that a received MAD can be decoded without knowing in advance what it carries.\n */\n");
        o.append("public final class IbaStructs {\n    private IbaStructs() {\n    }\n\n");
        o.append("    /** A factory for every generated structure, by class simple name. */\n");
        o.append("    public static final Map<String, Supplier<IbaStruct>> ALL = Map.ofEntries(\n");
        List<String> all = new ArrayList<>();
        for (StructDecl s : structs.values()) {
            all.add("            Map.entry(\"" + s.className() + "\", " + s.fqcn() + "::new)");
        }
        o.append(String.join(",\n", all)).append(");\n\n");
        Map<Integer, String> byKey = new TreeMap<>();
        for (StructDecl s : structs.values()) {
            if (!s.attrs().containsKey("class")) {
                continue;
            }
            int attr = integer(s.attrs().get("attr"), s.where());
            for (String group : s.attrs().get("class").split(",")) {
                for (int cls : CLASSES.get(group)) {
                    String previous = byKey.put((cls << 16) | attr, s.fqcn());
                    if (previous != null) {
                        throw error(s.where(), "attribute 0x" + Integer.toHexString(attr) + " of class 0x"
                                + Integer.toHexString(cls) + " is also " + previous);
                    }
                }
            }
        }
        o.append("    private static final Map<Integer, Supplier<IbaStruct>> BY_ATTRIBUTE = Map.ofEntries(\n");
        List<String> entries = new ArrayList<>();
        byKey.forEach((key, fqcn) -> entries.add("            Map.entry(0x" + Integer.toHexString(key) + ", " + fqcn + "::new)"));
        o.append(String.join(",\n", entries)).append(");\n\n");
        o.append("    /**\n     * A new zeroed instance of the attribute of this management class and attribute ID, or null\n");
        o.append("     * if there is none (for SMPs both the LID-routed and the directed-route class work).\n     */\n");
        o.append("    public static IbaStruct forAttribute(int mgmtClass, int attributeId) {\n");
        o.append("        Supplier<IbaStruct> s = BY_ATTRIBUTE.get(((mgmtClass & 0xFF) << 16) | (attributeId & 0xFFFF));\n");
        o.append("        return s == null ? null : s.get();\n    }\n\n");
        o.append("    /** The simple class names of every generated structure. */\n");
        o.append("    public static List<String> names() {\n        return ALL.keySet().stream().sorted().toList();\n    }\n}\n");
        return o.toString();
    }
}
