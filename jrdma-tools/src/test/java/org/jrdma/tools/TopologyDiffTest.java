package org.jrdma.tools;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.jrdma.subnet.SubnetCache;
import org.jrdma.testkit.fabric.Fabric;
import org.jrdma.testkit.junit.SimulatedFabric;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code ibdiscover} (infiniband-diags' ibdiscover.pl) and {@code subnet_diff} (python-rdma's) on
 * the fat tree, their inputs written by the C ibnetdiscover on the same fabric and the fabric
 * changed through ibsim's console (a node unlinked, a LID moved, a node GUID changed). Neither
 * original runs in CI: Debian installs neither ibdiscover.pl nor python-rdma, so the expected lines
 * are those the script's and the command's code print for these inputs (each read off the
 * source; ibdiscover's also checked by running rdma-core's ibdiscover.pl with perl on the same
 * ibnetdiscover output, README "Topology differences"). On the fat tree's 16 links ibnetdiscover
 * prints 32 link lines: 24 from the six switches and 8 from the HCAs, which the script files under
 * each HCA's system image GUID (its {@code caguid=} line matches none of its patterns).
 */
@SimulatedFabric(topology = "fat-tree")
class TopologyDiffTest {
    private static final String WARNING = "*** WARNING ***; this command is deprecated;\n"
            + "                 see ibnetdiscover cache features\n"
            + "                 and/or iblinkinfo \"check\" features\n\n";
    private static final Pattern CHANGE = Pattern.compile("(?m)^Link change:  Local/Remote Port (..)/(..) Local/Remote GUID: (\\S+)/(\\S+)$");

    /** C ibnetdiscover's topology of the fabric as it is now, in {@code file}. */
    private static Path topology(Fabric fabric, Path file) throws IOException {
        Files.writeString(file, fabric.run("ibnetdiscover").orThrow().stdout());
        return file;
    }

    private static IbtoolRun ibdiscover(Path dir, Path input, String... more) {
        List<String> args = new ArrayList<>(List.of("ibdiscover", "--dir", dir.toString(), "--input", input.toString()));
        args.addAll(List.of(more));
        return IbtoolRun.of(args.toArray(String[]::new));
    }

    /** The reported changes, each {@code local/remote port local/remote GUID}. */
    private static Set<String> changes(String out) {
        Set<String> changes = new TreeSet<>();
        Matcher m = CHANGE.matcher(out);
        while (m.find()) {
            changes.add(m.group(1).strip() + "/" + m.group(2).strip() + " " + m.group(3) + "/" + m.group(4));
        }
        return changes;
    }

    @Test
    void ibdiscoverAnnotatesTheTopologyAndReportsEveryLinkWithoutSavedLinks(Fabric fabric, @TempDir Path dir) throws IOException {
        Files.writeString(dir.resolve("ibdiscover.map"), "2c90300000a11|8|\"leaf one\"|# leaf1\n2c90300001010|1|\"rack 1\"\n");
        IbtoolRun run = ibdiscover(dir, topology(fabric, dir.resolve("topo")));
        assertEquals(0, run.exitCode(), run.err());
        assertEquals(WARNING + WARNING, run.err());
        String out = run.out();
        // leaf1's two GUID lines (sysimgguid=, switchguid=) are both switch headers; the map's location follows
        assertTrue(out.contains("\nSwitch GUID: 2c90300000a11  \"leaf one\"\n\nSwitch GUID: 2c90300000a11  \"leaf one\"\n"
                + "Local:  1  Remote:  1     Host  GUID: 2c90300001010  Location: \"rack 1\"\n\n"
                + "Local:  2  Remote:  1     Host  GUID: 2c90300001020  Location: 2c90300001020\n"
                + "Local:  5  Remote:  1   Switch  GUID: 2c90300000a01  Location: 2c90300000a01\n"), out);
        assertTrue(out.contains("Local:  1  Remote:  5   Switch  GUID: 2c90300000a11  Location: \"leaf one\"\n"), out);
        assertTrue(out.contains("\nSwitch GUID: 2c90300001010  \"rack 1\"\n\nLocal:  1  Remote:  1   Switch  GUID: 2c90300000a11  "
                + "Location: \"leaf one\"\n"), out);
        assertTrue(out.contains("\nDelta change in topo (change between successive runs)\n\nLink change:  "), out);
        assertTrue(out.contains("\n\nLink change:  Local/Remote Port  2/ 6 Local/Remote GUID: 2c90300000a02/2c90300000a12\n"
                + "\tLocations: Local/Remote\n\t\t\n\t\t\n\n"), out);
        assertTrue(out.contains("Link change:  Local/Remote Port  1/ 1 Local/Remote GUID: 2c90300000a11/2c90300001010\n"
                + "\tLocations: Local/Remote\n\t\t\"leaf one\"\n\t\t\"rack 1\"\n\n\n"), out);
        assertEquals(32, changes(out).size(), out);
        List<String> saved = Files.readAllLines(dir.resolve("ibdiscover.topo.new"));
        assertEquals(32, saved.size());
        assertTrue(saved.contains("1|2c90300000a11|1|2c90300001010") && saved.contains("1|2c90300001010|1|2c90300000a11")
                && saved.contains("5|2c90300000a11|1|2c90300000a01"), saved.toString());
    }

