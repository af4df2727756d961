package org.jrdma.tools;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.jrdma.testkit.fabric.Fabric;
import org.jrdma.testkit.junit.SimulatedFabric;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * infiniband-diags' common options on ibtool's commands, against the C tools at the same node
 * under libumad2sim (ibtool on the kernel umad path, where {@code -C}/{@code -P} choose the port):
 * {@code -z/--config} with the same file given to both, {@code -o/--outstanding_smps},
 * {@code -s/--sm_port}, {@code -e}; {@code -Y/--pkey-idx}'s check; and how the
 * configuration file is read ({@link DiagConfig}).
 */
@SimulatedFabric(topology = "two-switch")
class CommonOptionsTest {
    private static final String HCA = "node01 HCA-1";

    @Test
    void configFileGivesThePortAndTheTimeoutAsForTheCTools(Fabric fabric, @TempDir Path dir) throws IOException {
        Path good = Files.writeString(dir.resolve("good.conf"), "# the simulated HCA\nCA=ibsim0\nPort=1\ntimeout=300\n\nm_key=0\n");
        Path bad = Files.writeString(dir.resolve("bad.conf"), "CA=nosuch\n");
        Path port2 = Files.writeString(dir.resolve("port2.conf"), "CAx=ibsim0\nPort=0x2\n");
        compare(fabric, "perfquery", "-z", good.toString(), "3", "1").assertSame(QueryCommandsTest::maskTraffic);
        AgainstC failed = compare(fabric, "perfquery", "-z", bad.toString(), "3", "1").assertSame();
        assertTrue(failed.ours().out().contains("Failed to open 'nosuch' port '0'"), failed.ours().out());
        assertEquals(ExitCodes.FAILED, compare(fabric, "ibaddr", "--config", port2.toString()).assertSame().ours().exitCode());
        compare(fabric, "ibaddr", "-z", bad.toString(), "-C", "ibsim0").assertSame();
        compare(fabric, "ibaddr", "-z", dir.resolve("missing.conf").toString()).assertSame();
    }

    @Test
    void commonOptionsAsTheCTools(Fabric fabric) {
        compare(fabric, "iblinkinfo", "-o", "4").assertSame();
        compare(fabric, "ibqueryerrors", "--outstanding_smps", "2").assertSame();
        // not perfquery's: both refuse it alike (the usage after it lacks -L/-G, which ibtool's perfquery has not yet)
        AgainstC refused = compare(fabric, "perfquery", "-o", "4", "3", "1");
        assertEquals(refused.c().exitCode(), refused.ours().exitCode());
        assertEquals(refused.c().stderr().lines().findFirst(), refused.ours().err().lines().findFirst());
        compare(fabric, "ibaddr", "-s", "1", "-G", "0x0002c90300001011").assertSame();
        compare(fabric, "smpquery", "-e", "nodedesc", "3").assertSame();
    }

    /**
     * The configuration's {@code sa_key} is the SM_Key of saquery's requests unless {@code --smkey}
     * is given: OpenSM (its SA key 0x1 by default) ignores a request with another non-zero key, so
     * both tools time out alike with the wrong one and answer alike with the right one.
     */
    @Test
    void configSaKeyIsTheSmKeyOfSaquery(Fabric fabric, @TempDir Path dir) throws IOException {
        Path wrong = Files.writeString(dir.resolve("wrong.conf"), "sa_key=5\n");
        Path right = Files.writeString(dir.resolve("right.conf"), "sa_key=0x1\n");
        AgainstC ignored = compare(fabric, "saquery", "-z", wrong.toString(), "-t", "200", "-s").assertSame();
        assertTrue(ignored.ours().exitCode() != 0, ignored.ours().err());
        assertEquals(0, compare(fabric, "saquery", "-z", right.toString(), "-s").assertSame().ours().exitCode());
        assertEquals(0, compare(fabric, "saquery", "-z", wrong.toString(), "--smkey", "1", "-s").assertSame().ours().exitCode());
    }

    /** {@code -Y} as rdma-core's ibdiag_common.c checks it (Debian 12's C tools predate the option). */
    @Test
    void pkeyIndexIsChecked(Fabric fabric) {
        IbtoolRun good = IbtoolRun.of("perfquery", "--sim", fabric.socketName(), "--sim-node", HCA, "-Y", "0", "3", "1");
        assertEquals(0, good.exitCode(), good.err());
        for (String bad : new String[] {"70000", "x", "-1", "5x"}) {
            IbtoolRun run = IbtoolRun.of("perfquery", "--sim", fabric.socketName(), "--sim-node", HCA, "--pkey-idx", bad, "3", "1");
            assertEquals(ExitCodes.FAILED, run.exitCode(), run.err());
            assertEquals("perfquery: iberror: failed: Invalid P_Key index \"" + bad + "\".  Requires an integer in the range [0, 65535].\n",
                    run.out());
        }
    }

