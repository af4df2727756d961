package org.jrdma.iba.diag;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.reflect.Modifier;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.jrdma.iba.pm.PmPortCounters;
import org.jrdma.iba.pm.PmPortCountersExtended;
import org.jrdma.iba.sa.SaLinkRecord;
import org.jrdma.iba.sa.SaNodeRecord;
import org.jrdma.iba.sa.SaPathRecord;
import org.jrdma.iba.sa.SaPortInfoRecord;
import org.jrdma.iba.sa.SaSmInfoRecord;
import org.jrdma.iba.smp.SmpGuidInfo;
import org.jrdma.iba.smp.SmpNodeDescription;
import org.jrdma.iba.smp.SmpNodeInfo;
import org.jrdma.iba.smp.SmpPKeyTable;
import org.jrdma.iba.smp.SmpPortInfo;
import org.jrdma.iba.smp.SmpSlToVlMappingTable;
import org.jrdma.iba.smp.SmpSwitchInfo;
import org.jrdma.iba.smp.SmpVlArbitrationTable;
import org.jrdma.iba.wire.IbaStruct;
import org.junit.jupiter.api.Test;

/**
 * The tables name fields of the generated classes by name: every name must exist, so that a
 * renamed component breaks this test rather than a printout. Also the layout rules that need no
 * C peer (block counts, padding edge cases).
 */
class DiagTablesTest {
    /** Each table of {@link Tables} and the generated class it prints. */
    static final Map<Table, IbaStruct> TABLES = Map.ofEntries(
            Map.entry(Tables.NODE_INFO, new SmpNodeInfo()),
            Map.entry(Tables.NODE_DESCRIPTION, new SmpNodeDescription()),
            Map.entry(Tables.PORT_INFO, new SmpPortInfo()),
            Map.entry(Tables.SWITCH_INFO, new SmpSwitchInfo()),
            Map.entry(Tables.PORT_COUNTERS, new PmPortCounters()),
            Map.entry(Tables.PORT_COUNTERS_EXTENDED, new PmPortCountersExtended()),
            Map.entry(Tables.NODE_RECORD, new SaNodeRecord()),
            Map.entry(Tables.PORT_INFO_RECORD, new SaPortInfoRecord()),
            Map.entry(Tables.PATH_RECORD, new SaPathRecord()),
            Map.entry(Tables.LINK_RECORD, new SaLinkRecord()),
            Map.entry(Tables.SM_INFO_RECORD, new SaSmInfoRecord()));

    /** Each grid of {@link Tables}, the class it prints and how many elements it has. */
    static final Map<Grid, Map.Entry<IbaStruct, Integer>> GRIDS = Map.of(
            Tables.P_KEYS, Map.entry(new SmpPKeyTable(), SmpQuery.P_KEYS_PER_BLOCK),
            Tables.GUIDS, Map.entry(new SmpGuidInfo(), SmpQuery.GUIDS_PER_BLOCK),
            Tables.SL_TO_VL, Map.entry(new SmpSlToVlMappingTable(), 16),
            Tables.VL_ARBITRATION_VLS, Map.entry(new SmpVlArbitrationTable(), SmpQuery.VL_ARBITRATION_ENTRIES_PER_BLOCK),
            Tables.VL_ARBITRATION_WEIGHTS, Map.entry(new SmpVlArbitrationTable(), SmpQuery.VL_ARBITRATION_ENTRIES_PER_BLOCK));

    @Test
    void everyTableNamesFieldsItsClassHas() {
        for (var e : TABLES.entrySet()) {
            assertEquals(List.of(), e.getKey().missingFields(e.getValue()), e.getKey().name());
            // and prints without failing, zeros and ones
            e.getKey().print(e.getValue(), DiagOptions.defaults().withShowKeys(true));
        }
        for (var e : GRIDS.entrySet()) {
            assertTrue(e.getKey().fits(e.getValue().getKey(), e.getValue().getValue()), e.getKey().name());
            assertTrue(!e.getKey().fits(e.getValue().getKey(), e.getValue().getValue() + 1),
                    e.getKey().name() + " has more elements than expected");
        }
    }

