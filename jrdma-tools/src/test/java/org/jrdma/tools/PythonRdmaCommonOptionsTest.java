package org.jrdma.tools;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.jrdma.testkit.fabric.Fabric;
import org.jrdma.testkit.fabric.ToolResult;
import org.jrdma.testkit.junit.SimulatedFabric;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import picocli.CommandLine;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;

/**
 * python-rdma's common options on every ibtool command ({@link PythonRdmaOptions},
 * {@link DiscoveryOptions}, {@link ForwardedOptions}), on the fat tree with OpenSM: every command
 * that sends MADs takes {@code --smkey}, {@code --sa-path} and {@code --int-names}, every one that
 * discovers the subnet {@code --discovery}, {@code --cache} and {@code --refresh-cache} (a walk of
 * the picocli models, so that a new command cannot miss them); {@code --discovery LID} and
 * {@code SA} print what the C tool prints by directed route; {@code --cache} keeps the subnet while
 * the fabric changes, {@code --refresh-cache} reads the new one; {@code --sa-path} to a LID where no
 * SA answers fails as the C tools fail when no SA answers; a wrong {@code --smkey} makes OpenSM
 * ignore the SA MADs; {@code --int-names} prints the IBA structures by their IBA field names.
 */
@SimulatedFabric(topology = "fat-tree")
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class PythonRdmaCommonOptionsTest {
    private static final String AT = "node01 HCA-1";
    private static final Pattern SM_LID = Pattern.compile("sm lid (\\d+)");
    /** A LID no port of the fat tree has: no SA answers there. */
    private static final String NOWHERE = "0x999";
    /** A field line of {@link org.jrdma.iba.wire.IbaStruct#toDottedString()}, indent removed: name, dots, value. */
    private static final Pattern DOTTED = Pattern.compile("^([\\w.\\[\\]]+?)\\.{3,}(.*)$");

    /** The commands that send no MAD of their own (verbs, files, the shell, help, sysfs readers). */
    private static final Set<String> SEND_NO_MADS = Set.of("decode_mad", "help", "ibcacheedit", "ibdiscover", "ibstat", "ibv_devices",
            "rdma_bw", "shell");

    /** The commands that discover the whole subnet. */
    private static final Set<String> DISCOVERING = Set.of("dump_fts", "dump_lfts", "dump_mfts", "ibchecknet",
            "ibcheckstate", "ibcheckwidth", "ibcheckerrors", "ibclearcounters", "ibclearerrors", "ibdatacounters", "ibfindnodesusing",
            "ibhosts", "ibidsverify", "iblinkinfo", "ibnetdiscover", "ibnodes", "ibprintca", "ibprintrt", "ibprintswitch",
            "ibqueryerrors", "ibroute", "ibrouters", "ibswitches", "ibtracert", "set_port_state", "subnet_diff");

    @Test
    @Order(1)
    void everyCommandThatSendsMadsTakesPythonRdmasOptions() {
        CommandLine ibtool = Ibtool.commandLine();
        Set<String> sendNoMads = new TreeSet<>();
        Set<String> discovering = new TreeSet<>();
        for (CommandLine command : ibtool.getSubcommands().values().stream().distinct().toList()) {
            String name = command.getCommandName();
            CommandSpec spec = command.getCommandSpec();
            boolean sendsMads = spec.mixins().values().stream().map(CommandSpec::userObject)
                    .anyMatch(o -> o instanceof FabricOptions || o instanceof ForwardedOptions);
            if (!sendsMads) {
                sendNoMads.add(name);
                continue;
            }
            assertTakes(spec, "--smkey", 1);
            assertTakes(spec, "--sa-path", 1);
            assertTakes(spec, "--int-names", 0);
            if (command.getCommand() instanceof DiscoversSubnet) {
                discovering.add(name);
                assertTakes(spec, "--discovery", 1);
                assertTakes(spec, "--cache", 1);
                assertTakes(spec, "--refresh-cache", 0);
            }
        }
        assertEquals(new TreeSet<>(SEND_NO_MADS), sendNoMads);
        assertEquals(new TreeSet<>(DISCOVERING), discovering);
        // one real parse each: the words are options, not a script's arguments or a command's operands
        for (String line : List.of("smpquery nodeinfo 1", "saquery", "perfquery", "dump_lfts", "ibcheckstate", "iblinkinfo")) {
            String name = line.split(" ")[0];
            List<String> words = new ArrayList<>(List.of(line.split(" ")));
            words.addAll(List.of("--smkey", "1", "--sa-path", "1", "--int-names"));
            if (DISCOVERING.contains(name)) {
                words.addAll(List.of("--discovery", "DR", "--cache", "F", "--refresh-cache"));
            }
            CommandLine.ParseResult parsed = Ibtool.commandLine(name).parseArgs(words.toArray(String[]::new)).subcommand();
            assertTrue(parsed.unmatched().isEmpty(), name + ": " + parsed.unmatched());
            assertTrue(parsed.hasMatchedOption("--smkey") && parsed.hasMatchedOption("--int-names"), name);
        }
    }

    private static void assertTakes(CommandSpec spec, String name, int arity) {
        OptionSpec option = spec.findOption(name);
        assertNotNull(option, spec.name() + " lacks " + name);
        assertEquals(arity, option.arity().min(), spec.name() + " " + name);
    }

    @ParameterizedTest
    @ValueSource(strings = {"iblinkinfo", "ibqueryerrors", "ibhosts", "ibswitches", "ibnodes", "ibnetdiscover", "dump_fts", "dump_lfts"})
    @Order(2)
    void lidAndSaDiscoveryPrintWhatTheCToolPrints(String tool, Fabric fabric) {
        ToolResult c = fabric.runAt(AT, tool).orThrow();
        for (String mode : List.of("LID", "SA", "DR")) {
            IbtoolRun ours = ours(fabric, tool, "--discovery", mode);
            assertEquals(c.exitCode(), ours.exitCode(), tool + " --discovery " + mode + "\n" + ours.err());
            assertEquals(IbtoolRun.withoutDate(c.stdout()), IbtoolRun.withoutDate(ours.out()), tool + " --discovery " + mode);
        }
    }

    @Test
    @Order(2)
    void ibrouteAndIbtracertReadTheSubnetTheOptionsGive(Fabric fabric, @TempDir Path dir) {
        Matcher m = Pattern.compile(" lid (\\d+) ").matcher(fabric.runAt(AT, "ibswitches").orThrow().stdout());
        assertTrue(m.find());
        String lid = m.group(1);
        ToolResult c = fabric.runAt(AT, "ibroute", lid).orThrow();
        for (String mode : List.of("LID", "SA", "DR")) {
            IbtoolRun ours = ours(fabric, "ibroute", "--discovery", mode, lid);
            assertEquals(c.exitCode(), ours.exitCode(), ours.err());
            assertEquals(c.stdout(), ours.out(), "ibroute --discovery " + mode);
        }
        Path cache = dir.resolve("ibroute.cache");
        assertEquals(c.stdout(), ours(fabric, "ibroute", "--cache", cache.toString(), lid).out());
        assertTrue(Files.isRegularFile(cache));
        assertEquals(c.stdout(), ours(fabric, "ibroute", "--cache", cache.toString(), lid).out(), "ibroute read from its cache");
        String smLid = smLid(fabric);
        for (List<String> ends : List.of(List.of(smLid, lid), List.of(lid, smLid))) {
            ToolResult traced = fabric.runAt(AT, "ibtracert", ends.get(0), ends.get(1)).orThrow();
            for (String mode : List.of("LID", "SA", "DR")) {
                IbtoolRun ours = ours(fabric, "ibtracert", "--discovery", mode, ends.get(0), ends.get(1));
                assertEquals(traced.exitCode(), ours.exitCode(), ours.err());
                assertEquals(traced.stdout(), ours.out(), "ibtracert --discovery " + mode + " " + ends);
            }
            assertEquals(traced.stdout(), ours(fabric, "ibtracert", "--cache", cache.toString(), ends.get(0), ends.get(1)).out(),
                    "ibtracert read from ibroute's cache " + ends);
        }
    }

    @Test
    @Order(3)
    void saPathIsWhereTheSaMadsGo(Fabric fabric) {
        String smLid = smLid(fabric);
        // the SA's LID: what the C tools print asking the SA at the SM's LID
        assertEquals(fabric.runAt(AT, "ibhosts").orThrow().stdout(), ours(fabric, "ibhosts", "--sa-path", smLid).out());
        assertEquals(fabric.runAt(AT, "saquery", "NR").orThrow().stdout(), ours(fabric, "saquery", "--sa-path", smLid, "NR").out());
        // a LID where no SA answers: as the C tools when no SA answers (saquery with a key OpenSM ignores; -s/--sm_port)
        IbtoolRun saquery = ours(fabric, "saquery", "-t", "200", "--sa-path", NOWHERE, "NR");
        ToolResult cIgnored = fabric.runAt(AT, "saquery", "-t", "200", "--smkey", "0x123456789", "NR");
        assertEquals(cIgnored.exitCode(), saquery.exitCode(), saquery.err());
        assertTrue(saquery.err().contains("Query SA failed: Connection timed out"), saquery.err());
        String guid = "0x0002c90300001041";
        ToolResult cUnresolved = fabric.runAt(AT, "ibaddr", "-t", "200", "-s", NOWHERE, "-G", guid);
        IbtoolRun unresolved = ours(fabric, "ibaddr", "-t", "200", "--sa-path", NOWHERE, "-G", guid);
        assertEquals(cUnresolved.stdout(), unresolved.out(), unresolved.err());
        assertEquals(cUnresolved.exitCode(), unresolved.exitCode());
        // query's GUID target: its LID is the DLID of a PathRecord asked on --sa-path
        String guidTarget = "0002:c903:0000:1041";
        IbtoolRun queried = ours(fabric, "query", "--sa-path", smLid, "SubnGet", "SMPNodeInfo", guidTarget);
        assertEquals(0, queried.exitCode(), queried.err());
        assertTrue(queried.out().startsWith("NodeInfo\n"), queried.out());
        IbtoolRun lost = ours(fabric, "query", "-t", "200", "--retries", "0", "--sa-path", NOWHERE, "SubnGet", "SMPNodeInfo", guidTarget);
        assertNotEquals(0, lost.exitCode(), lost.out());
        assertTrue(lost.out().startsWith("E: SubnAdmGet(PathRecord, mask 0xc) to IBPath(end_port='ibsim0/1', DLID=" + Integer.decode(NOWHERE) + ","),
                lost.out());
        IbtoolRun hosts = ours(fabric, "ibhosts", "-t", "200", "--retries", "0", "--sa-path", NOWHERE);
        assertNotEquals(0, hosts.exitCode(), hosts.out());
        assertEquals("", hosts.out().replaceAll("(?m)^ibhosts: iberror: failed: .*\n", ""));
        IbtoolRun dumped = ours(fabric, "dump_lfts", "-t", "200", "--retries", "0", "--sa-path", NOWHERE);
        assertNotEquals(fabric.runAt(AT, "dump_lfts").stdout(), dumped.out());
    }

    @Test
    @Order(4)
    void aWrongSmKeyIsIgnoredByOpenSm(Fabric fabric) {
        // OpenSM (sa_key 0x1) drops an SA MAD whose SM_Key is neither 0 (untrusted) nor its key
        String hosts = fabric.runAt(AT, "ibhosts").orThrow().stdout();
        assertEquals(hosts, ours(fabric, "ibhosts", "--sa", "--smkey", "1").out());
        assertEquals(hosts, ours(fabric, "ibhosts", "--discovery", "SA", "--smkey", "0").out());
        IbtoolRun ignored = ours(fabric, "ibhosts", "--sa", "--smkey", "2", "-t", "200", "--retries", "0");
        assertNotEquals(0, ignored.exitCode(), ignored.out());
        // the PathRecord that resolves a GUID, for a command with no --sa
        String guid = "0x0002c90300001041";
        String address = fabric.runAt(AT, "ibaddr", "-G", guid).orThrow().stdout();
        IbtoolRun trusted = ours(fabric, "ibaddr", "--smkey", "0x1", "-G", guid);
        assertEquals(address, trusted.out(), trusted.err());
        IbtoolRun unresolved = ours(fabric, "ibaddr", "--smkey", "2", "-t", "200", "-G", guid);
        assertEquals(ExitCodes.FAILED, unresolved.exitCode());
        assertTrue(unresolved.out().contains("can't resolve destination port " + guid), unresolved.out());
    }

    @Test
    @Order(5)
    void intNamesPrintTheIbaFieldNames(Fabric fabric) {
        Map<String, String> c = colonFields(fabric.runAt(AT, "smpquery", "nodeinfo", "1").orThrow().stdout());
        Map<String, String> ours = dottedFields(ours(fabric, "smpquery", "--int-names", "nodeinfo", "1").out());
        assertTrue(ours.containsKey("nodeguid"), ours.toString());
        assertEquals(Long.decode(c.get("Guid")), Long.decode(ours.get("nodeguid")), ours.toString());
        assertEquals(Long.decode(c.get("NumPorts")), Long.decode(ours.get("numports")));
        Map<String, String> perf = dottedFields(ours(fabric, "perfquery", "--int-names", "1", "1").out());
        assertEquals("1", perf.get("portselect"), perf.toString());
        assertTrue(perf.containsKey("symbolerrorcounter") && perf.containsKey("portxmitdata"), perf.toString());
        String smGuid = fabric.runAt(AT, "sminfo").orThrow().stdout().replaceAll("(?s).*sm guid (0x[0-9a-f]+).*", "$1").strip();
        Map<String, String> sm = dottedFields(ours(fabric, "sminfo", "--int-names").out());
        assertTrue(sm.containsKey("guid"), sm.toString());
        assertEquals(Long.decode(smGuid), Long.decode(sm.get("guid")), sm.toString());
        String records = ours(fabric, "saquery", "--int-names", "NR").out();
        String structure = records.lines().findFirst().orElseThrow();
        long cRecords = fabric.runAt(AT, "saquery", "NR").orThrow().stdout().lines().filter(l -> l.startsWith("NodeRecord dump:")).count();
        assertEquals(cRecords, records.lines().filter(structure::equals).count(), records);
        assertEquals(cRecords, dottedFieldLines(records).filter(l -> l.startsWith("lid")).count(), records);
    }

    @Test
    @Order(6)
    void cacheKeepsTheSubnetUntilRefreshed(Fabric fabric, @TempDir Path dir) {
        Map<String, Path> caches = new LinkedHashMap<>();
        Map<String, String> before = new LinkedHashMap<>();
        for (String tool : List.of("iblinkinfo", "ibhosts", "ibprintca")) {
            Path cache = dir.resolve(tool + ".cache");
            caches.put(tool, cache);
            IbtoolRun first = cached(fabric, tool, cache);
            before.put(tool, first.out());
            assertTrue(Files.isRegularFile(cache), tool + " wrote no cache\n" + first.err());
        }
        assertEquals(fabric.runAt(AT, "iblinkinfo").orThrow().stdout(), before.get("iblinkinfo"));
        assertEquals(fabric.runAt(AT, "ibhosts").orThrow().stdout(), before.get("ibhosts"));
        fabric.unlink("node03 HCA-1");
        try {
            for (String tool : caches.keySet()) {
                Path cache = caches.get(tool);
                assertEquals(before.get(tool), cached(fabric, tool, cache).out(), tool + " reads its cache");
                List<String> refreshed = new ArrayList<>();
                refreshed.add(cached(fabric, tool, cache, "--refresh-cache").out());
                refreshed.add(cached(fabric, tool, cache).out());
                assertNotEquals(before.get(tool), refreshed.getFirst(), tool + " --refresh-cache");
                assertEquals(refreshed.getFirst(), refreshed.getLast(), tool + " rewrote its cache");
                if (!tool.equals("ibprintca")) {
                    assertEquals(fabric.runAt(AT, tool).orThrow().stdout(), refreshed.getFirst(), tool + " now");
                }
            }
        } finally {
            fabric.relink("node03 HCA-1");
        }
    }

    /**
     * {@code tool --cache FILE args...}; the script ibprintca with {@code -R -l} (every CA), so that
     * it runs ibnetdiscover (which gets the options) rather than reading the topology file it keeps.
     */
    private static IbtoolRun cached(Fabric fabric, String tool, Path cache, String... args) {
        List<String> line = new ArrayList<>(tool.equals("ibprintca") ? List.of("-R", "-l") : List.of());
        line.addAll(List.of("--cache", cache.toString()));
        line.addAll(List.of(args));
        return ours(fabric, tool, line.toArray(String[]::new));
    }

    /** {@code ibtool tool --sim ... --sim-node AT args...}. */
    private static IbtoolRun ours(Fabric fabric, String tool, String... args) {
        List<String> line = new ArrayList<>(List.of(tool, "--sim", fabric.socketName(), "--sim-node", AT));
        line.addAll(List.of(args));
        return IbtoolRun.of(line.toArray(String[]::new));
    }

    private static String smLid(Fabric fabric) {
        Matcher m = SM_LID.matcher(fabric.runAt(AT, "sminfo").orThrow().stdout());
        assertTrue(m.find());
        return m.group(1);
    }

    /** libibmad's {@code Name:.....value} lines. */
    private static Map<String, String> colonFields(String text) {
        Map<String, String> fields = new LinkedHashMap<>();
        for (String line : text.lines().toList()) {
            Matcher m = Pattern.compile("^(\\w+):\\.+(.*)$").matcher(line);
            if (m.matches()) {
                fields.put(m.group(1), m.group(2).strip());
            }
        }
        return fields;
    }

    /**
     * {@link org.jrdma.iba.wire.IbaStruct#toDottedString()}'s {@code   name.....value} lines, the
     * names in lower case.
     */
    private static Map<String, String> dottedFields(String text) {
        Map<String, String> fields = new LinkedHashMap<>();
        dottedFieldLines(text).forEach(line -> {
            Matcher m = DOTTED.matcher(line);
            if (m.matches()) {
                fields.put(m.group(1), m.group(2).strip());
            }
        });
        return fields;
    }

    /** The {@code name.....value} lines of {@code text}, their names in lower case and the indent removed. */
    private static java.util.stream.Stream<String> dottedFieldLines(String text) {
        return text.lines().filter(line -> line.startsWith("  ") && DOTTED.matcher(line.strip()).matches())
                .map(line -> line.strip().toLowerCase(java.util.Locale.ROOT));
    }
}
