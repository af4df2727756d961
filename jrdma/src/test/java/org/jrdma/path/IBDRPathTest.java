package org.jrdma.path;

import static org.jrdma.path.Fixtures.PORT_1;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.OptionalInt;
import java.util.function.Consumer;
import java.util.stream.IntStream;
import org.jrdma.iba.Lid;
import org.junit.jupiter.api.Test;

/** {@link IBDRPath}: directed routes for SMPs. */
class IBDRPathTest {
    @Test
    void defaultsAreTheRouteToTheLocalPortOnQp0() {
        IBDRPath path = IBDRPath.builder(null).build();
        assertEquals(Lid.PERMISSIVE, path.dlid());
        assertEquals(Lid.PERMISSIVE, path.slid());
        assertEquals(Lid.PERMISSIVE, path.drSlid());
        assertEquals(Lid.PERMISSIVE, path.drDlid());
        assertArrayEquals(new byte[] {0}, path.drPath());
        assertEquals(0, path.hopCount());
        assertEquals(OptionalInt.of(0), path.dqpn());
        assertEquals(OptionalInt.of(0), path.sqpn());
        assertEquals(OptionalInt.of(0), path.qkey());
        assertFalse(path.hasGrh());
        assertFalse(path.complete(), "no end port");
        assertTrue(IBDRPath.builder(PORT_1).build().complete());
        assertEquals("IBDRPath(end_port=None)", path.toString());
    }

    @Test
    void holdsARouteOfUpTo63Hops() {
        IBDRPath path = IBDRPath.builder(PORT_1).drPath(0, 1, 254).drSlid(0x10).drDlid(0x20).dlid(5).build();
        assertArrayEquals(new byte[] {0, 1, (byte) 254}, path.drPath());
        assertEquals(2, path.hopCount());
        assertEquals(0x10, path.drSlid());
        assertEquals(0x20, path.drDlid());
        assertEquals("IBDRPath(end_port='mlx4_0/1', DLID=5, drSLID=16, drDLID=32, drPath=0:1:254:)", path.toString());
        path.drPath()[1] = 9;
        assertArrayEquals(new byte[] {0, 1, (byte) 254}, path.drPath(), "drPath() gives a copy");

        int[] longest = IntStream.range(0, 64).map(i -> i == 0 ? 0 : i).toArray();
        assertEquals(63, IBDRPath.builder(null).drPath(longest).build().hopCount());
    }

    @Test
    void rejectsMalformedRoutes() {
        record Case(String message, int... ports) {
        }
        for (Case c : List.of(
                new Case("drPath must have 1 to 64 entries (0 to 63 hops), not 0"),
                new Case("drPath must have 1 to 64 entries (0 to 63 hops), not 65", new int[65]),
                new Case("drPath must start with 0, the local node, not 1", 1, 2),
                new Case("drPath entry 1 255 is outside 0 to 254", 0, 255),
                new Case("drPath entry 2 -1 is outside 0 to 254", 0, 1, -1))) {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                    () -> IBDRPath.builder(null).drPath(c.ports), c.message);
            assertEquals(c.message, e.getMessage());
        }
        assertEquals("drSLID 65536 is outside 0 to 65535",
                assertThrows(IllegalArgumentException.class, () -> IBDRPath.builder(null).drSlid(0x10000)).getMessage());
        assertEquals("drDLID -1 is outside 0 to 65535",
                assertThrows(IllegalArgumentException.class, () -> IBDRPath.builder(null).drDlid(-1)).getMessage());
    }

    @Test
    void gidAddressingIsNotPossible() {
        assertEquals("has_grh: GID addressing is not possible for DR paths",
                assertThrows(IllegalStateException.class, () -> IBDRPath.builder(null).hasGrh(true)).getMessage());
        assertThrows(IllegalStateException.class, () -> IBDRPath.builder(PORT_1).sgidIndex(0));
        assertThrows(UnsupportedOperationException.class, () -> IBDRPath.builder(PORT_1).build().sgidIndex());
        assertFalse(IBDRPath.builder(null).hasGrh(false).build().hasGrh());
    }

    @Test
    void routeAttributesBelongToDirectedRoutesOnly() {
        for (Consumer<IBPath.Builder<?>> set : List.<Consumer<IBPath.Builder<?>>>of(
                b -> b.drPath(0), b -> b.drSlid(1), b -> b.drDlid(1))) {
            IllegalStateException e = assertThrows(IllegalStateException.class, () -> set.accept(IBPath.builder(null)));
            assertTrue(e.getMessage().endsWith(" is an attribute of IBDRPath, not of IBPath"), e.getMessage());
        }
    }

    @Test
    void copyAndReverseKeepTheKindAndTheRoute() {
        IBDRPath path = IBDRPath.builder(PORT_1).drPath(0, 3).slid(0x10).dlid(0x20).sqpn(0).dqpn(0).build();
        IBDRPath copy = path.copy(b -> b.sl(2));
        assertEquals(2, copy.sl());
        assertArrayEquals(path.drPath(), copy.drPath());
        IBDRPath reversed = path.reverse();
        assertEquals(0x20, reversed.slid());
        assertEquals(0x10, reversed.dlid());
        assertArrayEquals(new byte[] {0, 3}, reversed.drPath());
        assertEquals(Lid.PERMISSIVE, reversed.drSlid());
        assertEquals(path, path.reverse(false).reverse(false));
        assertEquals(path, path.toBuilder().build());
        assertEquals(path.pkeyIndex(), path.copy(b -> { }).pkeyIndex());
    }

    @Test
    void equalityIncludesTheRoute() {
        IBDRPath a = IBDRPath.builder(PORT_1).drPath(0, 1).build();
        assertEquals(a, IBDRPath.builder(PORT_1).drPath(0, 1).build());
        assertEquals(a.hashCode(), IBDRPath.builder(PORT_1).drPath(0, 1).build().hashCode());
        assertNotEquals(a, IBDRPath.builder(PORT_1).drPath(0, 2).build());
        assertNotEquals(a, a.copy(b -> b.drSlid(1)));
        assertNotEquals(a, a.copy(b -> b.drDlid(1)));
    }
}
