package org.jrdma.iba.cm;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;

import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import org.jrdma.iba.Gid;
import org.jrdma.iba.Guid;
import org.jrdma.iba.mad.CmFormat;
import org.jrdma.iba.wire.IbaStruct;
import org.jrdma.iba.wire.IbaStructs;
import org.jrdma.iba.wire.MadAttribute;
import org.junit.jupiter.api.Test;

/** Spot checks of the communication management descriptions (cm.iba) against hand-built bytes. */
class CmDescriptionTest {
    private static byte[] hex(String s) {
        return HexFormat.of().parseHex(s.replace(" ", ""));
    }

    @Test
    void reqFieldsSitAtTheirTableOffsets() {
        Gid local = new Gid(0xFE80000000000000L, 0x0002C90300001111L);
        Gid remote = new Gid(0xFE80000000000000L, 0x0002C90300002222L);
        CmReq req = new CmReq().localCommunicationId(0x01020304L).serviceId(0x1000000000000ABCL)
                .localCaGuid(new Guid(0x0002C90300000001L)).localQKey(0x80010000L).localQpn(0x000123)
                .responderResources(4).initiatorDepth(8).remoteCmResponseTimeout(20).transportServiceType(0)
                .endToEndFlowControl(1).startingPsn(0xABCDEF).localCmResponseTimeout(20).retryCount(7)
                .partitionKey(0xFFFF).pathPacketPayloadMtu(5).rnrRetryCount(7).maxCmRetries(15).srq(1)
                .primaryLocalPortLid(1).primaryRemotePortLid(2).primaryLocalPortGid(local)
                .primaryRemotePortGid(remote).primaryFlowLabel(0xFFFFF).primaryPacketRate(0x3F)
                .primaryTrafficClass(0xAA).primaryHopLimit(0xFF).primarySl(0xF).primarySubnetLocal(1)
                .primaryLocalAckTimeout(0x1F).sapSupported(1);
        byte[] b = req.toBytes();
        assertEquals(232, b.length);
        assertArrayEquals(hex("01020304 00000000 1000000000000ABC 0002C90300000001 00000000 80010000"
                + "000123 04 000000 08 000000 A1 ABCDEF A7 FFFF 57 F8 0001 0002"), Arrays.copyOfRange(b, 0, 56));
        assertEquals(local, CmReq.decode(b, 0).primaryLocalPortGid());
        assertEquals(remote, CmReq.decode(b, 0).primaryRemotePortGid());
        // flow label, 6 reserved bits, packet rate; traffic class; hop limit; SL|subnet local; ACK timeout
        assertArrayEquals(hex("FFFFF03F AA FF F8 F8"), Arrays.copyOfRange(b, 88, 96));
        assertEquals(0x04, b[139]);                       // SAP supported under the alternate ACK timeout
        assertEquals(1120, CmReq.PRIVATE_DATA_BIT_OFFSET);
        assertEquals(92, req.privateData().length);
    }

    @Test
    void repRejAndSidrRepDecodeFromHandBuiltBytes() {
        byte[] rep = new byte[232];
        System.arraycopy(hex("00000001 00000002 00000003 000004 00 000005 00 000006 00 07 08 A5 F0"), 0, rep, 0, 28);
        CmRep r = CmRep.decode(rep, 0);
        assertEquals(1, r.localCommunicationId());
        assertEquals(2, r.remoteCommunicationId());
        assertEquals(4, r.localQpn());
        assertEquals(5, r.localEeContextNumber());
        assertEquals(6, r.startingPsn());
        assertEquals(7, r.responderResources());
        assertEquals(8, r.initiatorDepth());
        assertEquals(0x14, r.targetAckDelay());
        assertEquals(2, r.failoverAccepted());
        assertEquals(1, r.endToEndFlowControl());
        assertEquals(7, r.rnrRetryCount());
        assertEquals(1, r.srq());

        byte[] rej = new byte[232];
        System.arraycopy(hex("00000009 0000000A 40 48 001C"), 0, rej, 0, 12);
        CmRej j = CmRej.decode(rej, 0);
        assertEquals(1, j.messageRejected());
        assertEquals(0x24, j.rejectedInfoLength());
        assertEquals(28, j.reason());

        CmSidrRep s = new CmSidrRep().requestId(1).status(2).additionalInformationLength(3).qpn(0xFFFFFF)
                .serviceId(-1L).qKey(0x11111111L);
        assertArrayEquals(hex("00000001 02 03 0000 FFFFFF 00 FFFFFFFFFFFFFFFF 11111111"),
                Arrays.copyOfRange(s.toBytes(), 0, 24));
    }

    @Test
    void everyMessageIs232BytesAndSentWithSend() {
        List<Class<?>> messages = List.of(CmReq.class, CmMra.class, CmRej.class, CmRep.class, CmRtu.class,
                CmDreq.class, CmDrep.class, CmSidrReq.class, CmSidrRep.class, CmLap.class, CmApr.class);
        for (int id = 0x10; id <= 0x1A; id++) {
            IbaStruct s = IbaStructs.forAttribute(0x07, id);
            assertInstanceOf(messages.get(id - 0x10), s, "attribute 0x" + Integer.toHexString(id));
            assertEquals(232, s.size());
            assertEquals(1L << 3, ((MadAttribute) s).methodMask());
            // every bit of the message is a declared component
            int bits = s.fields().stream().mapToInt(f -> f.bitLength() * f.count()).sum();
            assertEquals(232 * 8, bits, s.ibaName());
        }
        assertEquals(232 * 8, CmFormat.SIZE * 8 - CmFormat.DATA_BIT_OFFSET);
    }

    @Test
    void lapAlternatePathFieldsAreWhereTheKernelPutsThem() {
        CmLap lap = new CmLap().remoteQpnEecn(0x123456).remoteCmResponseTimeout(0x1F).alternateLocalPortLid(0x10)
                .alternateRemotePortLid(0x20).alternateFlowLabel(1).alternateTrafficClass(2).alternateHopLimit(3)
                .alternatePacketRate(4).alternateSl(5).alternateSubnetLocal(1).alternateLocalAckTimeout(6);
        byte[] b = lap.toBytes();
        assertArrayEquals(hex("123456 F8 00000000 0010 0020"), Arrays.copyOfRange(b, 12, 24));
        assertArrayEquals(hex("00001002 03 04 58 30"), Arrays.copyOfRange(b, 56, 64));
    }
}
