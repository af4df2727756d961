package org.jrdma.iba.smp;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.jrdma.iba.Gid;
import org.jrdma.iba.Guid;
import org.jrdma.iba.wire.Field;
import org.jrdma.iba.wire.IbaStruct;
import org.jrdma.iba.wire.IbaStructs;
import org.junit.jupiter.api.Test;

/**
 * Spot checks of the subnet management attribute descriptions (smp.iba) against bytes laid out by
 * hand from the IBA tables (14.2.5), independently of the generator's own arithmetic.
 */
class SmpDescriptionTest {
    private static final int GET = 1 << 0x01;
    private static final int SET = 1 << 0x02;

    private static byte[] hex(String text) {
        String s = text.replaceAll("\\s+", "");
        byte[] out = new byte[s.length() / 2];
        for (int i = 0; i < out.length; i++) {
            out[i] = (byte) Integer.parseInt(s.substring(2 * i, 2 * i + 2), 16);
        }
        return out;
    }

    /** A PortInfo of an active 4x port with LID 0x1234, LMC 2, as a switch would return it. */
    private static byte[] portInfoBytes() {
        byte[] b = new byte[64];
        System.arraycopy(hex("0102030405060708"), 0, b, 0, 8);          // M_Key
        System.arraycopy(hex("fe80000000000000"), 0, b, 8, 8);          // GidPrefix
        System.arraycopy(hex("1234 0001"), 0, b, 16, 4);                // LID, MasterSMLID
        System.arraycopy(hex("0251084a"), 0, b, 20, 4);                 // CapabilityMask
        b[28] = 3;                                                      // LocalPortNum
        b[29] = 3;                                                      // LinkWidthEnabled
        b[30] = 3;                                                      // LinkWidthSupported
        b[31] = 2;                                                      // LinkWidthActive
        b[32] = 0x74;                                                   // LinkSpeedSupported 7, PortState 4
        b[33] = 0x52;                                                   // PortPhysicalState 5, LinkDownDefault 2
        b[34] = (byte) 0x82;                                            // M_KeyProtectBits 2, LMC 2
        b[35] = 0x47;                                                   // LinkSpeedActive 4, Enabled 7
        b[36] = 0x5f;                                                   // NeighborMTU 5, MasterSMSL 15
        b[37] = 0x41;                                                   // VLCap 4, InitType 1
        b[41] = 0x45;                                                   // InitTypeReply 4, MTUCap 5
        b[42] = (byte) 0xf3;                                            // VLStallCount 7, HOQLife 19
        b[43] = 0x4d;                                                   // OperationalVLs 4, enforcement bits 1101
        b[51] = (byte) 0xd2;                                            // ClientReregister 1, McastPKeyTrapSupp 2, SubnetTimeOut 18
        b[52] = 0x10;                                                   // RespTimeValue 16
        System.arraycopy(hex("00abcdef"), 0, b, 56, 4);                 // LinkRoundTripLatency
        System.arraycopy(hex("0002"), 0, b, 60, 2);                     // CapabilityMask2
        b[62] = 0x13;                                                   // LinkSpeedExtActive 1, Supported 3
        b[63] = 0x1f;                                                   // LinkSpeedExtEnabled 31
        return b;
    }

    @Test
    void portInfoDecodesTheIbaLayout() {
        SmpPortInfo pi = SmpPortInfo.decode(portInfoBytes(), 0);
        assertEquals(0x0102030405060708L, pi.mKey());
        assertEquals(0xfe80000000000000L, pi.gidPrefix());
        assertEquals(0x1234, pi.lid());
        assertEquals(1, pi.masterSmLid());
        assertEquals(0x0251084aL, pi.capabilityMask());
        assertEquals(3, pi.localPortNum());
        assertEquals(2, pi.linkWidthActive());
        assertEquals(7, pi.linkSpeedSupported());
        assertEquals(4, pi.portState());
        assertEquals(5, pi.portPhysicalState());
        assertEquals(2, pi.linkDownDefaultState());
        assertEquals(2, pi.mKeyProtectBits());
        assertEquals(2, pi.lmc());
        assertEquals(4, pi.linkSpeedActive());
        assertEquals(7, pi.linkSpeedEnabled());
        assertEquals(5, pi.neighborMtu());
        assertEquals(15, pi.masterSmSl());
        assertEquals(4, pi.vlCap());
        assertEquals(1, pi.initType());
        assertEquals(4, pi.initTypeReply());
        assertEquals(5, pi.mtuCap());
        assertEquals(7, pi.vlStallCount());
        assertEquals(19, pi.hoqLife());
        assertEquals(4, pi.operationalVls());
        assertEquals(1, pi.partitionEnforcementInbound());
        assertEquals(1, pi.partitionEnforcementOutbound());
        assertEquals(0, pi.filterRawInbound());
        assertEquals(1, pi.filterRawOutbound());
        assertEquals(1, pi.clientReregister());
        assertEquals(2, pi.multicastPKeyTrapSuppressionEnabled());
        assertEquals(18, pi.subnetTimeOut());
        assertEquals(16, pi.respTimeValue());
        assertEquals(0xabcdef, pi.linkRoundTripLatency());
        assertEquals(2, pi.capabilityMask2());
        assertEquals(1, pi.linkSpeedExtActive());
        assertEquals(3, pi.linkSpeedExtSupported());
        assertEquals(31, pi.linkSpeedExtEnabled());
    }