    @Test
    void everyTableOfTablesIsChecked() throws IllegalAccessException {
        Set<String> unchecked = new TreeSet<>();
        for (var f : Tables.class.getFields()) {
            if (Modifier.isStatic(f.getModifiers())) {
                Object value = f.get(null);
                if (value instanceof Table t && !TABLES.containsKey(t) || value instanceof Grid g && !GRIDS.containsKey(g)) {
                    unchecked.add(f.getName());
                }
            }
        }
        assertEquals(Set.of(), unchecked, "add these to TABLES or GRIDS");
    }

    @Test
    void aMissingFieldIsNamed() {
        Table wrong = Table.ibmad("Wrong", Row.line("Lid", "lidd", Formats.UINT));
        assertEquals(List.of("Wrong: lidd"), wrong.missingFields(new SmpPortInfo()));
        var e = assertThrows(IllegalStateException.class, () -> wrong.print(new SmpPortInfo()));
        assertTrue(e.getMessage().contains("lidd") && e.getMessage().contains("SmpPortInfo"), e.getMessage());
    }

    @Test
    void blockCountsAreSmpquerys() {
        assertEquals(0, SmpQuery.pKeyBlocks(0));
        assertEquals(1, SmpQuery.pKeyBlocks(1));
        assertEquals(1, SmpQuery.pKeyBlocks(32));
        assertEquals(2, SmpQuery.pKeyBlocks(33));
        assertEquals(1, SmpQuery.guidBlocks(1));
        assertEquals(4, SmpQuery.guidBlocks(32));
        assertEquals(0, SmpQuery.vlArbitrationBlocks(0));
        assertEquals(1, SmpQuery.vlArbitrationBlocks(32));
        assertEquals(2, SmpQuery.vlArbitrationBlocks(33));
    }

    @Test
    void pKeysCutTheLastBlockToTheCapacityRoundedUpToEight() {
        SmpPKeyTable block = new SmpPKeyTable();
        block.pKeyBlock(0, 0xffff);
        block.pKeyBlock(9, 0x8001);
        String out = SmpQuery.pKeys(List.of(block, new SmpPKeyTable()), 41);
        assertEquals("""
                   0: 0xffff 0x0000 0x0000 0x0000 0x0000 0x0000 0x0000 0x0000
                   8: 0x0000 0x8001 0x0000 0x0000 0x0000 0x0000 0x0000 0x0000
                  16: 0x0000 0x0000 0x0000 0x0000 0x0000 0x0000 0x0000 0x0000
                  24: 0x0000 0x0000 0x0000 0x0000 0x0000 0x0000 0x0000 0x0000
                  32: 0x0000 0x0000 0x0000 0x0000 0x0000 0x0000 0x0000 0x0000
                  40: 0x0000 0x0000 0x0000 0x0000 0x0000 0x0000 0x0000 0x0000
                41 pkeys capacity for this port
                """, out);
        assertEquals("0 pkeys capacity for this port\n", SmpQuery.pKeys(List.of(), 0));
        assertThrows(IllegalArgumentException.class, () -> SmpQuery.pKeys(List.of(block), 33));
    }

    @Test
    void vlArbitrationAboveThirtyTwoEntriesTakesASecondBlockAfterABlankLine() {
        SmpVlArbitrationTable first = new SmpVlArbitrationTable();
        first.vlWeightBlock(0, 0x0f_ff);
        SmpVlArbitrationTable second = new SmpVlArbitrationTable();
        second.vlWeightBlock(1, 0x0e_10);
        String out = SmpQuery.vlArbitration(PortId.lid(5), 1, 34, 0, List.of(first, second), List.of());
        String firstVls = "VL    : |0xF |" + "0x0 |".repeat(31);
        String firstWeights = "WEIGHT: |0xFF|" + "0x0 |".repeat(31);
        assertEquals("# VLArbitration tables: Lid 5 port 1 LowCap 34 HighCap 0\n"
                + "# Low priority VL Arbitration Table:\n" + firstVls + "\n" + firstWeights + "\n"
                + "\nVL    : |0x0 |0xE |\nWEIGHT: |0x0 |0x10|\n", out);
    }
}
