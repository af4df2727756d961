package org.jrdma.verbs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.foreign.MemorySegment;
import java.nio.ByteBuffer;
import java.util.List;
import org.jrdma.devices.EndPort;
import org.jrdma.devices.LinkLayer;
import org.jrdma.iba.Gid;
import org.jrdma.iba.PhysPortState;
import org.jrdma.iba.PortState;
import org.jrdma.path.IBPath;
import org.junit.jupiter.api.Test;

/**
 * The GRH area of a UD receive buffer as {@link WcPath} reads it: an IBA GRH (IBA 8.3, the
 * layout of an IPv6 header) and the RoCE v2 IPv4 form, built byte by byte here; the completion
 * fields are checked with real traffic in the soft-RoCE VM ({@code VtoolsInVm}).
 */
class WcPathTest {
    private static final Gid SGID = Gid.parse("fe80::5054:ff:fe12:3456");
    private static final Gid DGID = Gid.parse("fe80::5054:ff:fe65:4321");
    private static final EndPort ROCE = EndPort.builder("rxe0", 1).state(PortState.ACTIVE)
            .physState(PhysPortState.LINK_UP).linkLayer(LinkLayer.ETHERNET).gids(List.of(DGID)).pkeys(0xFFFF)
            .build();

    private static IBPath decode(byte[] area, int offset) {
        IBPath.Builder<? extends IBPath> b = IBPath.builder(ROCE);
        WcPath.grh(b, MemorySegment.ofArray(area), offset);
        return b.build();
    }

    @Test
    void readsAnIbaGrh() {
        ByteBuffer grh = ByteBuffer.allocate(8 + WcPath.GRH_BYTES);
        grh.position(8);
        grh.putInt(6 << 28 | 0x5A << 20 | 0xABCDE).putShort((short) 64).put((byte) 0x1B).put((byte) 17);
        grh.put(SGID.toBytes()).put(DGID.toBytes());
        IBPath path = decode(grh.array(), 8);
        assertTrue(path.hasGrh());
        assertEquals(0x5A, path.trafficClass());
        assertEquals(0xABCDE, path.flowLabel());
        assertEquals(17, path.hopLimit());
        assertEquals(SGID, path.sgid().orElseThrow());
        assertEquals(DGID, path.dgid().orElseThrow());
        IBPath reply = path.reverse();
        assertEquals(DGID, reply.sgid().orElseThrow());
        assertEquals(SGID, reply.dgid().orElseThrow());
        assertEquals(255, reply.hopLimit(), "a reply's hop limit");
        assertEquals(0, reply.sgidIndex(), "the local GID's index");
    }

    @Test
    void readsARoceV2Ipv4Header() {
        ByteBuffer area = ByteBuffer.allocate(WcPath.GRH_BYTES);
        area.position(20);
        area.put((byte) 0x45).put((byte) 0x88).putShort((short) 60).putInt(0).put((byte) 63).put((byte) 17)
                .putShort((short) 0).put(new byte[] {10, 0, 0, 2}).put(new byte[] {10, 0, 0, 1});
        IBPath path = decode(area.array(), 0);
        assertTrue(path.hasGrh());
        assertEquals(Gid.parse("::ffff:10.0.0.2"), path.sgid().orElseThrow());
        assertEquals(Gid.parse("::ffff:10.0.0.1"), path.dgid().orElseThrow());
        assertEquals(63, path.hopLimit());
        assertEquals(0x88, path.trafficClass());
        assertEquals(0, path.flowLabel());
    }

    @Test
    void refusesAnAreaThatIsNeither() {
        byte[] area = new byte[WcPath.GRH_BYTES];
        assertThrows(IllegalArgumentException.class, () -> decode(area, 0));
        area[0] = 0x45;
        assertThrows(IllegalArgumentException.class, () -> decode(area, 0));
        assertThrows(IndexOutOfBoundsException.class, () -> decode(new byte[WcPath.GRH_BYTES + 4], 8));
    }
}