    @Test
    void portInfoBuiltWithSettersIsTheSameBytes() {
        SmpPortInfo pi = new SmpPortInfo().mKey(0x0102030405060708L).gidPrefix(0xfe80000000000000L).lid(0x1234)
                .masterSmLid(1).capabilityMask(0x0251084aL).localPortNum(3).linkWidthEnabled(3)
                .linkWidthSupported(3).linkWidthActive(2).linkSpeedSupported(7).portState(4).portPhysicalState(5)
                .linkDownDefaultState(2).mKeyProtectBits(2).lmc(2).linkSpeedActive(4).linkSpeedEnabled(7)
                .neighborMtu(5).masterSmSl(15).vlCap(4).initType(1).initTypeReply(4).mtuCap(5).vlStallCount(7)
                .hoqLife(19).operationalVls(4).partitionEnforcementInbound(1).partitionEnforcementOutbound(1)
                .filterRawOutbound(1).clientReregister(1).multicastPKeyTrapSuppressionEnabled(2).subnetTimeOut(18)
                .respTimeValue(16).linkRoundTripLatency(0xabcdef).capabilityMask2(2).linkSpeedExtActive(1)
                .linkSpeedExtSupported(3).linkSpeedExtEnabled(31);
        assertArrayEquals(portInfoBytes(), pi.toBytes());
        assertEquals(pi, SmpPortInfo.decode(pi.toBytes(), 0));
        assertThrows(IllegalArgumentException.class, () -> pi.lmc(8));
        assertThrows(IllegalArgumentException.class, () -> pi.linkSpeedExtEnabled(32));
    }

    @Test
    void portInfoFieldsCoverTheWholeAttribute() {
        // Every bit of the 64 bytes belongs to exactly one component, reserved ones included.
        List<Field> fields = new SmpPortInfo().fields();
        java.util.BitSet bits = new java.util.BitSet();
        for (Field f : fields) {
            int end = f.bitOffset() + f.bitLength() * f.count();
            assertTrue(bits.get(f.bitOffset(), end).isEmpty(), f.name());
            bits.set(f.bitOffset(), end);
        }
        assertEquals(512, bits.cardinality());
        assertEquals(55, fields.size());
    }

    @Test
    void attributeIdsAndMethodsAreThoseOfTable145() {
        assertEquals(0x0015, SmpPortInfo.ATTRIBUTE_ID);
        assertEquals(0x01, SmpPortInfo.MGMT_CLASS);
        assertEquals(GET | SET, SmpPortInfo.METHOD_MASK);
        assertEquals(0x0012, SmpSwitchInfo.ATTRIBUTE_ID);
        assertEquals(0x0014, SmpGuidInfo.ATTRIBUTE_ID);
        assertEquals(0x0016, SmpPKeyTable.ATTRIBUTE_ID);
        assertEquals(0x0017, SmpSlToVlMappingTable.ATTRIBUTE_ID);
        assertEquals(0x0018, SmpVlArbitrationTable.ATTRIBUTE_ID);
        assertEquals(0x0019, SmpLinearForwardingTable.ATTRIBUTE_ID);
        assertEquals(0x001A, SmpRandomForwardingTable.ATTRIBUTE_ID);
        assertEquals(0x001B, SmpMulticastForwardingTable.ATTRIBUTE_ID);
        assertEquals(0x0020, SmpSmInfo.ATTRIBUTE_ID);
        assertEquals(0x0030, SmpVendorDiag.ATTRIBUTE_ID);
        assertEquals(GET, SmpVendorDiag.METHOD_MASK);
        assertEquals(0x0031, SmpLedInfo.ATTRIBUTE_ID);
        assertEquals(0x0033, SmpPortInfoExtended.ATTRIBUTE_ID);
        assertEquals(0xFF90, SmpMlnxExtendedPortInfo.ATTRIBUTE_ID);
        assertEquals(0x0002, SmpNotice.ATTRIBUTE_ID);
        assertEquals(GET | SET | 1 << 0x05 | 1 << 0x06 | 1 << 0x07, SmpNotice.METHOD_MASK);
        assertEquals(0x0003, SmpInformInfo.ATTRIBUTE_ID);
        assertEquals(0x03, SmpInformInfo.MGMT_CLASS);
        assertEquals(SET, SmpInformInfo.METHOD_MASK);
    }