    @Test
    void ibdiscoverReportsTheLinksOfAnUnlinkedNodeAndOfAChangedGuid(Fabric fabric, @TempDir Path dir) throws IOException {
        Path before = topology(fabric, dir.resolve("before"));
        assertEquals(0, ibdiscover(dir, before).exitCode());
        Files.move(dir.resolve("ibdiscover.topo.new"), dir.resolve("ibdiscover.topo"));
        assertEquals(Set.of(), changes(ibdiscover(dir, before).out()), "the same fabric again");

        fabric.unlink("node03 HCA-1");
        Path unlinked;
        try {
            unlinked = topology(fabric, dir.resolve("unlinked"));
        } finally {
            fabric.relink("node03 HCA-1");
        }
        IbtoolRun run = ibdiscover(dir, unlinked);
        assertEquals(Set.of("1/1 2c90300000a12/2c90300001030", "1/1 2c90300001030/2c90300000a12"), changes(run.out()), run.out());
        assertEquals(30, Files.readAllLines(dir.resolve("ibdiscover.topo.new")).size());

        fabric.guid("node02 HCA-1", 0x0002c90300001099L);
        Path renamed;
        try {
            renamed = topology(fabric, dir.resolve("renamed"));
        } finally {
            fabric.guid("node02 HCA-1", 0x0002c90300001020L);
        }
        Set<String> changes = changes(ibdiscover(dir, renamed).out());
        assertTrue(changes.contains("2/1 2c90300000a11/2c90300001020") && changes.contains("2/1 2c90300000a11/2c90300001099"), changes.toString());
        assertTrue(changes.stream().allMatch(c -> c.contains("2c90300001020") || c.contains("2c90300001099")), changes.toString());
    }

    @Test
    void ibdiscoverDiscoversAsTheCToolPipedIntoIt(Fabric fabric, @TempDir Path dir) throws IOException {
        Path piped = Files.createDirectory(dir.resolve("piped"));
        Path own = Files.createDirectory(dir.resolve("own"));
        IbtoolRun fromC = ibdiscover(piped, topology(fabric, dir.resolve("topo")));
        IbtoolRun discovered = IbtoolRun.of("ibdiscover", "--dir", own.toString(), "--discover", "--sim", fabric.socketName());
        assertEquals(0, discovered.exitCode(), discovered.err());
        assertEquals(fromC.out(), discovered.out());
        assertEquals(Files.readString(piped.resolve("ibdiscover.topo.new")), Files.readString(own.resolve("ibdiscover.topo.new")));
        IbtoolRun failed = IbtoolRun.of("ibdiscover", "--dir", own.toString(), "--discover", "--sim", "no-such-fabric");
        assertEquals(255, failed.exitCode(), failed.err());
        assertTrue(failed.err().startsWith(WARNING), failed.err());
    }

