package org.jrdma.tools;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.jrdma.testkit.fabric.Fabric;
import org.jrdma.testkit.junit.SimulatedFabric;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The perl scripts that read the subnet through infiniband-diags' other tools, {@code ibidsverify},
 * {@code ibfindnodesusing} and {@code check_lft_balance}, as {@code ibtool} subcommands against the
 * scripts in /usr/sbin on the same fat tree (OpenSM's routes; spine1 0x...0a01, leaf1 0x...0a11 with
 * node01 and node02 on ports 1 and 2, the spines on ports 5 and 6): identical standard output and
 * exit status, standard error beginning with the script's. Both share the scripts' topology cache
 * in /var/cache/infiniband-diags, so each run that should discover starts without it.
 */
@SimulatedFabric(topology = "fat-tree")
class TopologyScriptsTest {
    private static final Path CACHE = Path.of("/var/cache/infiniband-diags/ibnetdiscover--.topology");

    /** Runs the script both ways, each without a topology cache, so that each writes its own. */
    private static AgainstC fresh(Fabric fabric, String tool, String... args) {
        deleteCache();
        List<String> ours = new ArrayList<>(List.of(tool, "--sim", fabric.socketName()));
        ours.addAll(List.of(args));
        IbtoolRun run = IbtoolRun.of(ours.toArray(String[]::new));
        deleteCache();
        List<String> c = new ArrayList<>(List.of(tool));
        c.addAll(List.of(args));
        return new AgainstC(run, fabric.runAt(null, Duration.ofSeconds(60), c));
    }

    private static void deleteCache() {
        try {
            Files.deleteIfExists(CACHE);
        } catch (IOException e) {
            throw new AssertionError(e);
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"", "-R", "-h", "-x", "-Rx", "-R -C ibsim0", "-C", "extra operands"})
    void ibidsverifyPrintsWhatTheScriptPrints(String args, Fabric fabric) {
        fresh(fabric, "ibidsverify", args.isEmpty() ? new String[0] : args.split(" ")).assertSame();
    }

    @Test
    void ibidsverifyReusesTheCacheTheScriptWrote(Fabric fabric) {
        deleteCache();
        assertEquals(0, fabric.run("ibidsverify").exitCode());
        AgainstC run = AgainstC.run(fabric, "ibidsverify").assertSame();
        assertEquals("", run.ours().out());
        assertTrue(Files.isRegularFile(CACHE));
    }

    @Test
    void ibidsverifyReportsAPortGuidThatIsAnotherNodesGuid(Fabric fabric) {
        // node02's node GUID becomes node01's port GUID (0x...1011): its port GUID 0x...1012 follows.
        fabric.guid("node02 HCA-1", 0x0002c90300001011L);
        try {
            AgainstC run = AgainstC.run(fabric, "ibidsverify", "-R").assertSame();
            assertEquals(1, run.ours().exitCode());
            assertTrue(run.ours().out().contains("is an invalid duplicate of a NodeGUID"), run.ours().out());
        } finally {
            fabric.guid("node02 HCA-1", 0x0002c90300001020L);
            deleteCache();
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"0x0002c90300000a11 5", "0x0002c90300000a11 1", "0x2c90300000a01 3", "0x0002C90300000A12 6",
        "-R 0x0002c90300000a13 6", "0x0002c90300000a11 9", "0x0002c90300000a11 05", "0x0002c90300000a14 x",
        "0x0002c90300000a11", "", "-h", "-x 1 2", "0x0002c90300000a99 1", "leaf1 5", "-C ibsim0 0x0002c90300000a02 2"})
    void ibfindnodesusingPrintsWhatTheScriptPrints(String args, Fabric fabric) {
        fresh(fabric, "ibfindnodesusing", args.isEmpty() ? new String[0] : args.split(" ")).assertSame();
    }

    @Test
    void ibfindnodesusingListsTheHostsRoutedEachWay(Fabric fabric) {
        AgainstC run = AgainstC.run(fabric, "ibfindnodesusing", "-R", "0x0002c90300000a11", "1").assertSame();
        assertTrue(run.ours().out().startsWith("0x0002c90300000a11 1 (\"leaf1\" base)  ==>>  0x0002c90300001010 1 (node01 HCA-1)\n"),
                run.ours().out());
    }