    @Test
    void registryFindsTheAttributesForBothSmpClasses() {
        for (int mgmtClass : new int[] {0x01, 0x81}) {
            assertInstanceOf(SmpPortInfo.class, IbaStructs.forAttribute(mgmtClass, 0x0015));
            assertInstanceOf(SmpSwitchInfo.class, IbaStructs.forAttribute(mgmtClass, 0x0012));
            assertInstanceOf(SmpSmInfo.class, IbaStructs.forAttribute(mgmtClass, 0x0020));
            assertInstanceOf(SmpNotice.class, IbaStructs.forAttribute(mgmtClass, 0x0002));
            assertNull(IbaStructs.forAttribute(mgmtClass, 0x0003), "InformInfo is an SA attribute");
        }
        assertInstanceOf(SmpNotice.class, IbaStructs.forAttribute(0x03, 0x0002));
        assertInstanceOf(SmpInformInfo.class, IbaStructs.forAttribute(0x03, 0x0003));
    }

    @Test
    void switchInfoBitFields() {
        byte[] b = new byte[20];
        System.arraycopy(hex("c000 0000 0400 00ff"), 0, b, 0, 8);      // LinearFDBCap 49152, MulticastFDBCap 1024, LinearFDBTop 255
        b[8] = (byte) 0xff;                                             // DefaultPort
        b[11] = (byte) (18 << 3 | 1 << 2 | 1);                          // LifeTimeValue 18, PortStateChange, OptimizedSLtoVL 1
        System.arraycopy(hex("0001 0020"), 0, b, 12, 4);                // LIDsPerPort 1, PartitionEnforcementCap 32
        b[16] = (byte) 0xa8;                                            // Inbound 1, Outbound 0, FilterRawIn 1, Out 0, EnhancedPort0 1
        System.arraycopy(hex("c010"), 0, b, 18, 2);                     // MulticastFDBTop
        SmpSwitchInfo si = SmpSwitchInfo.decode(b, 0);
        assertEquals(0xc000, si.linearFdbCap());
        assertEquals(1024, si.multicastFdbCap());
        assertEquals(255, si.linearFdbTop());
        assertEquals(255, si.defaultPort());
        assertEquals(18, si.lifeTimeValue());
        assertEquals(1, si.portStateChange());
        assertEquals(1, si.optimizedSlToVlMappingProgramming());
        assertEquals(1, si.lidsPerPort());
        assertEquals(32, si.partitionEnforcementCap());
        assertEquals(1, si.inboundEnforcementCap());
        assertEquals(0, si.outboundEnforcementCap());
        assertEquals(1, si.filterRawInboundCap());
        assertEquals(0, si.filterRawOutboundCap());
        assertEquals(1, si.enhancedPort0());
        assertEquals(0xc010, si.multicastFdbTop());
    }

    @Test
    void tablesAreIndexedInWireOrder() {
        SmpSlToVlMappingTable slvl = SmpSlToVlMappingTable.decode(hex("0123456789abcdef"), 0);
        for (int sl = 0; sl < 16; sl++) {
            assertEquals(sl, slvl.slToVl(sl), "SL" + sl + " is nibble " + sl + ", high nibble first");
        }
        SmpGuidInfo gi = new SmpGuidInfo().guid3(new Guid(0x0002c90300001234L));
        assertEquals(0x02, gi.buffer()[25], "GUID3 starts at byte 24");
        assertEquals(0x34, gi.buffer()[31]);
        SmpLinearForwardingTable lft = new SmpLinearForwardingTable().portBlock(63, 17);
        assertEquals(17, lft.buffer()[63]);
        SmpMulticastForwardingTable mft = new SmpMulticastForwardingTable().portMaskBlock(1, 0x8001);
        assertArrayEquals(hex("8001"), java.util.Arrays.copyOfRange(mft.buffer(), 2, 4));
        SmpPKeyTable pkeys = new SmpPKeyTable().pKeyBlock(31, 0xffff);
        assertEquals((byte) 0xff, pkeys.buffer()[62]);
    }

