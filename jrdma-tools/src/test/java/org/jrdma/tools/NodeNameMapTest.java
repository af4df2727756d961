package org.jrdma.tools;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import org.jrdma.iba.Guid;
import org.jrdma.testkit.fabric.Fabric;
import org.jrdma.testkit.junit.SimulatedFabric;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * {@code --node-name-map}: the map file read as rdma-core's node_name_map.c reads it, and applied
 * where the C tools apply it, compared with the C tool given the same file on the fat tree
 * (spine1 0x...0a01, leaf1 0x...0a11, node01 0x...1010 LID 4, node05 0x...1050 LID 11).
 */
@SimulatedFabric(topology = "fat-tree")
class NodeNameMapTest {
    private static final String MAP = """
            # a node name map, the format of /etc/infiniband-diags/ibnetdiscover.conf
            0x0002c90300000a01 "SPINE-ONE"   # the first spine
              0x0002c90300000a11 "LEAF-ONE"
            0x0002c90300001010\t"host one"
            0x0002c90300001011 "host one, the port GUID: not a node GUID"
            0x0002c90300001050 unquoted name # trailing blank kept
            0x0002c90300000a01 "a second entry for spine1 is ignored"
            """;

    @TempDir
    static Path dir;

    private static String map() throws IOException {
        Path file = dir.resolve("node-name-map");
        Files.writeString(file, MAP);
        return file.toString();
    }

    @ParameterizedTest
    @ValueSource(strings = {"ibtracert 4 13", "ibtracert 9 4", "ibroute 1", "ibroute 3", "iblinkinfo", "iblinkinfo -l",
            "smpquery nodedesc 4", "smpquery nodedesc 1", "smpquery nodedesc 11", "saquery NR 4", "saquery NR"})
    void namesNodesAsTheCToolDoes(String command, Fabric fabric) throws IOException {
        String[] words = (command + " --node-name-map " + map()).split(" ");
        AgainstC run = AgainstC.run(fabric, words[0], Arrays.copyOfRange(words, 1, words.length)).assertSame();
        assertTrue(run.ours().out().contains("SPINE-ONE") || run.ours().out().contains("host one")
                || run.ours().out().contains("unquoted name "), "the map should show:\n" + run.ours().out());
    }

    @Test
    void ibnetdiscoverRenamesSwitchesAndRemotePortsOnly(Fabric fabric) throws IOException {
        AgainstC run = AgainstC.run(fabric, "ibnetdiscover", "--node-name-map", map()).assertSame(IbtoolRun::withoutDate);
        String out = run.ours().out();
        assertTrue(out.contains("Switch\t8 \"S-0002c90300000a01\"\t\t# \"SPINE-ONE\" base port 0"), out);
        assertTrue(out.contains("Ca\t1 \"H-0002c90300001010\"\t\t# \"node01 HCA-1\""), out);
        assertTrue(out.contains("# \"host one\" lid 4 4xSDR"), out);
    }

    @Test
    void readsTheFormatAsNodeNameMapCDoes(@TempDir Path tmp) throws IOException {
        Path file = tmp.resolve("map");
        Files.writeString(file, "\n   # comment\n1234 \"decimal\"\n010 octal#c\n0xABC #\"hash first\"\n0x5\n0x6 \"\"\n");
        NodeNameMap map = NodeNameMap.read(file);
        assertEquals("decimal", map.name(new Guid(1234), "x"));
        assertEquals("octal", map.name(new Guid(8), "x"));
        assertEquals("hash first", map.name(new Guid(0xABC), "x"));
        assertEquals("desc", map.name(new Guid(5), "desc"), "a GUID without a name adds nothing");
        assertEquals("desc", map.name(new Guid(6), "desc"), "nor does an empty name");
        assertEquals("spine", map.name(new Guid(7), "spine"), "a GUID not in the map keeps its description");
    }

    @Test
    void aBadLineIsAUsageErrorNamingFileAndLine(@TempDir Path tmp) throws IOException {
        Path file = tmp.resolve("bad-map");
        Files.writeString(file, "0x1 \"one\"\n# fine\nbogus line\n");
        UsageException e = assertThrows(UsageException.class, () -> NodeNameMap.read(file));
        assertTrue(e.getMessage().contains(file + ":3: \"bogus\" is not a GUID"), e.getMessage());

        Files.writeString(file, "0x1ffffffffffffffff \"too big\"\n");
        assertThrows(UsageException.class, () -> NodeNameMap.read(file));

        IbtoolRun run = IbtoolRun.of("ibroute", "--sim", "x", "--node-name-map", file.toString(), "1");
        assertEquals(ExitCodes.USAGE, run.exitCode());
        assertTrue(run.err().contains(file + ":1:"), run.err());
        IbtoolRun missing = IbtoolRun.of("ibtracert", "--sim", "x", "--node-name-map", tmp.resolve("none").toString(), "1", "2");
        assertEquals(ExitCodes.USAGE, missing.exitCode());
        assertTrue(missing.err().contains("cannot read node name map"), missing.err());
    }
}