    /**
     * The script's quirks, kept: a map line of three fields keeps its newline, saved duplicates
     * count once, a link twice in the input is no change, a GUID not printed with {@code 000} is
     * no link, a link without a remote port is port 0 in the new file. The expected text is what
     * rdma-core's ibdiscover.pl printed for these files (its changes in the first of the orders a
     * Perl hash gave them).
     */
    @Test
    void ibdiscoverReadsItsFilesAsPerlSplitsThem(@TempDir Path dir) throws IOException {
        Files.writeString(dir.resolve("ibdiscover.map"), "a11|8|\"Leaf\"\n");
        Files.writeString(dir.resolve("ibdiscover.topo"), "3|a11|1|b22\n3|a11|1|b22\n10|a11|2|c33\n");
        Path input = Files.writeString(dir.resolve("in"), "switchguid=0xa11(a11)\n[10]\t\"S-000c33\"[2]\n[4]\t\"H-000d44\"[1]\n"
                + "[4]\t\"H-000d44\"[1]\n[5]\t\"S-0010e55\"[1]\n[6]\t\"S-000f66\"\n");
        IbtoolRun run = ibdiscover(dir, input);
        assertEquals("\nSwitch GUID: a11  \"Leaf\"\n\n"
                + "Local: 10  Remote:  2   Switch  GUID: c33  Location: c33\n"
                + "Local:  4  Remote:  1     Host  GUID: d44  Location: d44\n"
                + "Local:  4  Remote:  1     Host  GUID: d44  Location: d44\n"
                + "Local:  6  Remote:      Switch  GUID: f66  Location: f66\n"
                + "\nDelta change in topo (change between successive runs)\n\n"
                + "Link change:  Local/Remote Port  3/ 1 Local/Remote GUID: a11/b22\n\tLocations: Local/Remote\n\t\t\"Leaf\"\n\n\t\t\n\n"
                + "Link change:  Local/Remote Port  6/ 0 Local/Remote GUID: a11/f66\n\tLocations: Local/Remote\n\t\t\"Leaf\"\n\n\t\t\n\n",
                run.out());
        assertEquals("10|a11|2|c33\n4|a11|1|d44\n4|a11|1|d44\n6|a11|0|f66\n", Files.readString(dir.resolve("ibdiscover.topo.new")));
        JsonNode doc = new ObjectMapper().readTree(ibdiscover(dir, input, "--json").out());
        assertTrue(doc.get("savedTopology").asBoolean());
        assertEquals(4, doc.get("links").size());
        assertEquals("\"Leaf\"\n", doc.get("nodes").get(0).get("location").asText());
        JsonNode gone = doc.get("changes").get(0);
        assertEquals("b22", gone.get("remoteGuid").asText());
        assertTrue(gone.get("saved").asBoolean());
        assertEquals(0, gone.get("current").asInt());
        assertEquals(1, doc.get("changes").get(1).get("current").asInt());
    }

    private static String sameSubnet(int endPorts, int links) {
        return "Current subnet has " + endPorts + " end ports, reference subnet has " + endPorts + " end ports\n"
                + " All end ports in the current subnet are in the reference subnet.\n"
                + " All end ports in the reference subnet are in the current subnet.\n"
                + "Current subnet has " + endPorts + " nodes, reference subnet has " + endPorts + " nodes\n"
                + " All nodes in the current subnet are in the reference subnet.\n"
                + " All nodes in the reference subnet are in the current subnet.\n"
                + "Current subnet has " + links + " links, reference subnet has " + links + " links\n"
                + " All links in the current subnet are in the reference subnet.\n"
                + " All links in the reference subnet are in the current subnet.\n"
                + " All links in the current subnet have the same rate in the reference subnet.\n"
                + "Current subnet has " + endPorts + " LIDs, reference subnet has " + endPorts + " LIDs\n"
                + " All LIDs in the current subnet are the same as the reference subnet.\n";
    }

