package org.jrdma.tools;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import org.jrdma.testkit.fabric.Fabric;
import org.jrdma.testkit.fabric.ToolResult;
import org.jrdma.testkit.fabric.Topology;
import org.jrdma.testkit.junit.SimulatedFabric;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code ibtool ibnetdiscover --cache/--load-cache/--diff/--diffcheck} against infiniband-diags'
 * ibnetdiscover on the same simulated fabrics: each reads the other's libibnetdisc cache files
 * and prints what the other prints, diffs included, and both reject bad caches alike.
 */
@SimulatedFabric(topology = "two-switch")
class IbnetdiscoverCacheTest {
    /**
     * The two-switch fabric some time later: node04 gone, node02 moved from sw1 port 2 to sw2
     * port 3, node03 renamed. Same GUIDs, so the nodes match up.
     */
    private static final String CHANGED = """
            switchguid=0x0002c90300000a01
            Switch	8 "sw1"
            [1]	"node01 HCA-1"[1]
            [7]	"sw2"[7]
            [8]	"sw2"[8]

            switchguid=0x0002c90300000a02
            Switch	8 "sw2"
            [1]	"node03 renamed"[1]
            [3]	"node02 HCA-1"[1]
            [7]	"sw1"[7]
            [8]	"sw1"[8]

            caguid=0x0002c90300001010
            Ca	2 "node01 HCA-1"
            [1](0002c90300001011)	"sw1"[1]

            caguid=0x0002c90300001020
            Ca	2 "node02 HCA-1"
            [1](0002c90300001021)	"sw2"[3]

            caguid=0x0002c90300001030
            Ca	2 "node03 renamed"
            [1](0002c90300001031)	"sw2"[1]
            """;

    @Test
    void loadsTheCToolsCacheAndPrintsWhatTheCToolPrints(Fabric fabric, @TempDir Path dir) {
        for (String node : Arrays.asList(null, "node03 HCA-1")) {
            String cache = dir.resolve("c-" + node + ".cache").toString();
            String live = c(fabric, node, "ibnetdiscover", "--cache", cache).stdout();

            AgainstC loaded = AgainstC.run(fabric, "ibnetdiscover", "--load-cache", cache).assertSame(IbtoolRun::withoutDate);
            assertEquals(IbtoolRun.withoutDate(live), IbtoolRun.withoutDate(loaded.ours().out()), "attached at " + node);
        }
    }

    @Test
    void theCToolLoadsIbtoolsCache(Fabric fabric, @TempDir Path dir) {
        for (String node : Arrays.asList(null, "node03 HCA-1")) {
            String cache = dir.resolve("ibtool-" + node + ".cache").toString();
            IbtoolRun ours = node == null ? IbtoolRun.of("ibnetdiscover", "--sim", fabric.socketName(), "--cache", cache)
                    : IbtoolRun.of("ibnetdiscover", "--sim", fabric.socketName(), "--sim-node", node, "--cache", cache);
            assertEquals(0, ours.exitCode(), ours.err());

            String live = c(fabric, node, "ibnetdiscover").stdout();
            String loaded = c(fabric, null, "ibnetdiscover", "--load-cache", cache).stdout();
            assertEquals(IbtoolRun.withoutDate(live), IbtoolRun.withoutDate(loaded), "attached at " + node);
            assertEquals(IbtoolRun.withoutDate(live), IbtoolRun.withoutDate(ours.out()));

            // Re-caching a loaded cache keeps it loadable by the C tool.
            String again = dir.resolve("again-" + node + ".cache").toString();
            assertEquals(0, IbtoolRun.of("ibnetdiscover", "--load-cache", cache, "--cache", again).exitCode());
            assertEquals(IbtoolRun.withoutDate(live), IbtoolRun.withoutDate(c(fabric, null, "ibnetdiscover", "--load-cache", again).stdout()));
        }
    }

