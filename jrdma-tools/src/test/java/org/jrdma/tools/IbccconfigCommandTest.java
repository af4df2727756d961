package org.jrdma.tools;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.jrdma.testkit.fabric.Fabric;
import org.jrdma.testkit.junit.SimulatedFabric;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * {@code ibtool ibccconfig} against infiniband-diags' ibccconfig on the same fat tree (attached at
 * spine1, LID 1; LID 4 is node01's HCA): the argument checks of every operation, with the C tool's
 * reasons, and the Sets ibsim answers (it hands a CC MAD to the SMP handler of the same attribute
 * number): refused with a status for CongestionKeyInfo and SwitchCongestionSetting, accepted for
 * CACongestionSetting and the CongestionControlTable. The Sets go to the HCA only: on a switch,
 * ibsim's handlers would write stale bytes into its SwitchInfo or PortInfo.
 */
@SimulatedFabric(topology = "fat-tree")
class IbccconfigCommandTest {

    @ParameterizedTest
    @ValueSource(strings = {"CK 4 1 0 5 0", "CK 4 1 2 5 0", "CK 4 1 0 70000 0", "CK 4 1 0 5 70000", "CK 4 zz 0 0 0",
        "CK 4 99999999999999999999 0 0 0", "CK 4 1 0", "SS 4 0x1F 0x1FFFFFFFFF 0x0 0xF 8 0 0:0 1", "SS 4 0x1F 0xZZ 0 0 0 0 0:0 1",
        "SS 4 1 2 3 4 5 6 7 8", "SS 4 1 0x11111111111111111111111111111111111111111111111111111111111111111 3 4 5 6 0:7 8",
        "SP 4 1 1 0 0 0 0", "SP 1 99 1 0 0 0 0", "SP 4 1 1", "SP 4 x 1 0 0 0 0", "CS 4 0 0x3 150 1 0 0", "CS 4 0 0x3 150",
        "CT 4 63 0 0:0 0:1", "CT 4 1 0 0:0 0:1", "CT 4 0 0", "CT 4 1 0 0:0 5", "CT 4", "CT 4 0 0 :", "CT 4 0 0 0x1:-1",
        "CI 4", "CP 4", "foo 4", "CK 0 1 0 0 0", "-c 0x10 ct 4 0 0"})
    void answersAsTheCToolDoes(String args, Fabric fabric) {
        AgainstC.run(fabric, "ibccconfig", args.split(" ")).assertSame();
    }

    /**
     * {@code --json}: the attribute as written, with the Set's modifier, where the text prints
     * nothing; an argument the C tool refuses is the error document with its message (README, "JSON output").
     */
    @Test
    void jsonHasTheAttributeWritten(Fabric fabric) {
        String sim = fabric.socketName();
        TextAndJson ca = TextAndJson.of("ibccconfig", "--sim", sim, "CS", "4", "0", "0x3", "150", "1", "0", "0");
        assertEquals(0, ca.json().exitCode(), ca.json().err());
        assertEquals("", ca.text().out());
        assertEquals("CACongestionSetting", ca.document().get("attribute").asText());
        assertEquals(0, ca.document().get("attributeModifier").asInt());
        assertEquals(3, ca.document().at("/value/controlMap").asInt());
        assertEquals(150, ca.document().at("/value/caCongestionEntryList/1/cctiTimer").asInt());
        assertEquals(0, ca.document().at("/value/caCongestionEntryList/2/cctiTimer").asInt());
        TextAndJson table = TextAndJson.of("ibccconfig", "--sim", sim, "CT", "4", "1", "0", "0:0", "0:1");
        assertEquals(0, table.json().exitCode(), table.json().err());
        assertEquals(0, table.document().get("attributeModifier").asInt());
        assertEquals(1, table.document().at("/value/cctiLimit").asInt());
        assertEquals(1, table.document().at("/value/cctiEntryList/1/cctMultiplier").asInt());
        TextAndJson bad = TextAndJson.of("ibccconfig", "--sim", sim, "SP", "4", "1", "1");
        assertEquals(255, bad.error().get("status").asInt());
        assertEquals(bad.text().out().replaceFirst("^ibccconfig: iberror: failed: ", "").strip(), bad.error().get("message").asText());
        assertEquals("operation SP: invalid number of parameters for SwitchPortCongestion", bad.error().get("message").asText());
    }

    @Test
    void badOptionsHelpAndVersionAnswerAsTheCToolDoes(Fabric fabric) {
        for (String[] args : new String[][] {{"CK"}, {}, {"-Q", "CK", "4"}, {"-c"}, {"-h"}}) {
            AgainstC.run(fabric, "ibccconfig", args).assertUsageError();
        }
        IbtoolRun version = IbtoolRun.of("ibccconfig", "-V");
        assertEquals(0, version.exitCode());
        assertEquals("ibccconfig BUILD VERSION: jrdma ibtool 0.1.0\n", version.err());
    }
}
