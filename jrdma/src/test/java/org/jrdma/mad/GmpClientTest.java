package org.jrdma.mad;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.List;
import org.jrdma.iba.pm.PmPortCounters;
import org.jrdma.iba.sa.SaNodeRecord;
import org.jrdma.iba.sa.SaPathRecord;
import org.jrdma.iba.smp.SmpPortInfo;
import org.jrdma.mad.sim.IbsimTransport;
import org.jrdma.testkit.fabric.Fabric;
import org.jrdma.testkit.fabric.ToolResult;
import org.jrdma.testkit.junit.SimulatedFabric;
import org.junit.jupiter.api.Test;

/** PerfMgt and SubnAdm requests through jrdma's ibsim client, answered by ibsim's PMA and OpenSM's SA. */
@SimulatedFabric(topology = "two-switch")
class GmpClientTest {

    @Test
    void performanceGetReadsTheSameCountersAsPerfquery(Fabric fabric) {
        try (MadEngine engine = engine(fabric, "node01 HCA-1")) {
            GmpClient gmp = client(engine);
            int lid = ownLid(engine);
            PmPortCounters pc = gmp.performanceGet(new PmPortCounters().portSelect(1), lid, 0);
            ToolResult c = fabric.runAt("node01 HCA-1", Duration.ofSeconds(30), List.of("perfquery", Integer.toString(lid), "1")).orThrow();
            assertTrue(pc.portXmitPkts() > 0, "the SM's sweep sent packets through the port");
            assertTrue(c.stdout().contains("PortSelect:......................1"), c.stdout());
            assertEquals(field(c.stdout(), "SymbolErrorCounter"), pc.symbolErrorCounter());
        }
    }

    @Test
    void subnAdmGetFindsANodeRecordByLid(Fabric fabric) {
        try (MadEngine engine = engine(fabric, "node02 HCA-1")) {
            GmpClient gmp = client(engine);
            int sm = smLid(engine);
            SaNodeRecord query = new SaNodeRecord().lid(sm);
            List<SaNodeRecord> table = gmp.subnAdmGetTable(query, SaNodeRecord.LID_COMPONENT_MASK, sm, SaNodeRecord::new);
            assertEquals(1, table.size());
            assertEquals("sw1", table.getFirst().nodeDescription().nodeString());
            assertEquals(0x0002c90300000a01L, table.getFirst().nodeInfo().nodeGuid().value());
        }
    }

    @Test
    void aPathRecordBetweenTwoPorts(Fabric fabric) {
        try (MadEngine engine = engine(fabric, "node01 HCA-1")) {
            GmpClient gmp = client(engine);
            int sm = smLid(engine);
            int self = ownLid(engine);
            SaPathRecord query = new SaPathRecord().slid(self).dlid(sm).numbPath(1);
            long mask = SaPathRecord.SLID_COMPONENT_MASK | SaPathRecord.DLID_COMPONENT_MASK | SaPathRecord.NUMB_PATH_COMPONENT_MASK;
            List<SaPathRecord> paths = gmp.subnAdmGetTable(query, mask, sm, SaPathRecord::new);
            assertEquals(1, paths.size());
            assertEquals(self, paths.getFirst().slid());
            assertEquals(sm, paths.getFirst().dlid());
        }
    }

    @Test
    void noRecordsIsAnEmptyTableAndAMissingLidTimesOut(Fabric fabric) {
        try (MadEngine engine = engine(fabric, "node01 HCA-1")) {
            GmpClient gmp = client(engine);
            int sm = smLid(engine);
            assertEquals(List.of(), gmp.subnAdmGetTable(new SaNodeRecord().lid(0x1234), SaNodeRecord.LID_COMPONENT_MASK, sm, SaNodeRecord::new));
            MadTimeoutException e = assertThrows(MadTimeoutException.class, () -> gmp.performanceGet(new PmPortCounters(), 0x3000, 0));
            assertTrue(e.getMessage().contains("the fabric could not deliver it"), e.getMessage());
        }
    }

    /**
     * Over ibsim an unfiltered table comes back as one MAD (no RMPP layer): jrdma reads the records
     * in it, as saquery does through libumad2sim, and does not invent records from empty slots.
     */
    @Test
    void anUnfilteredTableOverIbsimHoldsWhatOneMadCarries(Fabric fabric) {
        try (MadEngine engine = engine(fabric, "node01 HCA-1")) {
            GmpClient gmp = client(engine);
            int sm = smLid(engine);
            List<SaNodeRecord> table = gmp.subnAdmGetTable(new SaNodeRecord(), 0, sm, SaNodeRecord::new);
            String c = fabric.runAt("node01 HCA-1", Duration.ofSeconds(30), List.of("saquery", "NR")).orThrow().stdout();
            assertEquals(c.split("NodeRecord dump:", -1).length - 1, table.size(), c);
            assertTrue(c.contains(table.getFirst().nodeDescription().nodeString()), c);
        }
    }

    private static MadEngine engine(Fabric fabric, String node) {
        return new MadEngine(IbsimTransport.attach(fabric.socketName(), node), 4);
    }

    private static GmpClient client(MadEngine engine) {
        return new GmpClient(engine, Duration.ofMillis(500), 2);
    }

    private static int ownLid(MadEngine engine) {
        return portInfo(engine).lid();
    }

    private static int smLid(MadEngine engine) {
        return portInfo(engine).masterSmLid();
    }

    private static SmpPortInfo portInfo(MadEngine engine) {
        return new SmpClient(engine, Duration.ofMillis(500), 2, 0).get(new SmpPortInfo(), SmpTarget.local(), 0);
    }

    private static long field(String perfquery, String name) {
        var m = java.util.regex.Pattern.compile("(?m)^" + name + ":\\.+(\\d+)$").matcher(perfquery);
        assertTrue(m.find(), name);
        return Long.parseLong(m.group(1));
    }
}
