package org.jrdma.iba;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.EnumSet;
import java.util.List;
import java.util.function.IntFunction;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Every constant of the IBA enums: its number, its text, and the lookups around them. */
class ConstantsTest {
    @ParameterizedTest
    @CsvSource({"CA, 1, Channel Adapter", "SWITCH, 2, Switch", "ROUTER, 3, Router"})
    void nodeTypes(NodeType type, int value, String text) {
        assertConstant(type, value, text, type.value(), type.text(), NodeType::fromValue, NodeType::fromValueOrNull,
                NodeType::describe);
    }

    @ParameterizedTest
    @CsvSource({"NO_CHANGE, 0, NoChange", "DOWN, 1, Down", "INIT, 2, Initialize", "ARMED, 3, Armed",
        "ACTIVE, 4, Active"})
    void portStates(PortState state, int value, String text) {
        assertConstant(state, value, text, state.value(), state.text(), PortState::fromValue,
                PortState::fromValueOrNull, PortState::describe);
    }

    @ParameterizedTest
    @CsvSource({"NO_CHANGE, 0, NoChange", "SLEEP, 1, Sleep", "POLLING, 2, Polling", "DISABLED, 3, Disabled",
        "PORT_CONFIGURATION_TRAINING, 4, PortConfigurationTraining", "LINK_UP, 5, LinkUp",
        "LINK_ERROR_RECOVERY, 6, LinkErrorRecovery", "PHY_TEST, 7, PhyTest"})
    void physPortStates(PhysPortState state, int value, String text) {
        assertConstant(state, value, text, state.value(), state.text(), PhysPortState::fromValue,
                PhysPortState::fromValueOrNull, PhysPortState::describe);
    }

    @ParameterizedTest
    @CsvSource({"MTU_256, 1, 256", "MTU_512, 2, 512", "MTU_1024, 3, 1024", "MTU_2048, 4, 2048",
        "MTU_4096, 5, 4096"})
    void mtus(Mtu mtu, int value, int bytes) {
        assertConstant(mtu, value, Integer.toString(bytes), mtu.value(), mtu.text(), Mtu::fromValue,
                Mtu::fromValueOrNull, Mtu::describe);
        assertEquals(bytes, mtu.bytes());
        assertSame(mtu, Mtu.fromBytes(bytes));
    }

    @ParameterizedTest
    @CsvSource({"WIDTH_1X, 1, 1X, 1", "WIDTH_4X, 2, 4X, 4", "WIDTH_8X, 4, 8X, 8", "WIDTH_12X, 8, 12X, 12",
        "WIDTH_2X, 16, 2X, 2"})
    void linkWidths(LinkWidth width, int value, String text, int lanes) {
        assertConstant(width, value, text, width.value(), width.text(), LinkWidth::fromValue,
                LinkWidth::fromValueOrNull, LinkWidth::describe);
        assertEquals(lanes, width.lanes());
    }

    @ParameterizedTest
    @CsvSource({"SDR, 1, 2.5 Gbps, 2.5", "DDR, 2, 5.0 Gbps, 5.0", "QDR, 4, 10.0 Gbps, 10.0"})
    void linkSpeeds(LinkSpeed speed, int value, String text, double gbps) {
        assertConstant(speed, value, text, speed.value(), speed.text(), LinkSpeed::fromValue,
                LinkSpeed::fromValueOrNull, LinkSpeed::describe);
        assertEquals(gbps, speed.gbps());
    }

    @ParameterizedTest
    @CsvSource({"FDR, 1, 14.0625 Gbps, 14.0625", "EDR, 2, 25.78125 Gbps, 25.78125", "HDR, 4, 53.125 Gbps, 53.125",
        "NDR, 8, 106.25 Gbps, 106.25"})
    void linkSpeedsExt(LinkSpeedExt speed, int value, String text, double gbps) {
        assertConstant(speed, value, text, speed.value(), speed.text(), LinkSpeedExt::fromValue,
                LinkSpeedExt::fromValueOrNull, LinkSpeedExt::describe);
        assertEquals(gbps, speed.gbps());
    }

