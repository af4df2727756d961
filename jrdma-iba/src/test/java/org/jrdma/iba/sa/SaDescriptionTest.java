package org.jrdma.iba.sa;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.util.Arrays;
import java.util.Map;
import org.jrdma.iba.Gid;
import org.jrdma.iba.Guid;
import org.jrdma.iba.smp.SmpNodeInfo;
import org.jrdma.iba.wire.Field;
import org.jrdma.iba.wire.IbaStruct;
import org.jrdma.iba.wire.IbaStructs;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Spot checks of the subnet administration record descriptions (sa.iba): byte layouts built by
 * hand from the IBA tables (15.2.5), and ComponentMask bits, which count every component in
 * order, nested attributes flattened and reserved components included. The expected bits are
 * those the SA implementations agree on (OpenSM's IB_*_COMPMASK_* definitions).
 */
class SaDescriptionTest {
    private static final long GET = 1L << 0x01;
    private static final long SET = 1L << 0x02;
    private static final long GET_TABLE = 1L << 0x12;
    private static final long DELETE = 1L << 0x15;

    private static byte[] hex(String text) {
        String s = text.replaceAll("\\s+", "");
        byte[] out = new byte[s.length() / 2];
        for (int i = 0; i < out.length; i++) {
            out[i] = (byte) Integer.parseInt(s.substring(2 * i, 2 * i + 2), 16);
        }
        return out;
    }

    private static int maskBit(IbaStruct record, String component) {
        for (Field f : record.fields()) {
            if (f.name().equals(component)) {
                return f.maskBit();
            }
        }
        fail(record.ibaName() + " has no component " + component);
        return -1;
    }

    @Test
    void pathRecordComponentMaskBits() {
        assertEquals(1L << 0, SaPathRecord.SERVICE_ID8_MSB_COMPONENT_MASK);
        assertEquals(1L << 1, SaPathRecord.SERVICE_ID56_LSB_COMPONENT_MASK);
        assertEquals(1L << 2, SaPathRecord.DGID_COMPONENT_MASK);
        assertEquals(1L << 3, SaPathRecord.SGID_COMPONENT_MASK);
        assertEquals(1L << 4, SaPathRecord.DLID_COMPONENT_MASK);
        assertEquals(1L << 5, SaPathRecord.SLID_COMPONENT_MASK);
        assertEquals(1L << 6, SaPathRecord.RAW_TRAFFIC_COMPONENT_MASK);
        assertEquals(7, maskBit(new SaPathRecord(), "reserved1"));
        assertEquals(1L << 8, SaPathRecord.FLOW_LABEL_COMPONENT_MASK);
        assertEquals(1L << 9, SaPathRecord.HOP_LIMIT_COMPONENT_MASK);
        assertEquals(1L << 10, SaPathRecord.T_CLASS_COMPONENT_MASK);
        assertEquals(1L << 11, SaPathRecord.REVERSIBLE_COMPONENT_MASK);
        assertEquals(1L << 12, SaPathRecord.NUMB_PATH_COMPONENT_MASK);
        assertEquals(1L << 13, SaPathRecord.P_KEY_COMPONENT_MASK);
        assertEquals(1L << 14, SaPathRecord.QOS_CLASS_COMPONENT_MASK);
        assertEquals(1L << 15, SaPathRecord.SL_COMPONENT_MASK);
        assertEquals(1L << 16, SaPathRecord.MTU_SELECTOR_COMPONENT_MASK);
        assertEquals(1L << 17, SaPathRecord.MTU_COMPONENT_MASK);
        assertEquals(1L << 18, SaPathRecord.RATE_SELECTOR_COMPONENT_MASK);
        assertEquals(1L << 19, SaPathRecord.RATE_COMPONENT_MASK);
        assertEquals(1L << 20, SaPathRecord.PACKET_LIFE_TIME_SELECTOR_COMPONENT_MASK);
        assertEquals(1L << 21, SaPathRecord.PACKET_LIFE_TIME_COMPONENT_MASK);
        assertEquals(1L << 22, SaPathRecord.PREFERENCE_COMPONENT_MASK);
    }

    /** A path from LID 1 (fe80::1) to LID 2 (fe80::2): the layout of IBA table 15.2.5.16. */
    private static final String PATH = """
            10000000 00000001
            fe800000 00000000 00000000 00000002
            fe800000 00000000 00000000 00000001
            0002 0001 01234540 20 81 ffff 1235 84 83 92 01 0000 00000000
            """;

    @Test
    void pathRecordDecodesTheIbaLayout() {
        SaPathRecord pr = SaPathRecord.decode(hex(PATH), 0);
        assertEquals(0x10, pr.serviceId8Msb());
        assertEquals(1L, pr.serviceId56Lsb());
        assertEquals(new Gid(0xfe80_0000_0000_0000L, 2), pr.dgid());
        assertEquals(new Gid(0xfe80_0000_0000_0000L, 1), pr.sgid());
        assertEquals(2, pr.dlid());
        assertEquals(1, pr.slid());
        assertEquals(0, pr.rawTraffic());
        assertEquals(0x12345, pr.flowLabel());
        assertEquals(0x40, pr.hopLimit());
        assertEquals(0x20, pr.tClass());
        assertEquals(1, pr.reversible());
        assertEquals(1, pr.numbPath());
        assertEquals(0xffff, pr.pKey());
        assertEquals(0x123, pr.qosClass());
        assertEquals(5, pr.sl());
        assertEquals(2, pr.mtuSelector());
        assertEquals(4, pr.mtu());
        assertEquals(2, pr.rateSelector());
        assertEquals(3, pr.rate());
        assertEquals(2, pr.packetLifeTimeSelector());
        assertEquals(18, pr.packetLifeTime());
        assertEquals(1, pr.preference());

        SaPathRecord built = new SaPathRecord().serviceId8Msb(0x10).serviceId56Lsb(1)
                .dgid(new Gid(0xfe80_0000_0000_0000L, 2)).sgid(new Gid(0xfe80_0000_0000_0000L, 1)).dlid(2).slid(1)
                .flowLabel(0x12345).hopLimit(0x40).tClass(0x20).reversible(1).numbPath(1).pKey(0xffff)
                .qosClass(0x123).sl(5).mtuSelector(2).mtu(4).rateSelector(2).rate(3).packetLifeTimeSelector(2)
                .packetLifeTime(18).preference(1);
        assertArrayEquals(hex(PATH), built.toBytes());
        assertEquals(64, SaPathRecord.SIZE);
    }

    @Test
    void mcMemberRecordLayoutAndMaskBits() {
        byte[] b = hex("""
                ff12401b ffff0000 00000000 00000001
                fe800000 00000000 00000000 00000005
                80010000 c001 84 00 ffff 03 92 354321ff 21 80 0000 00000000
                """);
        SaMcMemberRecord mcm = SaMcMemberRecord.decode(b, 0);
        assertEquals(Gid.parse("ff12:401b:ffff::1"), mcm.mgid());
        assertEquals(Gid.parse("fe80::5"), mcm.portGid());
        assertEquals(0x80010000L, mcm.qKey());
        assertEquals(0xc001, mcm.mlid());
        assertEquals(2, mcm.mtuSelector());
        assertEquals(4, mcm.mtu());
        assertEquals(0xffff, mcm.pKey());
        assertEquals(0, mcm.rateSelector());
        assertEquals(3, mcm.rate());
        assertEquals(2, mcm.packetLifeTimeSelector());
        assertEquals(18, mcm.packetLifeTime());
        assertEquals(3, mcm.sl());
        assertEquals(0x54321, mcm.flowLabel());
        assertEquals(0xff, mcm.hopLimit());
        assertEquals(2, mcm.scope());
        assertEquals(1, mcm.joinState());
        assertEquals(1, mcm.proxyJoin());
        assertEquals(56, SaMcMemberRecord.SIZE);

        long[] expected = {SaMcMemberRecord.MGID_COMPONENT_MASK, SaMcMemberRecord.PORT_GID_COMPONENT_MASK,
            SaMcMemberRecord.Q_KEY_COMPONENT_MASK, SaMcMemberRecord.MLID_COMPONENT_MASK,
            SaMcMemberRecord.MTU_SELECTOR_COMPONENT_MASK, SaMcMemberRecord.MTU_COMPONENT_MASK,
            SaMcMemberRecord.T_CLASS_COMPONENT_MASK, SaMcMemberRecord.P_KEY_COMPONENT_MASK,
            SaMcMemberRecord.RATE_SELECTOR_COMPONENT_MASK, SaMcMemberRecord.RATE_COMPONENT_MASK,
            SaMcMemberRecord.PACKET_LIFE_TIME_SELECTOR_COMPONENT_MASK,
            SaMcMemberRecord.PACKET_LIFE_TIME_COMPONENT_MASK, SaMcMemberRecord.SL_COMPONENT_MASK,
            SaMcMemberRecord.FLOW_LABEL_COMPONENT_MASK, SaMcMemberRecord.HOP_LIMIT_COMPONENT_MASK,
            SaMcMemberRecord.SCOPE_COMPONENT_MASK, SaMcMemberRecord.JOIN_STATE_COMPONENT_MASK,
            SaMcMemberRecord.PROXY_JOIN_COMPONENT_MASK};
        for (int bit = 0; bit < expected.length; bit++) {
            assertEquals(1L << bit, expected[bit], "component " + bit);
        }
        assertEquals(GET | SET | GET_TABLE | DELETE, SaMcMemberRecord.METHOD_MASK);
    }

    @Test
    void nodeRecordEmbedsNodeInfoAndNodeDescription() {
        SaNodeRecord nr = new SaNodeRecord().lid(7);
        nr.nodeInfo().nodeType(2).numPorts(36).nodeGuid(new Guid(0x0002c90300001234L));
        nr.nodeDescription().nodeString("switch-1");
        byte[] b = nr.toBytes();
        assertEquals(112, b.length);
        assertArrayEquals(hex("0007 0000 00 00 02 24"), Arrays.copyOfRange(b, 0, 8));
        assertArrayEquals(hex("0002c90300001234"), Arrays.copyOfRange(b, 16, 24));
        assertEquals('s', b[44]);
        SmpNodeInfo view = nr.nodeInfo();
        assertEquals(4, view.offset());
        assertEquals(new Guid(0x0002c90300001234L), SaNodeRecord.decode(b, 0).nodeInfo().nodeGuid());
        assertEquals("switch-1", SaNodeRecord.decode(b, 0).nodeDescription().nodeString());
    }

    /** ComponentMask bit of each (record, component), transcribed from OpenSM's ib_types.h. */
    @ParameterizedTest
    @CsvSource({
        "SaNodeRecord, lid, 0", "SaNodeRecord, reserved1, 1", "SaNodeRecord, nodeInfo.baseVersion, 2",
        "SaNodeRecord, nodeInfo.systemImageGuid, 6", "SaNodeRecord, nodeInfo.nodeGuid, 7",
        "SaNodeRecord, nodeInfo.portGuid, 8", "SaNodeRecord, nodeInfo.vendorId, 13",
        "SaNodeRecord, nodeDescription.nodeString, 14",
        "SaPortInfoRecord, endportLid, 0", "SaPortInfoRecord, portNum, 1", "SaPortInfoRecord, options, 2",
        "SaPortInfoRecord, portInfo.mKey, 3", "SaPortInfoRecord, portInfo.lid, 5",
        "SaPortInfoRecord, portInfo.capabilityMask, 7", "SaPortInfoRecord, portInfo.portState, 15",
        "SaPortInfoRecord, portInfo.reserved1, 19", "SaPortInfoRecord, portInfo.lmc, 20",
        "SaPortInfoRecord, portInfo.mtuCap, 31", "SaPortInfoRecord, portInfo.guidCap, 42",
        "SaPortInfoRecord, portInfo.clientReregister, 43", "SaPortInfoRecord, portInfo.subnetTimeOut, 45",
        "SaPortInfoRecord, portInfo.respTimeValue, 47", "SaPortInfoRecord, portInfo.overrunErrors, 49",
        "SaPortInfoRecord, portInfo.maxCreditHint, 50", "SaPortInfoRecord, portInfo.linkRoundTripLatency, 52",
        "SaPortInfoRecord, portInfo.capabilityMask2, 53", "SaPortInfoRecord, portInfo.linkSpeedExtActive, 54",
        "SaPortInfoRecord, portInfo.linkSpeedExtSupported, 55", "SaPortInfoRecord, portInfo.linkSpeedExtEnabled, 57",
        "SaSlToVlMappingTableRecord, lid, 0", "SaSlToVlMappingTableRecord, inputPortNum, 1",
        "SaSlToVlMappingTableRecord, outputPortNum, 2", "SaSlToVlMappingTableRecord, slToVlMappingTable.slToVl, 4",
        "SaSwitchInfoRecord, lid, 0", "SaSwitchInfoRecord, reserved1, 1", "SaSwitchInfoRecord, switchInfo.linearFdbCap, 2",
        "SaLinearForwardingTableRecord, lid, 0", "SaLinearForwardingTableRecord, blockNum, 1",
        "SaMulticastForwardingTableRecord, lid, 0", "SaMulticastForwardingTableRecord, position, 1",
        "SaMulticastForwardingTableRecord, reserved1, 2", "SaMulticastForwardingTableRecord, blockNum, 3",
        "SaMulticastForwardingTableRecord, reserved2, 4",
        "SaVlArbitrationTableRecord, lid, 0", "SaVlArbitrationTableRecord, outputPortNum, 1",
        "SaVlArbitrationTableRecord, blockNum, 2",
        "SaPKeyTableRecord, lid, 0", "SaPKeyTableRecord, blockNum, 1", "SaPKeyTableRecord, portNum, 2",
        "SaSmInfoRecord, lid, 0", "SaSmInfoRecord, reserved1, 1", "SaSmInfoRecord, smInfo.guid, 2",
        "SaSmInfoRecord, smInfo.smKey, 3", "SaSmInfoRecord, smInfo.actCount, 4", "SaSmInfoRecord, smInfo.priority, 5",
        "SaSmInfoRecord, smInfo.smState, 6",
        "SaInformInfoRecord, subscriberGid, 0", "SaInformInfoRecord, enumeration, 1", "SaInformInfoRecord, reserved1, 2",
        "SaInformInfoRecord, informInfo.gid, 3", "SaInformInfoRecord, informInfo.lidRangeBegin, 4",
        "SaInformInfoRecord, informInfo.lidRangeEnd, 5", "SaInformInfoRecord, informInfo.isGeneric, 7",
        "SaInformInfoRecord, informInfo.subscribe, 8", "SaInformInfoRecord, informInfo.type, 9",
        "SaInformInfoRecord, informInfo.trapNumberOrDeviceId, 10", "SaInformInfoRecord, informInfo.qpn, 11",
        "SaInformInfoRecord, informInfo.respTimeValue, 13", "SaInformInfoRecord, informInfo.producerTypeOrVendorId, 15",
        "SaLinkRecord, fromLid, 0", "SaLinkRecord, fromPort, 1", "SaLinkRecord, toPort, 2", "SaLinkRecord, toLid, 3",
        "SaGuidInfoRecord, lid, 0", "SaGuidInfoRecord, blockNum, 1", "SaGuidInfoRecord, reserved1, 2",
        "SaGuidInfoRecord, reserved2, 3", "SaGuidInfoRecord, guidInfo.guid0, 4", "SaGuidInfoRecord, guidInfo.guid7, 11",
        "SaServiceRecord, serviceId, 0", "SaServiceRecord, serviceGid, 1", "SaServiceRecord, servicePKey, 2",
        "SaServiceRecord, reserved1, 3", "SaServiceRecord, serviceLease, 4", "SaServiceRecord, serviceKey, 5",
        "SaServiceRecord, serviceName, 6", "SaServiceRecord, serviceData8_1, 7", "SaServiceRecord, serviceData8_16, 22",
        "SaServiceRecord, serviceData16_1, 23", "SaServiceRecord, serviceData16_8, 30",
        "SaServiceRecord, serviceData32_1, 31", "SaServiceRecord, serviceData64_1, 35",
        "SaServiceRecord, serviceData64_2, 36",
        "SaMultiPathRecord, rawTraffic, 0", "SaMultiPathRecord, flowLabel, 2", "SaMultiPathRecord, numbPath, 6",
        "SaMultiPathRecord, qosClass, 8", "SaMultiPathRecord, packetLifeTime, 15", "SaMultiPathRecord, serviceId8Msb, 16",
        "SaMultiPathRecord, independenceSelector, 17", "SaMultiPathRecord, sgidCount, 19",
        "SaMultiPathRecord, dgidCount, 20", "SaMultiPathRecord, serviceId56Lsb, 21",
    })
    void componentMaskBitsAgreeWithOpenSm(String record, String component, int bit) {
        assertEquals(bit, maskBit(IbaStructs.ALL.get(record).get(), component), record + "." + component);
    }

    @Test
    void serviceRecordKeepsEveryServiceDataElementApart() {
        SaServiceRecord sr = new SaServiceRecord().serviceId(0x1000_0000_0000_0001L).serviceName("svc")
                .serviceData8_1(0xaa).serviceData16_8(0xbbcc).serviceData64_2(-1L);
        byte[] b = sr.toBytes();
        assertEquals(176, b.length);
        assertEquals((byte) 0xaa, b[112]);
        assertArrayEquals(hex("bbcc"), Arrays.copyOfRange(b, 142, 144));
        assertArrayEquals(hex("ffffffffffffffff"), Arrays.copyOfRange(b, 168, 176));
        assertEquals('s', b[48]);
        assertEquals(1L << 36, SaServiceRecord.SERVICE_DATA64_2_COMPONENT_MASK);
        assertEquals(GET | SET | GET_TABLE | DELETE, SaServiceRecord.METHOD_MASK);
    }

    @Test
    void multicastForwardingTableRecordPositionAndBlock() {
        SaMulticastForwardingTableRecord r = new SaMulticastForwardingTableRecord().lid(1).position(3).blockNum(0x1ff);
        // OpenSM: position = (PositionBlockNum & 0xF000) >> 12, block = PositionBlockNum & 0x1FF.
        assertArrayEquals(hex("0001 31ff"), Arrays.copyOfRange(r.buffer(), 0, 4));
    }

    @Test
    void attributeIdsAndMethodsAreThoseOfTable207() {
        Map<Class<?>, Integer> ids = Map.ofEntries(Map.entry(SaNodeRecord.class, 0x0011),
                Map.entry(SaPortInfoRecord.class, 0x0012), Map.entry(SaSlToVlMappingTableRecord.class, 0x0013),
                Map.entry(SaSwitchInfoRecord.class, 0x0014), Map.entry(SaLinearForwardingTableRecord.class, 0x0015),
                Map.entry(SaRandomForwardingTableRecord.class, 0x0016),
                Map.entry(SaMulticastForwardingTableRecord.class, 0x0017), Map.entry(SaSmInfoRecord.class, 0x0018),
                Map.entry(SaLinkRecord.class, 0x0020), Map.entry(SaGuidInfoRecord.class, 0x0030),
                Map.entry(SaServiceRecord.class, 0x0031), Map.entry(SaPKeyTableRecord.class, 0x0033),
                Map.entry(SaPathRecord.class, 0x0035), Map.entry(SaVlArbitrationTableRecord.class, 0x0036),
                Map.entry(SaMcMemberRecord.class, 0x0038), Map.entry(SaTraceRecord.class, 0x0039),
                Map.entry(SaMultiPathRecord.class, 0x003A), Map.entry(SaServiceAssociationRecord.class, 0x003B),
                Map.entry(SaPortInfoExtendedRecord.class, 0x003E), Map.entry(SaInformInfoRecord.class, 0x00F3));
        ids.forEach((type, id) -> {
            IbaStruct s = IbaStructs.forAttribute(0x03, id);
            assertInstanceOf(type, s, "attribute 0x" + Integer.toHexString(id));
            assertEquals(0, s.size() % 8, type.getSimpleName() + " is padded to 8-byte words");
        });
        assertEquals(GET | GET_TABLE, SaPathRecord.METHOD_MASK);
        assertEquals(GET | GET_TABLE | SET | DELETE, SaGuidInfoRecord.METHOD_MASK);
        assertEquals(1L << 0x13, SaTraceRecord.METHOD_MASK);
        assertEquals(1L << 0x14, SaMultiPathRecord.METHOD_MASK);
        assertEquals(0x03, SaNodeRecord.MGMT_CLASS);
    }

    @Test
    void everyRecordFitsTheComponentMask() {
        for (String name : IbaStructs.names()) {
            IbaStruct s = IbaStructs.ALL.get(name).get();
            if (!s.getClass().getPackageName().equals("org.jrdma.iba.sa")) {
                continue;
            }
            int expected = 0;
            for (Field f : s.fields()) {
                assertEquals(expected++, f.maskBit(), name + "." + f.name());
            }
            assertTrue(expected <= 64, name + " has " + expected + " components");
        }
    }
}