    @Test
    void diffsAsTheCToolDoes(Fabric fabric, @TempDir Path dir) throws IOException {
        String before = dir.resolve("before.cache").toString();
        c(fabric, null, "ibnetdiscover", "--cache", before);
        String[][] checks = {{}, {"--diffcheck", "sw,ca,port,lid,nodedesc"}, {"--diffcheck", "CA,nodedesc"}, {"--diffcheck", "sw,port"},
                {"--diffcheck", "router,ca,port,lid"}};
        try (Fabric later = Fabric.start(Topology.parse("two-switch, changed", CHANGED, null))) {
            String after = dir.resolve("after.cache").toString();
            c(later, null, "ibnetdiscover", "--cache", after);
            for (String[] check : checks) {
                AgainstC.run(later, "ibnetdiscover", concat(check, "--diff", before)).assertSame();
                AgainstC.run(later, "ibnetdiscover", concat(check, "--load-cache", before, "--diff", after)).assertSame();
                AgainstC.run(later, "ibnetdiscover", concat(check, "--load-cache", after, "--diff", before)).assertSame();
            }
            String changes = AgainstC.run(later, "ibnetdiscover", "--diff", before).ours().out();
            assertTrue(changes.contains("\n< vendid=0x0\n< devid=0x0\n< sysimgguid=0x2c90300001040\n< caguid=0x2c90300001040\n"), changes);
            assertTrue(changes.contains("> [3]\t\"H-0002c90300001020\"[1](2c90300001021) \t\t# \"node02 HCA-1\""), changes);
            String map = Files.writeString(dir.resolve("names.map"), "0x0002c90300000a02 \"renamed by map\"\n").toString();
            AgainstC named = AgainstC.run(later, "ibnetdiscover", "--node-name-map", map, "--diff", before).assertSame();
            assertTrue(named.ours().out().contains("# \"renamed by map\" base port 0"), named.ours().out());
            AgainstC same = AgainstC.run(later, "ibnetdiscover", "--load-cache", after, "--diff", after).assertSame();
            assertEquals("", same.ours().out(), "a fabric has no differences from itself");
            AgainstC nodedesc = AgainstC.run(later, "ibnetdiscover", "--diff", before, "--diffcheck", "ca,nodedesc").assertSame();
            assertTrue(nodedesc.ours().out().contains("< Ca\t2 \"H-0002c90300001030\"\t\t# \"node03 HCA-1\"\n"
                    + "> Ca\t2 \"H-0002c90300001030\"\t\t# \"node03 renamed\"\n"), nodedesc.ours().out());
        }
    }

    @Test
    void badCachesFailAsTheCToolFails(Fabric fabric, @TempDir Path dir) throws IOException {
        Path good = dir.resolve("good.cache");
        c(fabric, null, "ibnetdiscover", "--cache", good.toString());
        byte[] bytes = Files.readAllBytes(good);
        Path truncated = Files.write(dir.resolve("truncated.cache"), Arrays.copyOf(bytes, 100));
        Path text = Files.writeString(dir.resolve("text.cache"), "# Topology file: not a cache\n");
        String missing = dir.resolve("missing.cache").toString();

        // The C tool's fatal error ends with an empty line (its message ends with a newline); ibtool's too.
        for (String bad : new String[] {truncated.toString(), text.toString(), missing}) {
            AgainstC load = AgainstC.run(fabric, "ibnetdiscover", "--load-cache", bad).assertSame();
            assertEquals(ExitCodes.FAILED, load.ours().exitCode());
            assertTrue(load.ours().err().contains(bad), "jrdma's explanation names the file: " + load.ours().err());
            AgainstC diff = AgainstC.run(fabric, "ibnetdiscover", "--diff", bad).assertSame();
            assertEquals("loading cached fabric for diff failed", diff.cError());
        }
        assertTrue(IbtoolRun.of("ibnetdiscover", "--load-cache", truncated.toString()).err().contains("truncated"));
        assertTrue(IbtoolRun.of("ibnetdiscover", "--load-cache", text.toString()).err().contains("not a libibnetdisc fabric cache"));

        // A usage error: the C tool's line, then its usage message (DiagErrorsTest compares those in full).
        AgainstC key = AgainstC.run(fabric, "ibnetdiscover", "--diff", good.toString(), "--diffcheck", "sw,bogus");
        assertEquals(ExitCodes.USAGE, key.c().exitCode());
        assertEquals(ExitCodes.USAGE, key.ours().exitCode());
        String head = "invalid diff check key: bogus\n\nUsage: ibnetdiscover [options] [topology-file]\n";
        assertTrue(key.c().stderr().startsWith(head) && key.ours().err().startsWith(head), key.ours().err());

        String unwritable = dir.resolve("no-such-dir").resolve("f.cache").toString();
        AgainstC cache = AgainstC.run(fabric, "ibnetdiscover", "--cache", unwritable).assertSame(out -> IbtoolRun.withoutDate(out).strip());
        assertFalse(cache.ours().out().isEmpty(), "the topology is printed before caching fails");
    }

    private static ToolResult c(Fabric fabric, String node, String... command) {
        ToolResult result = fabric.runAt(node, command);
        assertEquals(0, result.exitCode(), result.stdout() + result.stderr());
        return result;
    }

    private static String[] concat(String[] first, String... more) {
        String[] all = Arrays.copyOf(first, first.length + more.length);
        System.arraycopy(more, 0, all, first.length, more.length);
        return all;
    }
}