    @ParameterizedTest
    @CsvSource({
        "RATE_2_5_GBPS, 2, 2.5, 2500, 2.5 Gbps", "RATE_10_GBPS, 3, 10, 10000, 10 Gbps",
        "RATE_30_GBPS, 4, 30, 30000, 30 Gbps", "RATE_5_GBPS, 5, 5, 5000, 5 Gbps",
        "RATE_20_GBPS, 6, 20, 20000, 20 Gbps", "RATE_40_GBPS, 7, 40, 40000, 40 Gbps",
        "RATE_60_GBPS, 8, 60, 60000, 60 Gbps", "RATE_80_GBPS, 9, 80, 80000, 80 Gbps",
        "RATE_120_GBPS, 10, 120, 120000, 120 Gbps", "RATE_14_GBPS, 11, 14, 14062, 14 Gbps",
        "RATE_56_GBPS, 12, 56, 56250, 56 Gbps", "RATE_112_GBPS, 13, 112, 112500, 112 Gbps",
        "RATE_168_GBPS, 14, 168, 168750, 168 Gbps", "RATE_25_GBPS, 15, 25, 25781, 25 Gbps",
        "RATE_100_GBPS, 16, 100, 103125, 100 Gbps", "RATE_200_GBPS, 17, 200, 206250, 200 Gbps",
        "RATE_300_GBPS, 18, 300, 309375, 300 Gbps", "RATE_28_GBPS, 19, 28, 28125, 28 Gbps",
        "RATE_50_GBPS, 20, 50, 53125, 50 Gbps", "RATE_400_GBPS, 21, 400, 425000, 400 Gbps",
        "RATE_600_GBPS, 22, 600, 637500, 600 Gbps", "RATE_800_GBPS, 23, 800, 850000, 800 Gbps",
        "RATE_1200_GBPS, 24, 1200, 1275000, 1200 Gbps",
    })
    void staticRates(StaticRate rate, int value, double gbps, int mbps, String text) {
        assertEquals(value, rate.value());
        assertEquals(gbps, rate.gbps());
        assertEquals(mbps, rate.mbps());
        assertEquals(text, rate.text());
        assertSame(rate, StaticRate.fromValue(value));
        assertSame(rate, StaticRate.fromValueOrNull(value));
    }

    @Test
    void everyEnumIsCoveredByTheTablesAbove() {
        assertEquals(3, NodeType.values().length);
        assertEquals(5, PortState.values().length);
        assertEquals(8, PhysPortState.values().length);
        assertEquals(5, Mtu.values().length);
        assertEquals(5, LinkWidth.values().length);
        assertEquals(3, LinkSpeed.values().length);
        assertEquals(4, LinkSpeedExt.values().length);
        assertEquals(23, StaticRate.values().length);
    }

    @Test
    void unknownValuesAreRejectedOrNull() {
        assertUnknown(NodeType::fromValue, NodeType::fromValueOrNull, List.of(0, 4, -1, 255),
                "Unknown NodeInfo:NodeType ");
        assertUnknown(PortState::fromValue, PortState::fromValueOrNull, List.of(5, 15, -1), "Unknown PortInfo:PortState ");
        assertUnknown(PhysPortState::fromValue, PhysPortState::fromValueOrNull, List.of(8, 15, -1),
                "Unknown PortInfo:PortPhysicalState ");
        assertUnknown(Mtu::fromValue, Mtu::fromValueOrNull, List.of(0, 6, 15, -1), "Unknown encoded MTU ");
        assertUnknown(LinkWidth::fromValue, LinkWidth::fromValueOrNull, List.of(0, 3, 32, 255, -1),
                "Unknown PortInfo:LinkWidthActive ");
        assertUnknown(LinkSpeed::fromValue, LinkSpeed::fromValueOrNull, List.of(0, 3, 8, 15, -1),
                "Unknown PortInfo:LinkSpeedActive ");
        assertUnknown(LinkSpeedExt::fromValue, LinkSpeedExt::fromValueOrNull, List.of(0, 3, 16, 30, -1),
                "Unknown PortInfo:LinkSpeedExtActive ");
        assertUnknown(StaticRate::fromValue, StaticRate::fromValueOrNull, List.of(0, 1, 25, 63, -1),
                "Unknown encoded rate ");
        var max = assertThrows(IllegalArgumentException.class, () -> StaticRate.fromValue(0));
        assertTrue(max.getMessage().contains("IBV_RATE_MAX"), max.getMessage());
    }

