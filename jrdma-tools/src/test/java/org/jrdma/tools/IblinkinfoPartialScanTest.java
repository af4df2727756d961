package org.jrdma.tools;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.jrdma.testkit.fabric.Fabric;
import org.jrdma.testkit.junit.SimulatedFabric;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * {@code ibtool iblinkinfo -n/--hops} and {@code -a/--all}, partial scans around a node, against
 * infiniband-diags' iblinkinfo on the fat tree attached at spine1 (and at node05's HCA): identical
 * where the C tool's scan is right, and where it reads one node too far (see
 * {@link IblinkinfoCommand}) identical once that node is taken out.
 */
@SimulatedFabric(topology = "fat-tree")
class IblinkinfoPartialScanTest {
    /** A node header line of iblinkinfo's output. */
    private static final Pattern HEADER = Pattern.compile("^(Switch: 0x\\p{XDigit}{16} |CA: )(.*):$");

    @ParameterizedTest
    @ValueSource(strings = {
        "-D 0,1 -n 1", "-D 0,1 -n 2", "-D 0,2,6 -n 2 -l", "-D 0 -n 1", "-D 0,1 -n 0", "--hops 3 --Direct 0,4 -d",
        "-D 0,3 -n 99999999999", "-D 0,1 -n 1 --switches-only"})
    void withoutAllPrintsTheStartNodeAsTheCToolDoes(String args, Fabric fabric) {
        AgainstC.run(fabric, "iblinkinfo", args.split(" ")).assertSame();
        AgainstC.runAt(fabric, "node05 HCA-1", "iblinkinfo", args.split(" ")).assertSame();
    }

    @ParameterizedTest
    @ValueSource(strings = {"-D 0,1 -n 3 -a", "-D 0,1 -n 1000 -a -l", "-a", "-n 3", "-n 0 -p", "-D 0,2 -n 4 --all --switches-only"})
    void withAllPrintsWhatTheCToolPrintsWhenTheScanReachesTheWholeFabric(String args, Fabric fabric) {
        AgainstC.run(fabric, "iblinkinfo", args.split(" ")).assertSame();
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        "-D 0,1 -n 1 -a | leaf2", "-D 0,1 -n 2 -a | node03 HCA-1", "-n 1 | node01 HCA-1", "-D 0,3,5 -n 1 --all | node01 HCA-1"})
    void withAllTheCToolAlsoPrintsTheFirstNodeOneHopTooFar(String args, String tooFar, Fabric fabric) {
        AgainstC run = AgainstC.run(fabric, "iblinkinfo", args.trim().split(" "));
        assertEquals(0, run.ours().exitCode(), run.ours().err());
        assertTrue(names(run.cOut()).contains(tooFar), run.cOut());
        assertFalse(names(run.ours().out()).contains(tooFar), run.ours().out());
        assertEquals(withoutNode(run.cOut(), tooFar), run.ours().out());
    }

    @Test
    void aSwitchByGuidIsScannedAsByItsRoute(Fabric fabric) {
        // The C tool's -G scan hangs on a switch under ibsim; leaf2 is at 0,2 from spine1.
        IbtoolRun byGuid = IbtoolRun.of("iblinkinfo", "--sim", fabric.socketName(), "-G", "0x0002c90300000a12", "-n", "2", "-a");
        IbtoolRun byRoute = IbtoolRun.of("iblinkinfo", "--sim", fabric.socketName(), "-D", "0,2", "-n", "2", "-a");
        assertEquals(0, byGuid.exitCode(), byGuid.err());
        assertEquals(byRoute.out(), byGuid.out());
        assertEquals(List.of("leaf4", "leaf3", "leaf1", "spine2", "spine1", "node04 HCA-1", "node03 HCA-1", "leaf2"), names(byGuid.out()));
    }

    @Test
    void aChannelAdapterReachedByRouteIsLinkedAsTheWholeScanLinksIt(Fabric fabric) {
        // The C tool goes back from node01 (0,1,1) to leaf1 but links it to leaf1's port 5, where the route entered leaf1.
        IbtoolRun part = IbtoolRun.of("iblinkinfo", "--sim", fabric.socketName(), "-D", "0,1,1", "-n", "1", "-a");
        assertEquals(0, part.exitCode(), part.err());
        assertEquals(List.of("leaf1", "node01 HCA-1"), names(part.out()));
        String whole = fabric.run("iblinkinfo").orThrow().stdout();
        assertEquals(block(whole, "node01 HCA-1"), block(part.out(), "node01 HCA-1"));
        assertTrue(block(part.out(), "leaf1").contains("    1[  ] ==( 4X           2.5 Gbps Active/  LinkUp)==>       4    1[  ] \"node01 HCA-1\""),
                part.out());
    }

    @Test
    void badHopsAreUsageErrors(Fabric fabric) {
        IbtoolRun negative = IbtoolRun.of("iblinkinfo", "--sim", fabric.socketName(), "-D", "0,1", "-n", "-1");
        assertEquals(ExitCodes.USAGE, negative.exitCode());
        assertTrue(negative.err().contains("-n/--hops must be 0 or more, not -1"), negative.err());
        for (String bad : List.of("abc", "123456789012345678901234567890", "")) {
            IbtoolRun run = IbtoolRun.of("iblinkinfo", "--sim", fabric.socketName(), "-a", "--hops", bad);
            assertEquals(ExitCodes.USAGE, run.exitCode(), run.err());
            assertTrue(run.err().contains("--hops"), run.err());
        }
    }

    /** The node names of iblinkinfo's output, in its order. */
    private static List<String> names(String out) {
        return out.lines().map(HEADER::matcher).filter(m -> m.matches()).map(m -> m.group(2)).toList();
    }

    /** The header and port lines of node {@code name}. */
    private static String block(String out, String name) {
        StringBuilder b = new StringBuilder();
        boolean in = false;
        for (String line : out.lines().toList()) {
            Matcher m = HEADER.matcher(line);
            if (m.matches()) {
                in = m.group(2).equals(name);
            }
            if (in) {
                b.append(line).append('\n');
            }
        }
        return b.toString();
    }

    /** iblinkinfo's output without node {@code name}: its block gone, the links to it "Port not available". */
    private static String withoutNode(String out, String name) {
        Pattern linkToIt = Pattern.compile("==>  +\\d+ +\\d+\\[  \\] \"" + Pattern.quote(name) + "\" \\(.*\\)$");
        List<String> kept = new ArrayList<>();
        for (String line : out.replace(block(out, name), "").lines().toList()) {
            kept.add(linkToIt.matcher(line).replaceAll("==>      \"Port not available\""));
        }
        return String.join("\n", kept) + (kept.isEmpty() ? "" : "\n");
    }
}