    @Test
    void subnetDiffFindsNothingBetweenTheCacheOfEitherToolAndTheFabric(Fabric fabric, @TempDir Path dir) throws IOException {
        Path c = dir.resolve("c.cache");
        fabric.run("ibnetdiscover", "--cache", c.toString()).orThrow();
        Path ours = dir.resolve("ours.cache");
        assertEquals(0, IbtoolRun.of("ibnetdiscover", "--sim", fabric.socketName(), "--cache", ours.toString()).exitCode());
        for (Path reference : List.of(c, ours)) {
            IbtoolRun run = IbtoolRun.of("subnet_diff", "--sim", fabric.socketName(), reference.toString());
            assertEquals(0, run.exitCode(), run.err());
            assertEquals(sameSubnet(14, 16), run.out());
        }
        assertEquals(sameSubnet(14, 16), IbtoolRun.of("subnet_diff", c.toString(), ours.toString()).out());
        // --cache: discovered and saved once, then read (it is what was discovered)
        Path saved = dir.resolve("saved.cache");
        assertEquals(sameSubnet(14, 16), IbtoolRun.of("subnet_diff", "--sim", fabric.socketName(), "--cache", saved.toString(), c.toString()).out());
        assertTrue(Files.isRegularFile(saved));
        assertEquals(sameSubnet(14, 16), IbtoolRun.of("subnet_diff", "--sim", "no-such-fabric", "--cache", saved.toString(), c.toString()).out());
        assertEquals(sameSubnet(14, 16), IbtoolRun.of("subnet_diff", "--sim", fabric.socketName(), "--sa", "--smkey", "0", c.toString()).out());
        int smLid = IbtoolRun.of("sminfo", "--json", "--sim", fabric.socketName()).out().lines()
                .filter(line -> line.strip().startsWith("\"lid\"")).map(line -> line.replaceAll("\\D", "")).map(Integer::valueOf).findFirst().orElseThrow();
        assertEquals(sameSubnet(14, 16), IbtoolRun.of("subnet_diff", "--sim", fabric.socketName(), "--sa-path", Integer.toString(smLid), c.toString()).out());
        assertEquals(ExitCodes.USAGE, IbtoolRun.of("subnet_diff", "--sim", fabric.socketName(), "--sa-path", "no(path", c.toString()).exitCode());
        // python-rdma's templates in the file names: ${PORT} and $P the local port's number, $$ a dollar, $Cx no name it knows
        Files.copy(c, dir.resolve("ref-1-$-$Cx.cache"));
        IbtoolRun templated = IbtoolRun.of("subnet_diff", "--sim", fabric.socketName(), "--sim-node", "node01 HCA-1", "--cache",
                dir.resolve("cur-$P.cache").toString(), dir.resolve("ref-${PORT}-$$-$Cx.cache").toString());
        assertEquals(sameSubnet(14, 16), templated.out());
        assertTrue(Files.isRegularFile(dir.resolve("cur-1.cache")));
    }

    /**
     * python-rdma's {@code --discovery LID} (a directed-route hop to each node, LID-routed SMPs to
     * read it) finds what the directed-route walk finds on the fat tree OpenSM brought up: the
     * caches the two write are the same subnet, end ports, links, rates and LIDs.
     */
    @Test
    void subnetDiffDiscoversByLidWhatTheDirectedRouteWalkFinds(Fabric fabric, @TempDir Path dir) {
        Path ours = dir.resolve("ours.cache");
        assertEquals(0, IbtoolRun.of("ibnetdiscover", "--sim", fabric.socketName(), "--cache", ours.toString()).exitCode());
        Path dr = dir.resolve("dr.cache");
        Path lid = dir.resolve("lid.cache");
        IbtoolRun byDr = IbtoolRun.of("subnet_diff", "--sim", fabric.socketName(), "--discovery", "DR", "--cache", dr.toString(), ours.toString());
        assertEquals(sameSubnet(14, 16), byDr.out(), byDr.err());
        IbtoolRun byLid = IbtoolRun.of("subnet_diff", "--sim", fabric.socketName(), "--discovery", "LID", "--cache", lid.toString(), ours.toString());
        assertEquals(0, byLid.exitCode(), byLid.out() + byLid.err());
        assertEquals(sameSubnet(14, 16), byLid.out());
        assertEquals(sameSubnet(14, 16), IbtoolRun.of("subnet_diff", dr.toString(), lid.toString()).out());
    }

    @Test
    void subnetDiffReportsAnUnlinkedNode(Fabric fabric, @TempDir Path dir) {
        Path reference = dir.resolve("reference.cache");
        fabric.run("ibnetdiscover", "--cache", reference.toString()).orThrow();
        int lid = SubnetCache.read(reference).node(new org.jrdma.iba.Guid(0x0002c90300001030L)).orElseThrow().lid();
        IbtoolRun run;
        fabric.unlink("node03 HCA-1");
        try {
            run = IbtoolRun.of("subnet_diff", "--sim", fabric.socketName(), reference.toString());
        } finally {
            fabric.relink("node03 HCA-1");
        }
        assertEquals(0, run.exitCode(), run.err());
        assertEquals("Current subnet has 13 end ports, reference subnet has 14 end ports\n"
                + " All end ports in the current subnet are in the reference subnet.\n"
                + "Reference subnet has 1 more end ports than the current subnet:\n"
                + "   0002:c903:0000:1031\n"
                + "Current subnet has 13 nodes, reference subnet has 14 nodes\n"
                + " All nodes in the current subnet are in the reference subnet.\n"
                + "Reference subnet has 1 more nodes than the current subnet:\n"
                + "   0002:c903:0000:1030\n"
                + "Current subnet has 15 links, reference subnet has 16 links\n"
                + " All links in the current subnet are in the reference subnet.\n"
                + "Reference subnet has 1 more links than the current subnet:\n"
                + "   0002:c903:0000:1031[1] <=> 0002:c903:0000:0a12[1]\n"
                + " All links in the current subnet have the same rate in the reference subnet.\n"
                + "Current subnet has 13 LIDs, reference subnet has 14 LIDs\n"
                + " The subnets have 1 different LID assignments (LID: Current portGUID, Reference portGUID):\n"
                + "   " + "%5d:       !Cur          0002:c903:0000:1031".formatted(lid) + "\n", run.out());
    }

