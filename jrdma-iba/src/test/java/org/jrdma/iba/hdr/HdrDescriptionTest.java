package org.jrdma.iba.hdr;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.HexFormat;
import org.jrdma.iba.Gid;
import org.junit.jupiter.api.Test;

/** Spot checks of the packet header descriptions (hdr.iba) against hand-built bytes. */
class HdrDescriptionTest {
    private static byte[] hex(String s) {
        return HexFormat.of().parseHex(s.replace(" ", ""));
    }

    @Test
    void bthRoundTrips() {
        // RC SEND_ONLY (0x04), SE, MigReq, pad 3, TVer 0, P_Key 0xFFFF, FECN, DestQP 0x123456,
        // AckReq, PSN 0xABCDEF.
        byte[] wire = hex("04 F0 FFFF 80 123456 80 ABCDEF");
        HdrBth bth = HdrBth.decode(wire, 0);
        assertEquals(0x04, bth.opCode());
        assertEquals(1, bth.se());
        assertEquals(1, bth.m());
        assertEquals(3, bth.padCnt());
        assertEquals(0, bth.tVer());
        assertEquals(0xFFFF, bth.pKey());
        assertEquals(1, bth.fecn());
        assertEquals(0, bth.becn());
        assertEquals(0x123456, bth.destQp());
        assertEquals(1, bth.a());
        assertEquals(0xABCDEF, bth.psn());
        assertArrayEquals(wire, new HdrBth().opCode(0x04).se(1).m(1).padCnt(3).pKey(0xFFFF).fecn(1)
                .destQp(0x123456).a(1).psn(0xABCDEF).toBytes());
        assertEquals(12, HdrBth.SIZE);
        assertThrows(IllegalArgumentException.class, () -> bth.destQp(1 << 24));
        assertEquals((byte) 0x40, new HdrBth().becn(1).toBytes()[4]);
    }

    @Test
    void lrhPacksItsNibblesAndPacketLength() {
        // VL 15, LVer 0, SL 3, LNH 2 (IBA local), DLID 0xFFFF, PktLen 0x7FF, SLID 1
        byte[] wire = hex("F0 32 FFFF 07FF 0001");
        HdrLrh lrh = HdrLrh.decode(wire, 0);
        assertEquals(15, lrh.vl());
        assertEquals(0, lrh.lVer());
        assertEquals(3, lrh.sl());
        assertEquals(2, lrh.lnh());
        assertEquals(0xFFFF, lrh.dlid());
        assertEquals(0x7FF, lrh.pktLen());
        assertEquals(1, lrh.slid());
        assertArrayEquals(wire, new HdrLrh().vl(15).sl(3).lnh(2).dlid(0xFFFF).pktLen(0x7FF).slid(1).toBytes());
    }

    @Test
    void grhCarriesVersionClassFlowAndGids() {
        Gid sgid = new Gid(0xFE80000000000000L, 0x0002C90300000001L);
        Gid dgid = new Gid(0xFF12401BFFFF0000L, 0x00000000FFFFFFFFL);
        HdrGrh grh = new HdrGrh().ipVer(6).tClass(0xAB).flowLabel(0xFFFFF).payLen(256).nxtHdr(0x1B).hopLmt(64)
                .sgid(sgid).dgid(dgid);
        byte[] b = grh.toBytes();
        assertArrayEquals(hex("6ABFFFFF 0100 1B 40"), java.util.Arrays.copyOfRange(b, 0, 8));
        assertEquals(sgid, HdrGrh.decode(b, 0).sgid());
        assertEquals(dgid, HdrGrh.decode(b, 0).dgid());
        assertEquals(40, b.length);
    }

    @Test
    void extendedTransportHeaders() {
        assertArrayEquals(hex("11223344 00 654321"), new HdrDeth().qKey(0x11223344L).srcQp(0x654321).toBytes());
        assertArrayEquals(hex("0000000100000000 CAFEBABE 00001000"),
                new HdrReth().va(1L << 32).rKey(0xCAFEBABEL).dmaLen(4096).toBytes());
        HdrAtomicEth atomic = new HdrAtomicEth().va(-1L).rKey(2).swapData(3).compareData(-2L);
        assertArrayEquals(hex("FFFFFFFFFFFFFFFF 00000002 0000000000000003 FFFFFFFFFFFFFFFE"), atomic.toBytes());
        assertArrayEquals(hex("60 000102"), new HdrAeth().syndrome(0x60).msn(0x102).toBytes());
        assertArrayEquals(hex("8000000000000000"), new HdrAtomicAckEth().origRemDt(Long.MIN_VALUE).toBytes());
        assertArrayEquals(hex("DEADBEEF"), new HdrImmDt().immediateData(0xDEADBEEFL).toBytes());
        assertArrayEquals(hex("00000042"), new HdrIeth().rKey(0x42).toBytes());
        assertArrayEquals(hex("00 ABCDEF"), new HdrRdeth().eeCnxt(0xABCDEF).toBytes());
    }
}
