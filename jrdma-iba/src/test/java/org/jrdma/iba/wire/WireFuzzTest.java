package org.jrdma.iba.wire;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.code_intelligence.jazzer.api.FuzzedDataProvider;
import com.code_intelligence.jazzer.junit.FuzzTest;
import java.util.List;

/**
 * Coverage-guided fuzz targets (Jazzer) for the received-MAD decoder and every generated IBA
 * structure. {@code mvn verify} replays the inputs under {@code WireFuzzTestInputs}; {@code bin/fuzz}
 * mutates new ones. The only exception allowed out is {@link MalformedMadException}.
 */
class WireFuzzTest {
    private static final List<String> STRUCTURES = IbaStructs.names();

    /** Any bytes as a received MAD: decoded, then every field of every record formatted. */
    @FuzzTest(maxDuration = "10s")
    void madDecoder(byte[] mad) {
        DecodedMad decoded;
        try {
            decoded = MadDecoder.decode(mad);
        } catch (MalformedMadException expected) {
            return;
        }
        assertTrue(decoded.records().size() <= mad.length / 8 + 1);
        for (IbaStruct record : decoded.records()) {
            assertTrue(!record.toDottedString().isEmpty());
        }
    }

    /** Any generated structure unpacked from any bytes: every field read and formatted, packed back unchanged. */
    @FuzzTest(maxDuration = "10s")
    void everyStructure(FuzzedDataProvider data) {
        IbaStruct s = IbaStructs.ALL.get(data.pickValue(STRUCTURES)).get();
        byte[] bytes = data.consumeRemainingAsBytes();
        if (bytes.length < s.size()) {
            return;
        }
        s.unpack(bytes, 0);
        for (Field f : s.fields()) {
            for (int i = 0; i < f.count(); i++) {
                f.value(s, i);
                f.format(s, i);
            }
        }
        s.toDottedString();
        byte[] out = new byte[s.size()];
        s.pack(out, 0);
        assertArrayEquals(java.util.Arrays.copyOf(bytes, s.size()), out);
    }
}
