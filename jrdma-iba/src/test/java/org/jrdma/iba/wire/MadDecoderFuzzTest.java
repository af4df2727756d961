package org.jrdma.iba.wire;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.Size;
import org.jrdma.iba.Mad;
import org.jrdma.iba.mad.MadHeader;
import org.jrdma.iba.smp.SmpNodeInfo;
import org.junit.jupiter.api.Test;

/** The generic MAD decoder on well-formed, truncated and hostile input. */
class MadDecoderFuzzTest {

    @Property(tries = 3000)
    void anyBytesDecodeOrFailCleanly(@ForAll @Size(max = 600) byte[] bytes) {
        decodeOrFailCleanly(bytes);
    }

    @Provide
    Arbitrary<byte[]> madsWithKnownHeaders() {
        // A valid base version and a (class, attribute) pair jrdma knows, the rest random and any length.
        List<int[]> known = knownAttributes();
        return Arbitraries.bytes().array(byte[].class).ofMinSize(0).ofMaxSize(2048).flatMap(body ->
                Arbitraries.of(known).map(key -> {
                    byte[] mad = body.clone();
                    if (mad.length >= MadHeader.SIZE) {
                        MadHeader h = new MadHeader(mad, 0);
                        h.baseVersion(1).mgmtClass(key[0]).attributeId(key[1]);
                    }
                    return mad;
                }));
    }

    @Property(tries = 3000)
    void knownAttributesWithRandomBodiesDecodeOrFailCleanly(@ForAll("madsWithKnownHeaders") byte[] mad) {
        decodeOrFailCleanly(mad);
    }

    @Test
    void decodesANodeInfoGetResponse() {
        byte[] mad = new byte[MadDecoder.MAD_SIZE];
        new MadHeader(mad, 0).baseVersion(1).mgmtClass(Mad.CLASS_SUBN_DIRECTED_ROUTE).classVersion(1).r(1)
                .method(Mad.METHOD_GET_RESP & 0x7F).attributeId(SmpNodeInfo.ATTRIBUTE_ID);
        new SmpNodeInfo(mad, 64).nodeType(2).numPorts(36).nodeGuid(new org.jrdma.iba.Guid(0x0002c90300000a01L));

        DecodedMad d = MadDecoder.decode(mad);

        SmpNodeInfo info = (SmpNodeInfo) d.attribute();
        assertEquals(36, info.numPorts());
        assertEquals(0x0002c90300000a01L, info.nodeGuid().value());
        assertEquals(List.of(info), d.records());
    }

    @Test
    void refusesWhatIsNotAMad() {
        assertMessage("a MAD has a 24-byte header; got 10 bytes", new byte[10]);
        assertMessage("MAD base version 0 is not 1", new byte[256]);
        byte[] truncated = new byte[40];
        new MadHeader(truncated, 0).baseVersion(1).mgmtClass(Mad.CLASS_SUBN_LID_ROUTED).attributeId(SmpNodeInfo.ATTRIBUTE_ID);
        DecodedMad d = MadDecoder.decode(truncated);
        assertEquals(null, d.attribute(), "the data area is missing, so there is no attribute");
        assertThrows(MalformedMadException.class, () -> MadDecoder.decode(new byte[256], 250, 10));
    }

    private static void assertMessage(String expected, byte[] mad) {
        MalformedMadException e = assertThrows(MalformedMadException.class, () -> MadDecoder.decode(mad));
        assertEquals(expected, e.getMessage());
    }

    private static void decodeOrFailCleanly(byte[] bytes) {
        try {
            DecodedMad d = MadDecoder.decode(bytes);
            assertNotNull(d.header());
            assertTrue(d.records().size() <= bytes.length / 8 + 1);
        } catch (MalformedMadException expected) {
            assertNotNull(expected.getMessage());
        }
    }

    /** Every (management class, attribute ID) the registry knows, found by asking it. */
    private static List<int[]> knownAttributes() {
        List<int[]> known = new java.util.ArrayList<>();
        int[] classes = {0x01, 0x81, 0x03, 0x04, 0x05, 0x06, 0x07, 0x08, 0x21};
        for (int cls : classes) {
            for (int attr = 0; attr <= 0xFFFF; attr++) {
                if (IbaStructs.forAttribute(cls, attr) != null) {
                    known.add(new int[] {cls, attr});
                }
            }
        }
        return known;
    }
}
