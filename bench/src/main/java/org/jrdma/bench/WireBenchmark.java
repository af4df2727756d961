package org.jrdma.bench;

import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.jrdma.iba.wire.Field;
import org.jrdma.iba.wire.IbaStruct;
import org.jrdma.iba.wire.IbaStructs;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;

/**
 * Decoding and encoding one whole MAD attribute with jrdma's generated classes: the same fields
 * libibmad's mad_decode_field / mad_encode_field handle in the C side of {@link WireComparison}.
 * Both sides are table driven; jrdma's decode includes copying the attribute out of the received
 * buffer into a reused structure.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
public class WireBenchmark {
    /** The generated class to benchmark. */
    @Param({"SmpPortInfo", "PmPortCountersExtended"})
    public String struct;

    private IbaStruct attribute;
    private Field[] fields;
    private long[] values;
    private final byte[] wire = new byte[256];
    private final byte[] out = new byte[256];

    @Setup
    public void setup() {
        attribute = IbaStructs.ALL.get(struct).get();
        fields = WireComparison.comparableFields(attribute).toArray(Field[]::new);
        new Random(42).nextBytes(wire);
        attribute.unpack(wire, 0);
        values = new long[fields.length];
        for (int i = 0; i < fields.length; i++) {
            values[i] = fields[i].get(attribute, 0);
        }
    }

    /** Every field of an attribute read from received bytes. */
    @Benchmark
    public long decode() {
        attribute.unpack(wire, 0);
        long acc = 0;
        for (Field f : fields) {
            acc += f.get(attribute, 0);
        }
        return acc;
    }

    /** Every field of an attribute written, then packed into a reused send buffer. */
    @Benchmark
    public byte encode() {
        for (int i = 0; i < fields.length; i++) {
            fields[i].set(attribute, 0, values[i]);
        }
        attribute.pack(out, 0);
        return out[17];
    }
}
