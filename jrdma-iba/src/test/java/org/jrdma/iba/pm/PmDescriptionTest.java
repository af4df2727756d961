package org.jrdma.iba.pm;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.HexFormat;
import org.jrdma.iba.cc.CcCongestionLog;
import org.jrdma.iba.cc.CcCongestionLogSwitch;
import org.jrdma.iba.cc.CcSwitchPortCongestionSetting;
import org.jrdma.iba.mad.MadClassPortInfo;
import org.jrdma.iba.mad.PmFormat;
import org.jrdma.iba.mad.SaFormat;
import org.jrdma.iba.wire.IbaStructs;
import org.junit.jupiter.api.Test;

/** Spot checks of the performance management descriptions (pm.iba) against hand-built bytes. */
class PmDescriptionTest {
    private static byte[] hex(String s) {
        return HexFormat.of().parseHex(s.replace(" ", ""));
    }

    @Test
    void portCountersDecodeFromHandBuiltBytes() {
        byte[] b = new byte[PmPortCounters.SIZE];
        b[1] = 3;                                   // PortSelect
        b[2] = (byte) 0xF0; b[3] = 0x0F;            // CounterSelect
        b[4] = 0x12; b[5] = 0x34;                   // SymbolErrorCounter
        b[6] = 7;                                   // LinkErrorRecoveryCounter
        b[7] = (byte) 0xFF;                         // LinkDownedCounter
        b[19] = (byte) 0xA5;                        // LocalLinkIntegrityErrors | ExcessiveBufferOverrunErrors
        b[20] = 0x01; b[21] = 0x02;                 // QP1Dropped
        b[22] = 0x03; b[23] = 0x04;                 // VL15Dropped
        b[24] = (byte) 0xDE; b[25] = (byte) 0xAD; b[26] = (byte) 0xBE; b[27] = (byte) 0xEF; // PortXmitData
        b[40] = (byte) 0x80; b[43] = 1;             // PortXmitWait
        PmPortCounters pc = PmPortCounters.decode(b, 0);
        assertEquals(44, PmPortCounters.SIZE);
        assertEquals(3, pc.portSelect());
        assertEquals(0xF00F, pc.counterSelect());
        assertEquals(0x1234, pc.symbolErrorCounter());
        assertEquals(7, pc.linkErrorRecoveryCounter());
        assertEquals(255, pc.linkDownedCounter());
        assertEquals(0xA, pc.localLinkIntegrityErrors());
        assertEquals(0x5, pc.excessiveBufferOverrunErrors());
        assertEquals(0x0102, pc.qp1Dropped());
        assertEquals(0x0304, pc.vl15Dropped());
        assertEquals(0xDEADBEEFL, pc.portXmitData());
        assertEquals(0x80000001L, pc.portXmitWait());
        assertArrayEquals(b, new PmPortCounters().portSelect(3).counterSelect(0xF00F).symbolErrorCounter(0x1234)
                .linkErrorRecoveryCounter(7).linkDownedCounter(255).localLinkIntegrityErrors(0xA)
                .excessiveBufferOverrunErrors(5).qp1Dropped(0x0102).vl15Dropped(0x0304)
                .portXmitData(0xDEADBEEFL).portXmitWait(0x80000001L).toBytes());
        assertThrows(IllegalArgumentException.class, () -> pc.localLinkIntegrityErrors(16));
    }

    @Test
    void portCountersExtendedHoldsFull64BitCounters() {
        PmPortCountersExtended pc = new PmPortCountersExtended().portSelect(0xFF).counterSelect(0xFFFF)
                .counterSelect2(0xFFFFFFFFL);
        long max = 0xFFFF_FFFF_FFFF_FFFFL;
        pc.portXmitData(max).portRcvData(max).portXmitPkts(max).portRcvPkts(max).portUnicastXmitPkts(max)
                .portUnicastRcvPkts(max).portMulticastXmitPkts(max).portMulticastRcvPkts(max)
                .symbolErrorCounter(max).linkErrorRecoveryCounter(max).linkDownedCounter(max).portRcvErrors(max)
                .portRcvRemotePhysicalErrors(max).portRcvSwitchRelayErrors(max).portXmitDiscards(max)
                .portXmitConstraintErrors(max).portRcvConstraintErrors(max).localLinkIntegrityErrors(max)
                .excessiveBufferOverrunErrors(max).vl15Dropped(max).portXmitWait(max).qp1Dropped(max);
        byte[] b = pc.toBytes();
        assertEquals(184, b.length);
        assertEquals(0, b[0]);
        for (int i = 1; i < b.length; i++) {
            assertEquals((byte) 0xFF, b[i], "byte " + i);
        }
        PmPortCountersExtended back = PmPortCountersExtended.decode(b, 0);
        assertEquals(max, back.portXmitData());
        assertEquals(max, back.portMulticastRcvPkts());
        assertEquals(max, back.qp1Dropped());
        assertEquals(Long.toUnsignedString(max), Long.toUnsignedString(back.portXmitWait()));

        PmPortCountersExtended one = new PmPortCountersExtended().portRcvData(0x0102030405060708L);
        assertArrayEquals(hex("0102030405060708"), java.util.Arrays.copyOfRange(one.toBytes(), 16, 24));
        assertEquals(128, PmPortCountersExtended.PORT_RCV_DATA_BIT_OFFSET);
    }