    @Test
    void checkLftBalanceReadsTheDumpAsTheScriptDoes(Fabric fabric, @TempDir Path dir) throws IOException {
        Path lfts = dir.resolve("lfts");
        Path cache = dir.resolve("cache");
        Files.writeString(lfts, fabric.run("dump_lfts").orThrow().stdout());
        fabric.run("ibnetdiscover", "--cache", cache.toString()).orThrow();
        // spine1's routes over port 2 moved to port 1: port 1 carries twice its share, port 2 none.
        Path unbalanced = dir.resolve("unbalanced");
        Files.writeString(unbalanced, Files.readString(lfts).replaceAll("(?m)^(0x[0-9a-f]{4}) 002 (: .*)$", "$1 001 $2"));
        String l = lfts.toString();
        String i = cache.toString();
        String u = unbalanced.toString();
        for (String args : List.of("-l " + l + " -i " + i, "-v -l " + l + " -i " + i, "-e -v -l " + l + " -i " + i,
                "-l " + u + " -i " + i, "-ve -l " + u + " -i " + i, "-l " + l, "-i " + i, "-h", "-x -l " + l + " -i " + i,
                "-l " + dir.resolve("missing") + " -i " + i)) {
            AgainstC run = AgainstC.run(fabric, "check_lft_balance", args.split(" "));
            String context = args + "\n--- ibtool stderr ---\n" + run.ours().err() + "\n--- C stderr ---\n" + run.c().stderr();
            assertEquals(run.cOut(), run.ours().out(), context);
            assertEquals(run.expectedStatus(), run.ours().exitCode(), context);
            assertEquals(ownLines(run.c().stderr()), ownLines(run.ours().err()), context);
            if (args.equals("-l " + u + " -i " + i)) {
                assertTrue(run.ours().out().startsWith("Unbalanced Switch Port Usage: "), run.ours().out());
            }
        }
    }

    /**
     * check_lft_balance's own lines on standard error: without the warnings of the iblinkinfo it
     * runs (the C one reads the cache, resolving the switch through the SA, which under load times
     * out now and then before it falls back to a scan; ibtool's reads the fabric), and without
     * iblinkinfo's usage text after its complaint about a missing switch GUID (ibtool's lacks the
     * options its iblinkinfo does not have).
     */
    private static String ownLines(String stderr) {
        String own = stderr.replaceAll("(?m)^ibwarn: .*\n", "").replaceAll("(?m)^\\n", "");
        int usage = own.indexOf("Usage: iblinkinfo");
        return usage < 0 ? own : own.substring(0, usage);
    }

    /**
     * dump_lfts and dump_mfts run ibtool's dump_fts (org.jrdma.tools.fts) as the scripts run the C
     * one, then say it replaced them; status 0 whatever dump_fts returned.
     */
    @ParameterizedTest
    @ValueSource(strings = {"dump_lfts", "dump_lfts -a", "dump_lfts -n", "dump_lfts 2 5", "dump_lfts -x", "dump_lfts -h",
        "dump_mfts", "dump_mfts -n", "dump_mfts 0xc000 0xc001"})
    void dumpLftsAndDumpMftsPrintWhatTheScriptsPrint(String line, Fabric fabric) {
        String[] words = line.split(" ");
        AgainstC run = AgainstC.run(fabric, words[0], List.of(words).subList(1, words.length).toArray(String[]::new));
        assertEquals(run.cOut(), run.ours().out(), line);
        assertEquals(0, run.ours().exitCode(), line);
        assertEquals(run.expectedStatus(), run.ours().exitCode(), line);
        // The scripts run /usr/sbin/dump_fts, which names itself so in its complaints.
        String cFirstLine = AgainstC.maskPids(run.c().stderr()).replace("/usr/sbin/dump_fts", "dump_fts").lines().findFirst().orElse("");
        assertTrue(AgainstC.maskPids(run.ours().err()).startsWith(cFirstLine), run.ours().err() + "\n--- C ---\n" + run.c().stderr());
    }