    @Test
    void vlArbitrationAndRandomForwardingElements() {
        SmpVlArbitrationTable vla = new SmpVlArbitrationTable().vlWeightBlock(2, 0x0540);
        SmpVlArbitrationEntry e = new SmpVlArbitrationEntry(vla.buffer(), vla.offset() + 2 * 2);
        assertEquals(5, e.vl());
        assertEquals(0x40, e.weight());
        SmpRandomForwardingTable rft = new SmpRandomForwardingTable();
        new SmpLidPortBlock(rft.buffer(), 4 * 15).lid(0x0042).valid(1).lmc(3).port(9);
        assertEquals(0x0042_b009L, rft.lidPortBlock(15));
    }

    @Test
    void smInfoPriorityAndState() {
        byte[] b = new byte[21];
        b[7] = 0x11;                                                    // GUID ...11
        b[20] = (byte) 0xe3;                                            // Priority 14, SMState 3 (master)
        SmpSmInfo sm = SmpSmInfo.decode(b, 0);
        assertEquals(new Guid(0x11), sm.guid());
        assertEquals(14, sm.priority());
        assertEquals(3, sm.smState());
    }

    @Test
    void noticeAndItsTrapDetails() {
        byte[] b = new byte[80];
        b[0] = (byte) (0x80 | 3);                                       // IsGeneric, Type 3 (subnet management)
        b[3] = 2;                                                       // ProducerType 2 (switch)
        System.arraycopy(hex("0090 0007 8005"), 0, b, 4, 6);            // trap 144 from LID 7, toggle 1, count 5
        System.arraycopy(hex("0000 0007 0001 0251084a 0008 0002"), 0, b, 10, 14);
        System.arraycopy(Gid.of(new Guid(0x0002c90300001234L)).toBytes(), 0, b, 64, 16);
        SmpNotice n = SmpNotice.decode(b, 0);
        assertEquals(1, n.isGeneric());
        assertEquals(3, n.type());
        assertEquals(2, n.producerTypeOrVendorId());
        assertEquals(144, n.trapNumberOrDeviceId());
        assertEquals(7, n.issuerLid());
        assertEquals(1, n.noticeToggle());
        assertEquals(5, n.noticeCount());
        assertEquals(Gid.of(new Guid(0x0002c90300001234L)), n.issuerGid());

        SmpNoticeTrap144 t = new SmpNoticeTrap144(n.buffer(), n.offset() + SmpNotice.DATA_DETAILS_BIT_OFFSET / 8);
        assertEquals(7, t.lidAddr());
        assertEquals(1, t.otherLocalChanges());
        assertEquals(0x0251084aL, t.capabilityMask());
        assertEquals(1, t.smPriorityChange());
        assertEquals(0, t.nodeDescriptionChange());
        assertEquals(2, t.capabilityMask2());
        // libibmad numbers the trap 144 fields from the start of the Notice.
        assertEquals(96, SmpNotice.DATA_DETAILS_BIT_OFFSET + SmpNoticeTrap144.LID_ADDR_BIT_OFFSET);
        assertEquals(128, SmpNotice.DATA_DETAILS_BIT_OFFSET + SmpNoticeTrap144.CAPABILITY_MASK_BIT_OFFSET);
        assertEquals(80, SmpNotice.DATA_DETAILS_BIT_OFFSET + SmpNoticeTrap128.LID_ADDR_BIT_OFFSET);
    }

    @Test
    void informInfoSubscription() {
        SmpInformInfo ii = new SmpInformInfo().lidRangeBegin(0xffff).isGeneric(1).subscribe(1).type(0xffff)
                .trapNumberOrDeviceId(64).qpn(1).respTimeValue(18).producerTypeOrVendorId(4);
        assertArrayEquals(hex("ffff 0000 0000 0101 ffff 0040 00000112 00000004"),
                java.util.Arrays.copyOfRange(ii.buffer(), 16, 36));
    }

    @Test
    void everyAttributeFitsInTheSmpDataArea() {
        for (String name : IbaStructs.names()) {
            IbaStruct s = IbaStructs.ALL.get(name).get();
            // Notice is 80 bytes; an SMP carries its first 64 (IssuerGID only travels in GMPs).
            if (s.getClass().getPackageName().equals("org.jrdma.iba.smp") && !name.equals("SmpNotice")) {
                assertTrue(s.size() <= 64, name + " is " + s.size() + " bytes");
            }
        }
        assertEquals(64, SmpPortInfo.SIZE);
        assertEquals(20, SmpSwitchInfo.SIZE);
        assertEquals(8, SmpSlToVlMappingTable.SIZE);
        assertEquals(54, SmpNoticeTrap256.SIZE);
    }
}