    @Test
    void subnetDiffReportsAMovedLidBetweenTwoCachesAsJson(Fabric fabric, @TempDir Path dir) throws IOException {
        Path reference = dir.resolve("reference.cache");
        Path current = dir.resolve("current.cache");
        fabric.run("ibnetdiscover", "--cache", reference.toString()).orThrow();
        int lid = SubnetCache.read(reference).node(new org.jrdma.iba.Guid(0x0002c90300001050L)).orElseThrow().lid();
        fabric.baselid("node05 HCA-1", 1, 0x300);
        try {
            fabric.run("ibnetdiscover", "--cache", current.toString()).orThrow();
        } finally {
            fabric.baselid("node05 HCA-1", 1, lid);
        }
        IbtoolRun run = IbtoolRun.of("subnet_diff", reference.toString(), current.toString());
        assertEquals(0, run.exitCode(), run.err());
        assertTrue(run.out().endsWith("Current subnet has 14 LIDs, reference subnet has 14 LIDs\n"
                + " The subnets have 2 different LID assignments (LID: Current portGUID, Reference portGUID):\n"
                + "   " + "%5d:       !Cur          0002:c903:0000:1051".formatted(lid) + "\n"
                + "     768: 0002:c903:0000:1051       !Ref         \n"), run.out());
        JsonNode doc = new ObjectMapper().readTree(IbtoolRun.of("subnet_diff", "--json", reference.toString(), current.toString()).out());
        assertEquals(14, doc.get("endPorts").get("current").asInt());
        assertEquals(0, doc.get("links").get("onlyReference").size());
        JsonNode lids = doc.get("lids");
        assertEquals(2, lids.size());
        assertEquals(lid, lids.get(0).get("lid").asInt());
        assertEquals("0x0002c90300001051", lids.get(0).get("reference").asText());
        assertTrue(lids.get(0).get("current") == null);
        assertEquals(768, lids.get(1).get("lid").asInt());
    }

    @Test
    void subnetDiffReportsAChangedNodeGuid(Fabric fabric, @TempDir Path dir) throws IOException {
        Path reference = dir.resolve("reference.cache");
        fabric.run("ibnetdiscover", "--cache", reference.toString()).orThrow();
        IbtoolRun run;
        fabric.guid("node02 HCA-1", 0x0002c90300001099L);
        try {
            run = IbtoolRun.of("subnet_diff", "--sim", fabric.socketName(), reference.toString());
        } finally {
            fabric.guid("node02 HCA-1", 0x0002c90300001020L);
        }
        assertEquals(0, run.exitCode(), run.err());
        assertTrue(run.out().startsWith("Current subnet has 14 end ports, reference subnet has 14 end ports\n"
                + " Current subnet has 1 more end ports than the reference subnet:\n"
                + "   0002:c903:0000:109a\n"
                + "Reference subnet has 1 more end ports than the current subnet:\n"
                + "   0002:c903:0000:1021\n"
                + "Current subnet has 14 nodes, reference subnet has 14 nodes\n"
                + " Current subnet has 1 more nodes than the reference subnet:\n"
                + "   0002:c903:0000:1099\n"
                + "Reference subnet has 1 more nodes than the current subnet:\n"
                + "   0002:c903:0000:1020\n"
                + "Current subnet has 16 links, reference subnet has 16 links\n"
                + " Current subnet has 1 more links than the reference subnet:\n"
                + "   0002:c903:0000:109a[1] <=> 0002:c903:0000:0a11[2]\n"
                + "Reference subnet has 1 more links than the current subnet:\n"
                + "   0002:c903:0000:1021[1] <=> 0002:c903:0000:0a11[2]\n"
                + " All links in the current subnet have the same rate in the reference subnet.\n"), run.out());
        assertTrue(run.out().contains("0002:c903:0000:109a 0002:c903:0000:1021\n"), run.out());
    }