    /**
     * ibclearerrors and ibclearcounters are not installed: counters set through ibsim's console are
     * zero afterwards as the C tools read them, each node counted in the summary, every perfquery
     * having succeeded; a topology file serves as ibnetdiscover's output; bad arguments print the
     * scripts' usage line, status 255.
     */
    @Test
    void ibclearerrorsAndIbclearcountersResetWhatTheCToolsRead(Fabric fabric, @TempDir Path dir) throws IOException {
        String sim = fabric.socketName();
        fabric.performanceSet("node01 HCA-1", 1, "PortCounters", "SymbolErrorCounter", 7);
        fabric.performanceSet("leaf2", 3, "PortCounters", "LinkDownedCounter", 3);
        assertTrue(fabric.run("ibqueryerrors").stdout().contains("SymbolErrorCounter == 7"));
        IbtoolRun errors = IbtoolRun.of("ibclearerrors", "--sim", sim);
        assertEquals("\n*** WARNING ***: this command is deprecated; Please use \"ibqueryerrors -k\"\n\n"
                + "## Summary: 14 nodes cleared 0 errors\n", errors.out());
        assertEquals(0, errors.exitCode());
        String after = fabric.run("ibqueryerrors").stdout();
        assertTrue(!after.contains("SymbolErrorCounter") && !after.contains("LinkDownedCounter"), after);

        fabric.performanceSet("node01 HCA-1", 1, "PortCounters", "PortXmitData", 1000);
        String before = fabric.run("perfquery", "-G", "0x0002c90300001011", "1").stdout();
        assertTrue(xmitData(before) >= 1000, before);
        Path topology = dir.resolve("topology");
        Files.writeString(topology, fabric.run("ibnetdiscover").orThrow().stdout());
        IbtoolRun counters = IbtoolRun.of("ibclearcounters", "--sim", sim, topology.toString());
        assertEquals("\n*** WARNING ***: this command is deprecated; Please use \"ibqueryerrors -K\"\n\n"
                + "## Summary: 14 nodes cleared 0 errors\n", counters.out());
        String cleared = fabric.run("perfquery", "-G", "0x0002c90300001011", "1").stdout();
        assertTrue(xmitData(cleared) < 1000, cleared); // ibsim counts the MADs since the reset

        for (String bad : List.of("-h", "-x", "-C", "-t -1", "a b")) {
            List<String> line = new ArrayList<>(List.of("ibclearcounters", "--sim", sim));
            line.addAll(List.of(bad.split(" ")));
            IbtoolRun usage = IbtoolRun.of(line.toArray(String[]::new));
            assertEquals("Usage: ibclearcounters [-h] [<topology-file> | -C ca_name -P ca_port -t(imeout) timeout_ms]\n", usage.out(), bad);
            assertEquals(255, usage.exitCode());
        }
        IbtoolRun usage = IbtoolRun.of("ibclearerrors", "--sim", sim, "-N", "-h");
        assertEquals("Usage: ibclearerrors [-h] [-N | -nocolor] [<topology-file> | -C ca_name -P ca_port -t(imeout) timeout_ms]\n", usage.out());
        IbtoolRun missing = IbtoolRun.of("ibclearcounters", "--sim", sim, dir.resolve("none").toString());
        assertEquals(1, missing.exitCode());
        assertEquals("cat: " + dir.resolve("none") + ": No such file or directory\n", missing.err());
        assertTrue(missing.out().endsWith("## Summary: 0 nodes cleared 0 errors\n"), missing.out());
    }

    /** PortXmitData as perfquery prints it. */
    private static long xmitData(String perfquery) {
        java.util.regex.Matcher m = java.util.regex.Pattern.compile("(?m)^PortXmitData:\\.+(\\d+)$").matcher(perfquery);
        assertTrue(m.find(), perfquery);
        return Long.parseLong(m.group(1));
    }

    /** The block of the topology {@code ibnetdiscover} prints that starts with a line containing {@code header}. */
    private static String block(String topology, String header) {
        int start = topology.indexOf(header);
        start = topology.lastIndexOf('\n', start) + 1;
        int end = topology.indexOf("\n\n", start);
        return topology.substring(start, end + 1);
    }

