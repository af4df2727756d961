package org.jrdma.iba.wire;

import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.IntFunction;
import java.util.function.Supplier;
import org.jrdma.iba.Gid;
import org.jrdma.iba.Guid;
import org.jrdma.iba.wire.LibibmadOracle.LibField;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.io.TempDir;

/**
 * libibmad as an independent oracle for every IBA field jrdma generates.
 *
 * <p>The descriptions ({@code src/main/iba/*.iba}) put {@code ibmad=IB_..._F} on fields that have
 * the same bits as libibmad's {@code enum MAD_FIELDS} entries. For every generated structure and
 * every such field this test checks, against the installed libibmad (see {@link LibibmadOracle}):
 * <ul>
 *   <li>that the name exists in libibmad and has the field's bits: the same width (for arrays the
 *       whole array, or one element), at libibmad's offset plus a constant per structure, computed
 *       once per structure and nested structure (normally 0; libibmad counts attribute fields from
 *       the attribute or record and header fields from the MAD, so e.g. an RMPP header standing
 *       alone sits 192 bits off);
 *   <li>decoding: on random buffers placed so that libibmad's field lands on the same bytes,
 *       {@link Field#value}, {@link Field#get} and the generated accessor read what
 *       {@code mad_decode_field} reads;
 *   <li>encoding: writing random values through {@link Field#set} (GUIDs, GIDs, text and bytes
 *       through the buffer) and through the generated setter changes exactly the bytes
 *       {@code mad_encode_field} changes, to the same values;
 *   <li>that no libibmad field is claimed with different bits by two (structure, field) pairs,
 *       bits counted from the (nested) structure that declares the field;
 *   <li>coverage: every libibmad field of the SMP, SA, PM and MAD groups (MAD header, GS data,
 *       ClassPortInfo) is compared, except those in {@link #EXCEPTIONS}; records that nest an
 *       attribute are matched to libibmad's flat record names by bits ({@link #BY_BITS}). The
 *       summary is printed, and what is missing is listed by group.
 * </ul>
 *
 * <p>The test's own bit plumbing ({@link LibibmadOracle#getBits}/{@code putBits}) works one bit at
 * a time and does not use {@link Bits}, which is under test.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class LibibmadOracleTest {
    private static final long SEED = 0x1BAD_0ACE_2048L;
    private static final int BUFFERS = 20;
    private static final int ROUNDS = 8;
    private static final int MAX_PROBLEMS_SHOWN = 150;

    /**
     * libibmad fields of the required groups that no correct description can claim, each with the
     * reason. Keep each reason to one line.
     */
    static final Map<String, String> EXCEPTIONS = Map.ofEntries(
            Map.entry("IB_PC_QP1_DROP_F", "libibmad declares PortCounters QP1Dropped as raw {160, 16} without"
                    + " BITSOFFS(), so it reads bits 176..191, which are VL15Dropped (QP1Dropped is 160..175)"),
            Map.entry("IB_PORT_EXT_HDR_FEC_MODE_SUPPORTED_F", "libibmad declares it as raw {112, 16} without"
                    + " BITSOFFS(), so it reads bits 96..111 (EDRFECModeEnabled), the other half of its 32-bit word"),
            Map.entry("IB_PORT_EXT_HDR_FEC_MODE_ENABLED_F", "libibmad declares it as raw {128, 16} without"
                    + " BITSOFFS(), so it reads bits 144..159, the other half of its 32-bit word"),
            Map.entry("IB_PORT_EXT_NDR_FEC_MODE_SUPPORTED_F", "libibmad declares it as raw {144, 16} without"
                    + " BITSOFFS(), so it reads bits 128..143, the other half of its 32-bit word"),
            Map.entry("IB_PORT_EXT_NDR_FEC_MODE_ENABLED_F", "libibmad declares it as raw {160, 16} without"
                    + " BITSOFFS(), so it reads bits 176..191, the other half of its 32-bit word"),
            Map.entry("IB_SA_SR_DATA_F", "libibmad's ServRecData is the whole 64-byte ServiceData area, which IBA"
                    + " 15.2.5.14 splits into 22 components (ServiceData8.1 .. ServiceData64.2)"));

    /**
     * Records that nest an attribute where libibmad describes them flat: the nested fields carry the
     * attribute's names (IB_NODE_...), which leaves libibmad's record-relative names of the same bits
     * (IB_SA_NR_BASEVER_F...) without a place in the descriptions. For these structures, a libibmad
     * field with the given prefix that no ibmad= claims is matched to the field with exactly its bits,
     * counted from the start of the record, and compared like any other.
     */
    static final Map<String, String> BY_BITS = Map.of(
            "SaNodeRecord", "IB_SA_NR_",
            "SaGuidInfoRecord", "IB_SA_GIR_");

    /** Management-class groups whose libibmad fields must all be compared. */
    static final Set<String> REQUIRED = Set.of("SMP", "SA", "PM", "MAD");

    /** libibmad identifier prefixes, the group each is counted in, and the group's class. */
    static final String[][] GROUPS = {
        {"IB_GID_", "IB_GID", "GID"},
        {"IB_MAD_", "IB_MAD", "MAD"},
        {"IB_GS_DATA_F", "IB_MAD", "MAD"},
        {"IB_CPI_", "IB_CPI", "MAD"},
        {"IB_DRSMP_", "IB_DRSMP", "SMP"},
        {"IB_SM_DATA_F", "IB_DRSMP", "SMP"},
        {"IB_PORT_EXT_", "IB_PORT_EXT", "SMP"},
        {"IB_PORT_", "IB_PORT", "SMP"},
        {"IB_NODE_DESC_F", "IB_NODE_DESC", "SMP"},
        {"IB_NODE_", "IB_NODE", "SMP"},
        {"IB_SW_", "IB_SW", "SMP"},
        {"IB_LINEAR_FORW_TBL_F", "IB_LINEAR_FORW_TBL", "SMP"},
        {"IB_MULTICAST_FORW_TBL_F", "IB_MULTICAST_FORW_TBL", "SMP"},
        {"IB_NOTICE_", "IB_NOTICE", "SMP"},
        {"IB_SMINFO_", "IB_SMINFO", "SMP"},
        {"IB_SLTOVL_", "IB_SLTOVL", "SMP"},
        {"IB_VL_ARBITRATION_", "IB_VL_ARBITRATION", "SMP"},
        {"IB_GUID_", "IB_GI", "SMP"},
        {"IB_GI_", "IB_GI", "SMP"},
        {"IB_SA_RMPP_", "IB_SA_RMPP", "SA"},
        {"IB_SA_MP_", "IB_SA_MP", "SA"},
        {"IB_SA_PR_", "IB_SA_PR", "SA"},
        {"IB_SA_MCM_", "IB_SA_MCM", "SA"},
        {"IB_SA_SR_", "IB_SA_SR", "SA"},
        {"IB_SA_GIR_", "IB_SA_GIR", "SA"},
        {"IB_SA_NR_", "IB_SA_NR", "SA"},
        {"IB_SA_", "IB_SA", "SA"},
        {"IB_ATS_", "IB_ATS", "ATS"},
        {"IB_PC_EXT_", "IB_PC_EXT", "PM"},
        {"IB_PC_", "IB_PC", "PM"},
        {"IB_PSC_", "IB_PSC", "PM"},
        {"IB_PSR_", "IB_PSR", "PM"},
        {"IB_PESC_", "IB_PESC", "PM"},
        {"IB_VEND2_", "IB_VEND2", "VENDOR"},
        {"IB_MLNX_", "IB_MLNX", "VENDOR"},
        {"IB_CC_", "IB_CC", "CC"},
    };

    /**
     * One {@code ibmad=} name on one field of one generated structure, or ({@code byBits}) a libibmad
     * field matched to a field by its bits through {@link #BY_BITS}.
     */
    record Claim(String struct, Supplier<IbaStruct> factory, Field field, String ident, LibField lib, String prefix,
            boolean byBits) {
        String where() {
            return struct + "." + field.name();
        }

        String group() {
            return (prefix.isEmpty() ? struct : struct + " " + prefix) + (byBits ? " [by bits]" : "");
        }
    }

    /**
     * A claim whose bits agree with libibmad: elements {@code first .. first+elements-1} of the field
     * are libibmad's field, and libibmad bit {@code b} is bit {@code b + delta} of the structure.
     */
    record Match(Claim claim, int delta, int first, int elements, int nestedBase) {
        Field field() {
            return claim.field;
        }

        LibField lib() {
            return claim.lib;
        }

        String where() {
            return claim.where() + (elements < field().count() ? "[" + first + "]" : "") + " (" + claim.ident
                    + (claim.byBits ? ", by bits" : "") + ")";
        }
    }

    @TempDir
    static Path dir;

    static LibibmadOracle oracle;
    static byte[][] buffers;
    static byte[][] pools;
    static final List<Claim> claims = new ArrayList<>();
    static final List<Match> matches = new ArrayList<>();
    static final List<String> nameProblems = new ArrayList<>();
    static final List<String> bitProblems = new ArrayList<>();
    static final List<String> notes = new ArrayList<>();
    static int fieldsWithNames;
    static int namesTotal;

    private static boolean started;
    private static Throwable setUpFailure;

    /**
     * Runs the oracle once for the class; every test calls it first, so that a missing peer skips
     * (or, under CI, fails) each test rather than the class as a whole.
     */
    private static synchronized void setUp() throws Throwable {
        if (!started) {
            started = true;
            try {
                runOracle();
            } catch (Throwable t) {
                setUpFailure = t;
            }
        }
        if (setUpFailure != null) {
            throw setUpFailure;
        }
    }

    private static void runOracle() throws Exception {
        Random random = new Random(SEED);
        buffers = new byte[BUFFERS][LibibmadOracle.BUF_SIZE];
        pools = new byte[ROUNDS][LibibmadOracle.BUF_SIZE];
        for (byte[] b : buffers) {
            random.nextBytes(b);
        }
        for (byte[] p : pools) {
            random.nextBytes(p);
        }
        // The extremes: the largest values written into zeros, zeros written into ones.
        Arrays.fill(buffers[0], (byte) 0);
        Arrays.fill(pools[0], (byte) 0xFF);
        Arrays.fill(buffers[1], (byte) 0xFF);
        Arrays.fill(pools[1], (byte) 0);
        oracle = LibibmadOracle.run(dir, buffers, pools);
        resolveClaims();
    }

    // --- the tests ---------------------------------------------------------------------------------

    @Test
    @Order(1)
    void everyIbmadNameIsALibibmadField() throws Throwable {
        setUp();
        List<String> problems = new ArrayList<>(nameProblems);
        for (String ident : EXCEPTIONS.keySet()) {
            if (!oracle.fields.containsKey(ident)) {
                problems.add("EXCEPTIONS names " + ident + ", which is not in enum MAD_FIELDS");
            }
        }
        assertNone("ibmad= names that libibmad does not have (" + oracle.header + ")", problems);
    }

    @Test
    @Order(2)
    void everyIbmadFieldHasLibibmadBits() throws Throwable {
        setUp();
        assertNone("fields whose bits differ from libibmad's", bitProblems);
    }

    @Test
    @Order(3)
    void decodesWhatLibibmadDecodes() throws Throwable {
        setUp();
        List<String> problems = new ArrayList<>();
        for (Match m : matches) {
            Field f = m.field();
            Set<String> failedPaths = new java.util.HashSet<>();
            for (int b = 0; b < BUFFERS; b++) {
                IbaStruct s = place(m, buffers[b]);
                byte[] want = oracle.decoded(m.lib(), b);
                if (f.kind() == Field.Kind.STRING) {
                    want = nulTerminated(want, f.bitLength() / 8);
                }
                Map<String, byte[]> ours = new LinkedHashMap<>();
                ours.put("Field.value", join(m, i -> elementBits(f.value(s, i), f)));
                if (f.bitLength() <= 64 && f.kind() != Field.Kind.STRING) {
                    ours.put("Field.get", join(m, i -> LibibmadOracle.leftAligned(f.get(s, i), f.bitLength())));
                }
                if (f.kind() != Field.Kind.RESERVED) {
                    Object view = navigate(s, m.claim.prefix);
                    Method getter = getter(view.getClass(), leaf(f.name()), f.count() > 1);
                    ours.put("accessor", join(m, i -> elementBits(invoke(getter, view, f.count() > 1
                            ? new Object[] {i} : new Object[0]), f)));
                }
                for (Map.Entry<String, byte[]> e : ours.entrySet()) {
                    if (!Arrays.equals(e.getValue(), want) && failedPaths.add(e.getKey())) {
                        problems.add(String.format("%s buffer %d via %s: ours %s, libibmad %s", m.where(), b,
                                e.getKey(), valueText(m.lib(), e.getValue()), valueText(m.lib(), want)));
                    }
                }
            }
        }
        assertNone("fields that decode differently from mad_decode_field", problems);
    }

    @Test
    @Order(4)
    void encodesWhatLibibmadEncodes() throws Throwable {
        setUp();
        List<String> problems = new ArrayList<>();
        for (Match m : matches) {
            Field f = m.field();
            Set<String> failedPaths = new java.util.HashSet<>();
            for (int r = 0; r < ROUNDS; r++) {
                byte[] value = oracle.encodedValue(m.lib(), r);
                byte[] span = oracle.encodedSpan(m.lib(), r);
                for (String path : List.of("Field.set", "accessor")) {
                    if (path.equals("accessor") && f.kind() == Field.Kind.RESERVED) {
                        continue;
                    }
                    IbaStruct s = place(m, buffers[r]);
                    byte[] expected = s.toBytes();
                    int at = m.lib().first() / 8 + m.delta() / 8;
                    System.arraycopy(span, 0, expected, at, span.length);
                    try {
                        for (int k = 0; k < m.elements(); k++) {
                            write(path, s, m, m.first() + k, value, k);
                        }
                    } catch (RuntimeException e) {
                        if (failedPaths.add(path)) {
                            problems.add(String.format("%s round %d via %s: writing %s threw %s", m.where(), r, path,
                                    valueText(m.lib(), value), e));
                        }
                        continue;
                    }
                    byte[] ours = s.toBytes();
                    int diff = Arrays.mismatch(ours, expected);
                    if (diff >= 0 && failedPaths.add(path)) {
                        problems.add(String.format("%s round %d via %s: writing %s, byte %d of %s is %02x, libibmad"
                                + " makes it %02x (libibmad's bytes %d..%d: ours %s, libibmad %s)", m.where(), r, path,
                                valueText(m.lib(), value), diff, m.claim.struct, ours[diff], expected[diff], at,
                                at + span.length - 1,
                                hex(Arrays.copyOfRange(ours, at, at + span.length)), hex(span)));
                    }
                }
            }
        }
        assertNone("fields that encode differently from mad_encode_field", problems);
    }

    @Test
    @Order(5)
    void noLibibmadFieldIsClaimedWithDifferentBits() throws Throwable {
        setUp();
        // Bits relative to the (possibly nested) structure declaring the field, so that a record's
        // nested copy of NodeInfo agrees with NodeInfo itself.
        Map<String, Map<String, List<String>>> byIdent = new TreeMap<>();
        for (Match m : matches) {
            int start = m.field().bitOffset(m.first()) - m.nestedBase();
            int end = start + m.elements() * m.field().bitLength() - 1;
            byIdent.computeIfAbsent(m.claim.ident, k -> new TreeMap<>())
                    .computeIfAbsent(start + ".." + end, k -> new ArrayList<>()).add(m.claim.where());
        }
        List<String> problems = new ArrayList<>();
        byIdent.forEach((ident, bits) -> {
            if (bits.size() > 1) {
                problems.add(ident + " is claimed with different bits: " + bits);
            }
        });
        assertNone("libibmad fields claimed by fields with different bits", problems);
    }

    @Test
    @Order(6)
    void comparesEveryLibibmadFieldOfSmpSaAndPm() throws Throwable {
        setUp();
        // Fields are counted by enum value, so an alias (IB_PORT_FIRST_F = IB_PORT_MKEY_F) is one field.
        Map<Integer, List<LibField>> byValue = new TreeMap<>();
        for (LibField f : oracle.fields.values()) {
            if (f.hasBits()) {
                byValue.computeIfAbsent(f.value(), k -> new ArrayList<>()).add(f);
            }
        }
        Set<Integer> compared = new TreeSet<>();
        for (Match m : matches) {
            compared.add(m.lib().value());
        }
        Map<String, int[]> perGroup = new TreeMap<>();
        Map<String, String> groupClass = new HashMap<>();
        Map<String, List<String>> missing = new TreeMap<>();
        List<String> exceptionNotes = new ArrayList<>();
        int required = 0;
        int requiredCompared = 0;
        int excepted = 0;
        for (Map.Entry<Integer, List<LibField>> e : byValue.entrySet()) {
            LibField f = canonical(e.getValue());
            String[] group = classify(f.ident());
            groupClass.put(group[0], group[1]);
            int[] counts = perGroup.computeIfAbsent(group[0], k -> new int[3]);
            counts[1]++;
            boolean isCompared = compared.contains(e.getKey());
            String exception = null;
            for (LibField alias : e.getValue()) {
                exception = exception != null ? exception : EXCEPTIONS.get(alias.ident());
            }
            if (isCompared) {
                counts[0]++;
                if (exception != null) {
                    exceptionNotes.add(f.ident() + " is compared now; its EXCEPTIONS entry can go");
                }
            }
            if (REQUIRED.contains(group[1])) {
                required++;
                if (isCompared) {
                    requiredCompared++;
                } else if (exception != null) {
                    excepted++;
                    counts[2]++;
                } else {
                    missing.computeIfAbsent(group[0] + " (" + group[1] + ")", k -> new ArrayList<>()).add(
                            String.format("%-50s %-32s bits %s", aliases(e.getValue()), f.name(), f.bits()));
                }
            }
        }

        StringBuilder out = new StringBuilder();
        out.append("\n=== libibmad oracle: ").append(oracle.header).append(" ===\n");
        out.append(String.format("libibmad: %d identifiers in enum MAD_FIELDS, %d distinct fields with bits;"
                + " compared: %d (%d%%)%n", oracle.fields.size(), byValue.size(), compared.size(),
                byValue.isEmpty() ? 0 : 100 * compared.size() / byValue.size()));
        out.append(String.format("jrdma: %d structures, %d fields with ibmad= names, %d names, %d matched"
                + " (with nested copies; %d more by bits through BY_BITS), %d buffers decoded, %d rounds encoded%n",
                IbaStructs.ALL.size(), fieldsWithNames, namesTotal, matches.stream().filter(m -> !m.claim.byBits).count(),
                matches.stream().filter(m -> m.claim.byBits).count(), BUFFERS, ROUNDS));
        out.append(String.format("required groups (%s): %d fields, %d compared, %d excepted, %d missing%n",
                new TreeSet<>(REQUIRED), required, requiredCompared, excepted, required - requiredCompared - excepted));
        out.append(String.format("  %-24s %-7s %9s %7s %9s%n", "group", "class", "compared", "fields", "excepted"));
        perGroup.forEach((group, c) -> out.append(String.format("  %-24s %-7s %9d %7d %9s%n", group,
                groupClass.get(group) + (REQUIRED.contains(groupClass.get(group)) ? "*" : ""), c[0], c[1],
                c[2] == 0 ? "" : Integer.toString(c[2]))));
        out.append("  (* = required)\n");
        if (!notes.isEmpty() || !exceptionNotes.isEmpty()) {
            out.append("notes:\n");
            notes.forEach(n -> out.append("  ").append(n).append('\n'));
            exceptionNotes.forEach(n -> out.append("  ").append(n).append('\n'));
        }
        out.append("matched by bits (BY_BITS):\n");
        new TreeMap<>(BY_BITS).forEach((struct, prefix) -> out.append(String.format("  %s: %d %s* fields%n", struct,
                matches.stream().filter(m -> m.claim.byBits && m.claim.struct.equals(struct)).count(), prefix)));
        out.append("exceptions (not required):\n");
        new TreeMap<>(EXCEPTIONS).forEach((k, v) -> out.append("  ").append(k).append(": ").append(v).append('\n'));
        StringBuilder miss = new StringBuilder();
        missing.forEach((group, idents) -> {
            miss.append("  ").append(group).append(": ").append(idents.size()).append(" missing\n");
            idents.forEach(i -> miss.append("      ").append(i).append('\n'));
        });
        if (!missing.isEmpty()) {
            out.append("MISSING: libibmad fields of the required groups that no description claims with ibmad=\n")
                    .append(miss);
        }
        System.out.print(out);
        System.out.flush();
        assertTrue(missing.isEmpty(), (required - requiredCompared - excepted)
                + " libibmad fields of the SMP, SA, PM and MAD groups are not compared (add ibmad= to the"
                + " descriptions, or an EXCEPTIONS entry with the reason):\n" + miss);
    }

    // --- resolving the claims ----------------------------------------------------------------------

    private static void resolveClaims() {
        for (String name : IbaStructs.names()) {
            Supplier<IbaStruct> factory = IbaStructs.ALL.get(name);
            for (Field f : factory.get().fields()) {
                if (f.ibmadName() == null) {
                    continue;
                }
                fieldsWithNames++;
                String where = name + "." + f.name();
                for (String raw : f.ibmadName().split(",")) {
                    String ident = raw.strip();
                    namesTotal++;
                    LibField lib = oracle.fields.get(ident);
                    if (lib == null) {
                        nameProblems.add(where + ": ibmad=" + ident + " is not an identifier of enum MAD_FIELDS");
                    } else if (!lib.hasBits()) {
                        nameProblems.add(where + ": ibmad=" + ident + " has no bits in libibmad");
                    } else if (!lib.regular()) {
                        bitProblems.add(where + ": ibmad=" + ident + " is not one run of bits in libibmad ("
                                + lib.popcount() + " bits set in " + lib.bits() + ")");
                    } else {
                        claims.add(new Claim(name, factory, f, ident, lib, prefix(f.name()), false));
                    }
                }
            }
        }
        addClaimsByBits();
        Map<String, List<Claim>> groups = new LinkedHashMap<>();
        for (Claim c : claims) {
            groups.computeIfAbsent(c.group(), k -> new ArrayList<>()).add(c);
        }
        for (List<Claim> group : groups.values()) {
            Claim any = group.get(0);
            Map<Integer, Set<String>> votes = new HashMap<>();
            for (Claim c : group) {
                for (int delta : candidates(c)) {
                    votes.computeIfAbsent(delta, k -> new LinkedHashSet<>()).add(c.field.name() + " " + c.ident);
                }
            }
            int delta = any.byBits ? 0 : votes.entrySet().stream()
                    .sorted(Comparator.<Map.Entry<Integer, Set<String>>>comparingInt(e -> -e.getValue().size())
                            .thenComparingInt(e -> e.getKey() == 0 ? 0 : 1)
                            .thenComparingInt(e -> Math.abs(e.getKey()))
                            .thenComparingInt(Map.Entry::getKey))
                    .map(Map.Entry::getKey).findFirst().orElse(0);
            if (delta % 8 != 0) {
                bitProblems.add(any.group() + ": the fields sit " + delta + " bits from libibmad's, not a whole"
                        + " number of bytes: " + votes.get(delta));
                continue;
            }
            int nestedBase = any.byBits ? 0 : nestedBase(any);
            if (delta != nestedBase) {
                int base = delta - nestedBase;
                notes.add(String.format("%s: libibmad's offsets of %s are counted from %d bits %s this structure%s",
                        any.group(), idents(group), Math.abs(base), base < 0 ? "before" : "after",
                        votes.get(delta).size() == 1 ? " (only one field to tell; check it)" : ""));
            }
            for (Claim c : group) {
                Match m = match(c, delta, nestedBase);
                if (m != null) {
                    matches.add(m);
                } else {
                    Field f = c.field;
                    int start = c.lib.first() + delta;
                    String exception = EXCEPTIONS.get(c.ident);
                    bitProblems.add(String.format("%s: ibmad=%s (%s) is libibmad bits %s, i.e. bits %d..%d here"
                            + " (base %+d), but the field is bits %d..%d (%s)%s", c.where(), c.ident, c.lib.name(),
                            c.lib.bits(), start, start + c.lib.length() - 1, delta, f.bitOffset(),
                            f.bitOffset() + f.count() * f.bitLength() - 1,
                            f.count() > 1 ? f.count() + " x " + f.bitLength() + " bits" : f.bitLength() + " bits",
                            exception == null ? "" : "; known: " + exception));
                }
            }
        }
    }

    /** The claims {@link #BY_BITS} adds: unclaimed libibmad fields matched to fields by their bits. */
    private static void addClaimsByBits() {
        for (Map.Entry<String, String> e : new TreeMap<>(BY_BITS).entrySet()) {
            Supplier<IbaStruct> factory = IbaStructs.ALL.get(e.getKey());
            if (factory == null) {
                nameProblems.add("BY_BITS names " + e.getKey() + ", which is not a generated structure");
                continue;
            }
            Set<Integer> claimed = new java.util.HashSet<>();
            for (Claim c : claims) {
                if (c.struct.equals(e.getKey())) {
                    claimed.add(c.lib.value());
                }
            }
            List<Field> fields = factory.get().fields();
            for (LibField lib : oracle.fields.values()) {
                if (!lib.ident().startsWith(e.getValue()) || !lib.regular() || !claimed.add(lib.value())) {
                    continue;
                }
                for (Field f : fields) {
                    Claim c = new Claim(e.getKey(), factory, f, lib.ident(), lib, prefix(f.name()), true);
                    if (f.kind() != Field.Kind.RESERVED && match(c, 0, 0) != null) {
                        claims.add(c);
                        break;
                    }
                }
            }
        }
    }

    /** The shifts (our bit - libibmad bit) under which a claim's bits would agree. */
    private static List<Integer> candidates(Claim c) {
        Field f = c.field;
        List<Integer> out = new ArrayList<>();
        if (c.lib.length() == f.count() * f.bitLength()) {
            out.add(f.bitOffset() - c.lib.first());
        }
        if (f.count() > 1 && c.lib.length() == f.bitLength()) {
            for (int i = 0; i < f.count(); i++) {
                out.add(f.bitOffset(i) - c.lib.first());
            }
        }
        return out;
    }

    private static Match match(Claim c, int delta, int nestedBase) {
        Field f = c.field;
        int start = c.lib.first() + delta;
        if (c.lib.length() == f.count() * f.bitLength() && start == f.bitOffset()) {
            return new Match(c, delta, 0, f.count(), nestedBase);
        }
        if (f.count() > 1 && c.lib.length() == f.bitLength() && start >= f.bitOffset()
                && (start - f.bitOffset()) % f.bitLength() == 0 && (start - f.bitOffset()) / f.bitLength() < f.count()) {
            return new Match(c, delta, (start - f.bitOffset()) / f.bitLength(), 1, nestedBase);
        }
        return null;
    }

    /** The bit offset, within the structure, of the nested structure a claim's field belongs to. */
    private static int nestedBase(Claim c) {
        if (c.prefix.isEmpty()) {
            return 0;
        }
        IbaStruct root = c.factory.get();
        try {
            IbaStruct nested = (IbaStruct) navigate(root, c.prefix);
            return (nested.offset() - root.offset()) * 8;
        } catch (RuntimeException e) {
            bitProblems.add(c.group() + ": cannot reach the nested structure through its accessors: " + e);
            return 0;
        }
    }

    // --- reading and writing our side ----------------------------------------------------------------

    /** A structure holding {@code buffer} so that libibmad's bit b is the structure's bit b + delta. */
    private static IbaStruct place(Match m, byte[] buffer) {
        IbaStruct s = m.claim.factory.get();
        int shift = m.delta() / 8;
        if (shift <= 0 && s.size() - shift <= buffer.length) {
            return s.unpack(buffer, -shift);
        }
        int pad = Math.max(0, shift);
        byte[] padded = new byte[pad + buffer.length + s.size()];
        System.arraycopy(buffer, 0, padded, pad, buffer.length);
        s.unpack(padded, pad - shift);
        return s;
    }

    /** Our elements of a match read by {@code element}, concatenated as left-aligned bits. */
    private static byte[] join(Match m, IntFunction<byte[]> element) {
        int bl = m.field().bitLength();
        byte[] out = new byte[(m.elements() * bl + 7) / 8];
        for (int k = 0; k < m.elements(); k++) {
            byte[] e = element.apply(m.first() + k);
            if (bl <= 64) {
                LibibmadOracle.putBits(out, k * bl, bl, LibibmadOracle.getBits(e, 0, bl));
            } else {
                System.arraycopy(e, 0, out, k * bl / 8, bl / 8);
            }
        }
        return out;
    }

    /** One element value as our API returns it, as left-aligned bits of the element's width. */
    private static byte[] elementBits(Object v, Field f) {
        int bytes = (f.bitLength() + 7) / 8;
        return switch (v) {
            case Integer i -> LibibmadOracle.leftAligned(i, f.bitLength());
            case Long l -> LibibmadOracle.leftAligned(l, f.bitLength());
            case Guid g -> g.toBytes();
            case Gid g -> g.toBytes();
            case String s -> Arrays.copyOf(s.getBytes(StandardCharsets.ISO_8859_1), Math.max(bytes, s.length()));
            case byte[] b -> b;
            default -> throw new AssertionError(f.name() + " returned a " + v.getClass().getName());
        };
    }

    /** Writes element {@code index} (element {@code k} of the match) from libibmad's value. */
    private static void write(String path, IbaStruct s, Match m, int index, byte[] value, int k) {
        Field f = m.field();
        int bl = f.bitLength();
        long x = bl <= 64 ? LibibmadOracle.getBits(value, k * bl, bl) : 0;
        byte[] slice = bl % 8 == 0 ? Arrays.copyOfRange(value, k * bl / 8, (k + 1) * bl / 8) : null;
        int at = s.offset() + f.bitOffset(index) / 8;
        if (path.equals("Field.set")) {
            switch (f.kind()) {
                case UINT, RESERVED -> f.set(s, index, x);
                case GUID -> new Guid(x).writeTo(s.buffer(), at);
                case GID -> Gid.fromBytes(slice, 0).writeTo(s.buffer(), at);
                case STRING -> Bits.text(s.buffer(), at, bl / 8, f.name(), new String(slice, StandardCharsets.ISO_8859_1));
                case BYTES -> Bits.bytes(s.buffer(), at, bl / 8, f.name(), slice);
            }
            return;
        }
        Object view = navigate(s, m.claim.prefix);
        Method setter = setter(view.getClass(), leaf(f.name()), f.count() > 1);
        Class<?> type = setter.getParameterTypes()[setter.getParameterCount() - 1];
        Object arg;
        if (type == int.class) {
            arg = (int) x;
        } else if (type == long.class) {
            arg = x;
        } else if (type == Guid.class) {
            arg = new Guid(x);
        } else if (type == Gid.class) {
            arg = Gid.fromBytes(slice, 0);
        } else if (type == String.class) {
            arg = new String(slice, StandardCharsets.ISO_8859_1);
        } else if (type == byte[].class) {
            arg = slice;
        } else {
            throw new AssertionError("unexpected setter " + setter);
        }
        invoke(setter, view, f.count() > 1 ? new Object[] {index, arg} : new Object[] {arg});
    }

    /** libibmad's text value with everything after each element's first NUL cleared, as our text reads it. */
    private static byte[] nulTerminated(byte[] value, int elementBytes) {
        byte[] out = value.clone();
        for (int e = 0; e < out.length; e += elementBytes) {
            boolean ended = false;
            for (int i = e; i < Math.min(out.length, e + elementBytes); i++) {
                ended |= out[i] == 0;
                if (ended) {
                    out[i] = 0;
                }
            }
        }
        return out;
    }

    // --- reflection on the generated accessors -------------------------------------------------------

    private static final Map<String, Method> METHODS = new ConcurrentHashMap<>();

    /** Follows a flattened prefix such as {@code "portInfo."} or {@code "records[3].nodeInfo."} through the accessors. */
    static Object navigate(Object root, String prefix) {
        Object o = root;
        for (String segment : prefix.split("\\.")) {
            if (segment.isEmpty()) {
                continue;
            }
            int bracket = segment.indexOf('[');
            if (bracket < 0) {
                o = invoke(getter(o.getClass(), segment, false), o, new Object[0]);
            } else {
                int index = Integer.parseInt(segment.substring(bracket + 1, segment.length() - 1));
                o = invoke(getter(o.getClass(), segment.substring(0, bracket), true), o, new Object[] {index});
            }
        }
        return o;
    }

    private static Method getter(Class<?> c, String name, boolean indexed) {
        return METHODS.computeIfAbsent(c.getName() + " get " + name + " " + indexed, k -> {
            try {
                return indexed ? c.getMethod(name, int.class) : c.getMethod(name);
            } catch (NoSuchMethodException e) {
                throw new AssertionError(c.getSimpleName() + " has no accessor " + name + "(" + (indexed ? "int" : "")
                        + ")", e);
            }
        });
    }

    private static Method setter(Class<?> c, String name, boolean indexed) {
        return METHODS.computeIfAbsent(c.getName() + " set " + name + " " + indexed, k -> {
            for (Method m : c.getMethods()) {
                if (m.getName().equals(name) && m.getParameterCount() == (indexed ? 2 : 1)
                        && (!indexed || m.getParameterTypes()[0] == int.class)) {
                    return m;
                }
            }
            throw new AssertionError(c.getSimpleName() + " has no setter " + name);
        });
    }

    private static Object invoke(Method m, Object target, Object[] args) {
        try {
            return m.invoke(target, args);
        } catch (IllegalAccessException e) {
            throw new AssertionError(m + " is not accessible", e);
        } catch (InvocationTargetException e) {
            if (e.getCause() instanceof RuntimeException r) {
                throw r;
            }
            throw new AssertionError(m + " failed", e.getCause());
        }
    }

    private static String prefix(String name) {
        return name.substring(0, name.lastIndexOf('.') + 1);
    }

    private static String leaf(String name) {
        return name.substring(name.lastIndexOf('.') + 1);
    }

    // --- reporting ------------------------------------------------------------------------------------

    private static String[] classify(String ident) {
        String[] best = null;
        for (String[] g : GROUPS) {
            if (ident.startsWith(g[0]) && (best == null || g[0].length() > best[0].length())) {
                best = g;
            }
        }
        if (best != null) {
            return new String[] {best[1], best[2]};
        }
        String[] words = ident.split("_");
        return new String[] {words[0] + "_" + words[1], "OTHER"};
    }

    /** The identifier to show for a field: not a _FIRST_F/_LAST_F marker if an alias is not one. */
    private static LibField canonical(List<LibField> aliases) {
        for (LibField f : aliases) {
            if (!f.ident().endsWith("_FIRST_F") && !f.ident().endsWith("_LAST_F")) {
                return f;
            }
        }
        return aliases.get(0);
    }

    private static String aliases(List<LibField> aliases) {
        LibField c = canonical(aliases);
        List<String> others = aliases.stream().map(LibField::ident).filter(i -> !i.equals(c.ident())).toList();
        return others.isEmpty() ? c.ident() : c.ident() + " (= " + String.join(", ", others) + ")";
    }

    private static String idents(List<Claim> group) {
        List<String> names = group.stream().map(Claim::ident).distinct().toList();
        return names.size() <= 3 ? String.join(", ", names) : names.get(0) + ", " + names.get(1) + " and "
                + (names.size() - 2) + " more";
    }

    /** A value as libibmad takes it: a number up to 64 bits, else its bytes. */
    private static String valueText(LibField lib, byte[] value) {
        return lib.length() <= 64 ? "0x" + Long.toHexString(LibibmadOracle.getBits(value, 0, lib.length()))
                : hex(value);
    }

    private static String hex(byte[] b) {
        return HexFormat.of().formatHex(b);
    }

    private static void assertNone(String what, List<String> problems) {
        if (problems.isEmpty()) {
            return;
        }
        StringBuilder message = new StringBuilder().append(problems.size()).append(' ').append(what).append(":\n");
        problems.stream().limit(MAX_PROBLEMS_SHOWN).forEach(p -> message.append("  ").append(p).append('\n'));
        if (problems.size() > MAX_PROBLEMS_SHOWN) {
            message.append("  ... and ").append(problems.size() - MAX_PROBLEMS_SHOWN).append(" more\n");
        }
        fail(message.toString());
    }
}