    /**
     * {@code -Y}'s index is in the address of every GMP and SA MAD the command sends, as libibmad's
     * {@code umad_set_pkey} puts it (the trace shows the address the transport is handed), not in
     * an SMP's; ibsim has no P_Key, so the answers are those of index 0.
     */
    @Test
    void pkeyIndexIsTheIndexOfEveryGmp(Fabric fabric) {
        IbtoolRun perfquery = IbtoolRun.of("perfquery", "--sim", fabric.socketName(), "--sim-node", HCA, "--trace", "-Y", "3", "3", "1");
        assertEquals(0, perfquery.exitCode(), perfquery.err());
        List<String> sent = perfquery.err().lines().filter(l -> l.startsWith("SEND ")).toList();
        assertTrue(sent.stream().anyMatch(l -> l.startsWith("SEND class 0x04 ")), perfquery.err());
        for (String line : sent) {
            boolean smp = line.startsWith("SEND class 0x01 ") || line.startsWith("SEND class 0x81 ");
            assertEquals(!smp, line.endsWith(" QP 1 P_Key index 3"), line);
        }
        IbtoolRun plain = IbtoolRun.of("perfquery", "--sim", fabric.socketName(), "--sim-node", HCA, "3", "1");
        assertEquals(QueryCommandsTest.maskTraffic(plain.out()), QueryCommandsTest.maskTraffic(perfquery.out()));

        IbtoolRun saquery = IbtoolRun.of("saquery", "--sim", fabric.socketName(), "--sim-node", HCA, "--trace", "--pkey-idx", "0x3", "-s");
        assertEquals(0, saquery.exitCode(), saquery.err());
        List<String> sa = saquery.err().lines().filter(l -> l.startsWith("SEND class 0x03 ")).toList();
        assertTrue(!sa.isEmpty() && sa.stream().allMatch(l -> l.endsWith(" P_Key index 3")), saquery.err());
        IbtoolRun indexZero = IbtoolRun.of("saquery", "--sim", fabric.socketName(), "--sim-node", HCA, "--trace", "-Y", "0", "-s");
        assertTrue(indexZero.err().lines().filter(l -> l.startsWith("SEND ")).noneMatch(l -> l.contains("P_Key index")), indexZero.err());
    }

    @Test
    void debugPrintsTheMads(Fabric fabric) {
        IbtoolRun run = IbtoolRun.of("smpquery", "--sim", fabric.socketName(), "--sim-node", HCA, "-d", "nodedesc", "1");
        assertEquals(0, run.exitCode(), run.err());
        assertTrue(run.err().contains("NodeDescription") || run.err().contains("0x0010"), run.err());
        IbtoolRun down = IbtoolRun.of("iblinkinfo", "--sim", fabric.socketName(), "--sim-node", HCA, "--debug", "-d");
        assertEquals(0, down.exitCode(), down.err());
        assertTrue(!down.err().isEmpty(), "iblinkinfo's -d is --down, --debug the trace");
    }

    @Test
    void readsTheFileAsIbdiagCommonDoes(@TempDir Path dir) throws IOException {
        Path file = Files.writeString(dir.resolve("ibdiag.conf"), """
                # comment
                #CA=commented
                CA=mlx5_0
                CA_override=mlx5_1
                Port=010
                timeout=0x32junk
                m_key=0xffffffffffffffff
                sa_key=12
                Port
                timeout=
                MLX_EPI=false
                """);
        assertEquals(new DiagConfig("mlx5_1", 8L, 50L, -1L, 12L), DiagConfig.read(file));
        assertEquals(new DiagConfig(null, null, null, null, null), DiagConfig.read(dir.resolve("none")));
        assertEquals(0, CNumbers.strtoul("junk"));
        assertEquals(255, CNumbers.strtoul(" 0xff"));
        assertEquals(7, CNumbers.strtoul("07"));
        assertEquals(-1L, CNumbers.strtoul("99999999999999999999999"));
    }

    private static AgainstC compare(Fabric fabric, String tool, String... args) {
        return IbtoolProcess.againstC(fabric, HCA, tool, args);
    }
}