    /**
     * ibprintca, ibprintswitch and ibprintrt are not installed (rdma-core no longer ships them): each
     * prints the lines C ibnetdiscover prints for the node named, lists the nodes as the C ibhosts,
     * ibswitches and ibrouters list them with {@code -l} (status 1), and fails as the scripts' {@code die}.
     */
    @Test
    void ibprintCommandsPrintTheNodesLinesOfTheTopology(Fabric fabric) {
        String topology = fabric.run("ibnetdiscover").orThrow().stdout();
        String sim = fabric.socketName();
        String caWarning = "*** WARNING ***: this command is deprecated; Please use \"ibhosts\"\n\n";
        for (String[] args : List.of(new String[] {"-R", "node03 HCA-1"}, new String[] {"node03"}, new String[] {"-G", "0x0002C90300001030"},
                new String[] {"-G", "2c90300001030"})) {
            List<String> line = new ArrayList<>(List.of("ibprintca", "--sim", sim));
            line.addAll(List.of(args));
            IbtoolRun run = IbtoolRun.of(line.toArray(String[]::new));
            assertEquals(block(topology, "Ca\t1 \"H-0002c90300001030\""), run.out(), String.join(" ", args));
            assertEquals(caWarning, run.err());
            assertEquals(0, run.exitCode());
        }
        IbtoolRun list = IbtoolRun.of("ibprintca", "--sim", sim, "-l");
        assertEquals(fabric.run("ibhosts").orThrow().stdout(), list.out());
        assertEquals(1, list.exitCode());
        IbtoolRun missing = IbtoolRun.of("ibprintca", "--sim", sim, "node99");
        assertEquals(caWarning + "\"node99\" not found\n   Try running with the \"-R\" option.\n"
                + "   If still not found the node is probably down.\n", missing.err());
        assertEquals(255, missing.exitCode());
        IbtoolRun usage = IbtoolRun.of("ibprintca", "--sim", sim, "-x");
        assertEquals(caWarning + "Unknown option: x\n", usage.err());
        assertTrue(usage.out().startsWith("Usage: ibprintca [-R -l] [-G <ca_guid> | <node_name>]\n"), usage.out());
        assertEquals(2, usage.exitCode());

        for (String sw : List.of("spine1", "spine2", "leaf3")) {
            IbtoolRun run = IbtoolRun.of("ibprintswitch.pl", "--sim", sim, sw);
            assertEquals(block(topology, "# \"" + sw + "\" base port 0"), run.out(), sw);
            assertEquals(0, run.exitCode());
        }
        IbtoolRun switches = IbtoolRun.of("ibprintswitch", "--sim", sim, "-l");
        assertEquals(fabric.run("ibswitches").orThrow().stdout(), switches.out());
        IbtoolRun noSwitch = IbtoolRun.of("ibprintswitch", "--sim", sim, "-G", "0xa99");
        assertTrue(noSwitch.err().endsWith("Switch \"0x0000000000000a99\" not found\n   Try running with the \"-R\" option.\n"), noSwitch.err());
        assertEquals(255, noSwitch.exitCode());

        IbtoolRun routers = IbtoolRun.of("ibprintrt.pl", "--sim", sim, "-l");
        assertEquals(fabric.run("ibrouters").orThrow().stdout(), routers.out());
        assertEquals(1, routers.exitCode());
        IbtoolRun noRouter = IbtoolRun.of("ibprintrt", "--sim", sim, "rt1");
        assertTrue(noRouter.err().startsWith("*** WARNING ***: this command is deprecated; Please use \"ibrouters\"\n\n\"rt1\" not found\n"),
                noRouter.err());
        assertEquals(255, noRouter.exitCode());
    }

    @Test
    void legacyNamesRunTheSameCommand(Fabric fabric) {
        IbtoolRun pl = IbtoolRun.of("ibidsverify.pl", "--sim", fabric.socketName(), "-h");
        assertEquals(2, pl.exitCode());
        assertTrue(pl.out().startsWith("Usage: ibidsverify.pl [-Rh]\n"), pl.out());
        IbtoolRun find = IbtoolRun.of("ibfindnodesusing.pl", "--sim", fabric.socketName(), "-h");
        assertTrue(find.out().startsWith("Usage: ibfindnodesusing.pl [-R -C <ca_name> -P <ca_port>]"), find.out());
        IbtoolRun lft = IbtoolRun.of("check_lft_balance.pl", "--sim", fabric.socketName());
        assertEquals("Must specify dump lfts file\n", lft.err());
        assertTrue(lft.out().startsWith("Usage: check_lft_balance.pl -l lft-output"), lft.out());
    }
}