    /**
     * ibsim cannot narrow a link, so the reference is C ibnetdiscover's cache with node01's PortInfo
     * LinkWidthActive changed in the file: the link both subnets have is reported at its two widths.
     */
    @Test
    void subnetDiffReportsALinkOfAnotherWidth(Fabric fabric, @TempDir Path dir) throws IOException {
        Path current = dir.resolve("current.cache");
        fabric.run("ibnetdiscover", "--cache", current.toString()).orThrow();
        byte[] cache = Files.readAllBytes(current);
        int info = portInfoOffset(cache, 0x0002c90300001011L);
        int width = cache[info + 31];
        cache[info + 31] = (byte) (width == 1 ? 2 : 1); // LinkWidthActive: 1x and 4x swapped
        Path reference = Files.write(dir.resolve("reference.cache"), cache);
        IbtoolRun run = IbtoolRun.of("subnet_diff", reference.toString(), current.toString());
        assertEquals(0, run.exitCode(), run.out());
        Matcher rate = Pattern.compile("\n The subnets have 1 different link rates\n"
                + "   0002:c903:0000:1011\\[1] <=> 0002:c903:0000:0a11\\[1]: ([A-Z,]+) (\\d+)x  \\1 (\\d+)x\n").matcher(run.out());
        assertTrue(rate.find(), run.out());
        assertEquals(width == 1 ? List.of("1", "4") : List.of("4", "1"), List.of(rate.group(2), rate.group(3)), run.out());
        JsonNode rates = new ObjectMapper().readTree(IbtoolRun.of("subnet_diff", "--json", reference.toString(), current.toString()).out())
                .get("rates");
        assertEquals(1, rates.size());
        assertEquals(width, rates.get(0).get("current").get("linkWidthActive").asInt());
        assertEquals("0x0002c90300001011", rates.get(0).get("link").get("a").get("portGuid").asText());
    }

    /**
     * Where a port record of a libibnetdisc cache has its PortInfo: after the port GUID
     * (little-endian), the port number 1, the external port number 0, the LID (little-endian, the
     * PortInfo's own LID, big-endian at its byte 16) and the LMC.
     */
    private static int portInfoOffset(byte[] cache, long portGuid) {
        java.nio.ByteBuffer in = java.nio.ByteBuffer.wrap(cache).order(java.nio.ByteOrder.LITTLE_ENDIAN);
        for (int at = 0; at + 13 + 64 <= cache.length; at++) {
            if (in.getLong(at) == portGuid && cache[at + 8] == 1 && cache[at + 9] == 0
                    && in.getShort(at + 10) == in.duplicate().order(java.nio.ByteOrder.BIG_ENDIAN).getShort(at + 13 + 16)) {
                return at + 13;
            }
        }
        throw new AssertionError("no port record of " + Long.toHexString(portGuid));
    }

    @Test
    void subnetDiffFailsAsPythonRdma(@TempDir Path dir) throws IOException {
        IbtoolRun none = IbtoolRun.of("subnet_diff");
        assertEquals("E: Too few arguments\n", none.out());
        assertEquals(100, none.exitCode());
        Path bad = Files.writeString(dir.resolve("bad.cache"), "not a cache");
        IbtoolRun invalid = IbtoolRun.of("subnet_diff", bad.toString(), bad.toString());
        assertTrue(invalid.out().startsWith("E: The file '" + bad + "' is not a valid cache file - "), invalid.out());
        assertEquals(100, invalid.exitCode());
        IbtoolRun both = IbtoolRun.of("subnet_diff", "--sa", "--discovery", "DR", bad.toString());
        assertEquals("E: Can't combine --sa with discovery mode 'DR'\n", both.out());
        assertEquals(100, both.exitCode());
        assertEquals(ExitCodes.USAGE, IbtoolRun.of("subnet_diff", "--bogus", bad.toString()).exitCode());
        // python-rdma reads the first two files and ignores the rest
        assertEquals(100, IbtoolRun.of("subnet_diff", bad.toString(), bad.toString(), "more").exitCode());
    }
}
