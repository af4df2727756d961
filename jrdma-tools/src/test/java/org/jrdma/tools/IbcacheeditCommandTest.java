package org.jrdma.tools;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.jrdma.testkit.fabric.Fabric;
import org.jrdma.testkit.fabric.ToolResult;
import org.jrdma.testkit.junit.SimulatedFabric;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * {@code ibtool ibcacheedit} against infiniband-diags' ibcacheedit on a cache of the fat tree
 * written by the C ibnetdiscover: the same standard output, exit status and standard error (which
 * for ibtool may go on with jrdma's explanation), and byte for byte the same new cache file, for
 * every edit and every failure.
 */
@SimulatedFabric(topology = "fat-tree")
class IbcacheeditCommandTest {

    @ParameterizedTest
    @ValueSource(strings = {"",
        "--switchguid 0x0002c90300000a11:0x1234",
        "--caguid 0x0002c90300001010:0x5",
        "--sysimgguid 0x0002c90300000a01:0x9",
        "--portguid 0x0002c90300001010:0x0002c90300001011:0x77",
        "--portguid 0x0002c90300000a01:0x0002c90300000a01:0x77",
        "--switchguid 0x0002c90300000a01:0x1 --caguid 0x0002c90300001010:2 --portguid 0x0002c90300001020:0x0002c90300001021:3",
        "--switchguid 1:2 --switchguid 0x0002c90300000a12:0x3 --caguid 0x0002c90300001080:zz",
        "--switchguid 5:6", "--caguid 0x0002c90300000a11:7", "--sysimgguid 1:2",
        "--portguid 0x10:0x12:0x13", "--portguid 0x0002c90300001020:0x1:3", "--portguid 0x0002c90300000a01:0x1:3"})
    void editsAsTheCToolEdits(String edits, Fabric fabric, @TempDir Path dir) throws IOException {
        Path original = dir.resolve("fabric.cache");
        fabric.run("ibnetdiscover", "--cache", original.toString()).orThrow();
        List<String> args = new ArrayList<>(edits.isEmpty() ? List.of() : List.of(edits.split(" ")));
        args.add(original.toString());
        Result run = Result.of(fabric, dir, args);
        run.assertSameReport();
        assertEquals(Files.exists(run.cFile()), Files.exists(run.ourFile()));
        if (Files.exists(run.cFile())) {
            assertArrayEquals(Files.readAllBytes(run.cFile()), Files.readAllBytes(run.ourFile()), edits);
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"--portguid 0x10:0x12", "--caguid 1", "--switchguid 1:", "--portguid 1:2:", "--bogus", "-C x", "-h"})
    void badInputIsAUsageErrorAsForTheCTool(String args, Fabric fabric) {
        List<String> all = new ArrayList<>(List.of(args.split(" ")));
        all.addAll(List.of("a", "b"));
        AgainstC run = both(fabric, all).assertUsageError();
        if (args.contains(":")) {
            assertEquals("invalid input '" + args.split(" ")[1] + "'", run.ours().err().lines().findFirst().orElseThrow());
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"", "only-one", "/nonexistent/x y", "/etc/hostname y"})
    void missingAndUnreadableFilesFailAsTheCToolFails(String args, Fabric fabric) {
        List<String> all = args.isEmpty() ? List.of() : List.of(args.split(" "));
        AgainstC run = both(fabric, all).assertSame();
        assertEquals(255, run.ours().exitCode());
        assertFalse(run.cOut().isEmpty());
    }

    /** {@code ibcacheedit args...} run both ways (ibtool's without {@code --sim}: the command takes no fabric options). */
    private static AgainstC both(Fabric fabric, List<String> args) {
        List<String> command = new ArrayList<>(List.of("ibcacheedit"));
        command.addAll(args);
        return new AgainstC(IbtoolRun.of(command.toArray(String[]::new)), fabric.run(command.toArray(String[]::new)));
    }

    /** One edit run both ways, each writing its own new cache file in {@code dir}. */
    private record Result(IbtoolRun ours, ToolResult c, Path ourFile, Path cFile) {
        static Result of(Fabric fabric, Path dir, List<String> args) {
            Path ourFile = dir.resolve("ours.cache");
            Path cFile = dir.resolve("c.cache");
            List<String> ibtool = new ArrayList<>(List.of("ibcacheedit"));
            ibtool.addAll(args);
            ibtool.add(ourFile.toString());
            List<String> c = new ArrayList<>(List.of("ibcacheedit"));
            c.addAll(args);
            c.add(cFile.toString());
            return new Result(IbtoolRun.of(ibtool.toArray(String[]::new)), fabric.run(c.toArray(String[]::new)), ourFile, cFile);
        }

        void assertSameReport() {
            String context = c.command() + "\n--- ibtool stderr ---\n" + ours.err() + "\n--- C stderr ---\n" + c.stderr();
            assertEquals(c.stdout().replace(cFile.toString(), ourFile.toString()), ours.out(), context);
            assertEquals(c.exitCode(), ours.exitCode(), context);
            assertTrue(ours.err().startsWith(AgainstC.maskPids(c.stderr())), context);
        }
    }
}