    @Test
    void mtuFromBytesRejectsOtherSizes() {
        for (int bytes : new int[] {0, 1, 255, 257, 1500, 8192, -256}) {
            var error = assertThrows(IllegalArgumentException.class, () -> Mtu.fromBytes(bytes));
            assertTrue(error.getMessage().startsWith("No IB MTU of " + bytes + " bytes"), error.getMessage());
        }
    }

    @Test
    void describeUsesTheFallbacksOfLibibmad() {
        assertEquals("?(0)?", NodeType.describe(0));
        assertEquals("?(5)", PortState.describe(5));
        assertEquals("?(8)", PhysPortState.describe(8));
        assertEquals("?(0)", Mtu.describe(0));
        assertEquals("undefined (3)", LinkWidth.describe(3));
        assertEquals("Extended speed", LinkSpeed.describe(0));
        assertEquals("undefined (3)", LinkSpeed.describe(3));
        assertEquals("No Extended Speed", LinkSpeedExt.describe(0));
        assertEquals("undefined (16)", LinkSpeedExt.describe(16));
    }

    @Test
    void masksRoundTrip() {
        assertEquals(EnumSet.of(LinkWidth.WIDTH_1X, LinkWidth.WIDTH_4X), LinkWidth.fromMask(0x03));
        assertEquals(EnumSet.allOf(LinkWidth.class), LinkWidth.fromMask(0xFF));
        assertEquals(0x1F, LinkWidth.toMask(LinkWidth.fromMask(0xFF)));
        assertEquals(EnumSet.noneOf(LinkWidth.class), LinkWidth.fromMask(0));
        assertEquals(EnumSet.of(LinkSpeed.SDR, LinkSpeed.QDR), LinkSpeed.fromMask(0x5));
        assertEquals(0x7, LinkSpeed.toMask(EnumSet.allOf(LinkSpeed.class)));
        assertEquals(EnumSet.of(LinkSpeedExt.FDR, LinkSpeedExt.EDR), LinkSpeedExt.fromMask(0x3));
        assertEquals(0xF, LinkSpeedExt.toMask(EnumSet.allOf(LinkSpeedExt.class)));
        for (int mask = 0; mask < 0x20; mask++) {
            assertEquals(mask, LinkWidth.toMask(LinkWidth.fromMask(mask)));
            assertEquals(mask & 0x7, LinkSpeed.toMask(LinkSpeed.fromMask(mask)));
            assertEquals(mask & 0xF, LinkSpeedExt.toMask(LinkSpeedExt.fromMask(mask)));
        }
    }

    private static <E> void assertConstant(E constant, int value, String text, int actualValue, String actualText,
            IntFunction<E> fromValue, IntFunction<E> fromValueOrNull, IntFunction<String> describe) {
        assertEquals(value, actualValue);
        assertEquals(text, actualText);
        assertSame(constant, fromValue.apply(value));
        assertSame(constant, fromValueOrNull.apply(value));
        assertEquals(text, describe.apply(value));
    }

    private static <E> void assertUnknown(IntFunction<E> fromValue, IntFunction<E> fromValueOrNull,
            List<Integer> values, String messageStart) {
        for (int value : values) {
            assertNull(fromValueOrNull.apply(value), "value " + value);
            var error = assertThrows(IllegalArgumentException.class, () -> fromValue.apply(value));
            assertTrue(error.getMessage().startsWith(messageStart + value + " "), error.getMessage());
        }
    }
}