    @Test
    void portSamplesControlPacksTheThreeBitMasksAndTheSelects() {
        PmPortSamplesControl psc = new PmPortSamplesControl().counterWidth(5).counterMask0(7)
                .counterMasks1to9(0, 1).counterMasks1to9(8, 7).counterMasks10to14(4, 7)
                .sampleStatus(2).counterSelect(14, 0xABCD);
        byte[] b = psc.toBytes();
        assertEquals(192, b.length);
        assertEquals(0x05, b[3]);                         // 5 reserved bits, CounterWidth
        // bits 32..63: 2 reserved, CounterMask0 = 7, CounterMask1 = 1, CounterMask2..8 = 0, CounterMask9 = 7
        assertArrayEquals(hex("39000007"), java.util.Arrays.copyOfRange(b, 4, 8));
        // bits 64..79: 1 reserved, CounterMask10..13=0, CounterMask14=7
        assertArrayEquals(hex("0007"), java.util.Arrays.copyOfRange(b, 8, 10));
        assertEquals(0x02, b[11]);                        // SampleStatus
        assertArrayEquals(hex("ABCD"), java.util.Arrays.copyOfRange(b, 66, 68));
        assertEquals(7, PmPortSamplesControl.decode(b, 0).counterMasks1to9(8));
    }

    @Test
    void perVlTwoBitCountersAreMsbFirst() {
        PmPortVlXmitFlowCtlUpdateErrors e = new PmPortVlXmitFlowCtlUpdateErrors()
                .portVlXmitFlowCtlUpdateErrors(0, 3).portVlXmitFlowCtlUpdateErrors(15, 1);
        assertArrayEquals(hex("00000000 C0000001"), e.toBytes());
        assertThrows(IndexOutOfBoundsException.class, () -> e.portVlXmitFlowCtlUpdateErrors(16));
    }

    @Test
    void perSlCountersStartAfterTheSelects() {
        PmPortXmitDataSl sl = new PmPortXmitDataSl().portXmitDataSl(0, 1).portXmitDataSl(15, 0xFFFFFFFFL);
        byte[] b = sl.toBytes();
        assertEquals(68, b.length);
        assertEquals(1, b[7]);
        assertArrayEquals(hex("FFFFFFFF"), java.util.Arrays.copyOfRange(b, 64, 68));
    }

    @Test
    void attributesAreRegisteredByClassAndId() {
        assertInstanceOf(PmPortCounters.class, IbaStructs.forAttribute(0x04, 0x0012));
        assertInstanceOf(PmPortCountersExtended.class, IbaStructs.forAttribute(0x04, 0x001D));
        assertInstanceOf(PmPortExtendedSpeedsCounters.class, IbaStructs.forAttribute(0x04, 0x001F));
        assertInstanceOf(PmSwPortVlCongestion.class, IbaStructs.forAttribute(0x04, 0x0030));
        assertInstanceOf(PmPortRcvDataSl.class, IbaStructs.forAttribute(0x04, 0x0037));
        for (int cls : new int[] {0x03, 0x04, 0x05, 0x06, 0x07, 0x08, 0x21}) {
            assertInstanceOf(MadClassPortInfo.class, IbaStructs.forAttribute(cls, 0x0001), "class " + cls);
        }
        assertNull(IbaStructs.forAttribute(0x01, 0x0001));
        assertInstanceOf(CcCongestionLog.class, IbaStructs.forAttribute(0x21, 0x0013));
        assertInstanceOf(CcSwitchPortCongestionSetting.class, IbaStructs.forAttribute(0x21, 0x0015));
        assertEquals(1L << 1, PmPortSamplesResult.METHOD_MASK);
        assertEquals((1L << 1) | (1L << 2), PmPortCounters.METHOD_MASK);
    }

    @Test
    void pmMadCarriesTheAttributeAtByte64() {
        PmFormat mad = new PmFormat();
        mad.header().baseVersion(1).mgmtClass(0x04).classVersion(1).method(0x01).attributeId(0x0012);
        new PmPortCounters().portSelect(7).pack(mad.buffer(), mad.offset() + PmFormat.DATA_BIT_OFFSET / 8);
        byte[] b = mad.toBytes();
        assertArrayEquals(hex("01040101"), java.util.Arrays.copyOfRange(b, 0, 4));
        assertEquals(0x12, b[17]);
        assertEquals(7, b[65]);
        assertEquals(7, PmPortCounters.decode(mad.data(), 0).portSelect());
    }

    @Test
    void saMadHeaderFieldsSitWhereLibibmadPutsThem() {
        SaFormat sa = new SaFormat().smKey(0x1122334455667788L).attributeOffset(8).componentMask(0x8000000000000001L);
        sa.rmppHeader().rmppVersion(1).rmppType(1).rmppRespTime(0x1F).rmppFlags(0x7).rmppStatus(0).data1(2)
                .data2(0x120);
        byte[] b = sa.toBytes();
        assertArrayEquals(hex("0101FF00 00000002 00000120 1122334455667788 0008 0000"
                + "8000000000000001"), java.util.Arrays.copyOfRange(b, 24, 56));
    }

    @Test
    void switchCongestionLogEventsFollowThePortMap() {
        CcCongestionLogSwitch log = new CcCongestionLogSwitch().logType(1).logEventsCounter(2);
        log.congestionEntryList(0).slid(0x0102).dlid(0x0304).sl(0xF).timestamp(0xA0B0C0D0L);
        log.congestionEntryList(14).slid(0xFFFF);
        byte[] b = log.toBytes();
        assertEquals(220, b.length);
        assertArrayEquals(hex("01020304 F0000000 A0B0C0D0"), java.util.Arrays.copyOfRange(b, 40, 52));
        assertArrayEquals(hex("FFFF"), java.util.Arrays.copyOfRange(b, 40 + 14 * 12, 40 + 14 * 12 + 2));
        assertEquals(1, new CcCongestionLog(b, 0).logType());
    }
}
