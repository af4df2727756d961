package org.jrdma.mad;

import static org.junit.jupiter.api.Assertions.assertNotNull;

import java.util.Arrays;
import java.util.List;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import org.jrdma.iba.Mad;
import org.jrdma.iba.mad.MadClassPortInfo;
import org.jrdma.iba.mad.SaFormat;
import org.jrdma.iba.pm.PmPortCounters;
import org.jrdma.iba.sa.SaMultiPathRecord;
import org.jrdma.iba.sa.SaNodeRecord;
import org.jrdma.iba.sa.SaPathRecord;
import org.jrdma.iba.smp.SmpNodeInfo;
import org.jrdma.iba.smp.SmpPortInfo;
import org.jrdma.iba.wire.Bits;
import org.jrdma.iba.wire.IbaStruct;
import org.jrdma.iba.wire.MadAttribute;
import org.jrdma.iba.wire.MalformedMadException;
import org.jrdma.path.IBDRPath;
import org.jrdma.path.IBPath;

/**
 * Reply bytes are untrusted: whatever comes back, the transactor's reply validation (matching the
 * request, the status word, a redirection's ClassPortInfo, reading the attribute or the SA
 * records) and its request parsing fail only with a {@link MadException} (or the decoder's
 * {@link MalformedMadException}), never anything else, and every such exception can describe
 * itself. The replies are random bytes, and valid replies with random bytes changed.
 */
class ReplyFuzzTest {
    private static final IBPath LID_PATH = IBPath.builder(null).dlid(5).build();
    private static final IBDRPath DR_PATH = IBDRPath.builder(null).drPath(0, 1, 7).build();

    /** One RPC of every reply shape: SMP both ways, SA single and table, GetMulti, PerfMgt, DevMgt, vendor with OUI and RMPP. */
    private static final List<Case<?>> CASES = List.of(
            new Case<>(MadCall.of(Rpc.SUBN_GET, new SmpNodeInfo(), DR_PATH, 0, 0, 0), DR_PATH, false),
            new Case<>(MadCall.of(Rpc.SUBN_GET, new SmpPortInfo(), LID_PATH, 1, 0, 0), LID_PATH, false),
            new Case<>(MadCall.of(Rpc.SUBN_ADM_GET, new SaPathRecord(), LID_PATH, 0, 0x14, 0), LID_PATH, false),
            new Case<>(MadCall.of(Rpc.SUBN_ADM_GET_TABLE, new SaNodeRecord(), LID_PATH, 0, 1, 0), LID_PATH, true),
            new Case<>(MadCall.of(Rpc.SUBN_ADM_GET_MULTI, new SaMultiPathRecord(), LID_PATH, 0, 0, 0), LID_PATH, true),
            new Case<>(MadCall.of(Rpc.PERFORMANCE_GET, new PmPortCounters(), LID_PATH, 0, 0, 0), LID_PATH, false),
            new Case<>(MadCall.of(Rpc.DEV_MGT_GET, new MadClassPortInfo(), LID_PATH, 0, 0, 0), LID_PATH, false),
            new Case<>(MadCall.of(Rpc.VEND_GET, new TestVendorAttributes.Log(), LID_PATH, 3, 0, TestVendorAttributes.OUI), LID_PATH, false));

    private record Case<T extends IbaStruct & MadAttribute>(MadCall<T> call, IBPath path, boolean table) {
        byte[] request() {
            byte[] request = call.request(path);
            Bits.u64(request, 8, 0x1234_5678_0000_0042L);
            return request;
        }

        /** A valid reply: the response of the request with data, long enough for an RMPP-reassembled attribute. */
        byte[] reply(int records) {
            byte[] reply = MadReplies.response(request(), 0);
            if (call.rpc() == Rpc.SUBN_ADM_GET_MULTI) {
                Bits.u16(reply, 16, SaPathRecord.ATTRIBUTE_ID);
            }
            if (table) {
                int stride = (call.rpc() == Rpc.SUBN_ADM_GET_MULTI ? SaPathRecord.SIZE : call.attribute().size());
                new SaFormat(reply, 0).attributeOffset(stride / 8);
                return Arrays.copyOf(reply, 56 + records * stride);
            }
            return Arrays.copyOf(reply, Math.max(reply.length, call.dataOffset() + call.attribute().size()));
        }

        void validate(ReceivedMad reply) {
            Transaction t = new Transaction(call, request(), reply, path);
            if (t.check() == Mad.STATUS_REDIRECT) {
                new Redirects().follow(t, path, gid -> {
                    throw new MadException("no SA to resolve " + gid);
                });
            } else if (table) {
                t.records(SaPathRecord::new);
            } else {
                t.attribute(Attributes.factoryOf(call.attribute()));
            }
        }
    }

    @Property(tries = 4000)
    void randomRepliesFailOnlyWithMadExceptions(@ForAll("cases") int which, @ForAll("bytes") byte[] bytes,
            @ForAll("fractions") double cut) {
        validate(CASES.get(which), bytes, (int) (bytes.length * cut));
    }

    @Property(tries = 6000)
    void validRepliesWithBytesChangedFailOnlyWithMadExceptions(@ForAll("cases") int which, @ForAll("records") int records,
            @ForAll("edits") List<int[]> edits, @ForAll("fractions") double cut) {
        Case<?> c = CASES.get(which);
        byte[] reply = c.reply(records);
        for (int[] edit : edits) {
            reply[edit[0] % reply.length] = (byte) edit[1];
        }
        validate(c, reply, cut > 0.9 ? reply.length : (int) (reply.length * cut));
    }

    @Property(tries = 4000)
    void anyRequestParsesOrFailsWithAMadException(@ForAll("bytes") byte[] bytes, @ForAll("fractions") double cut) {
        byte[] mad = Arrays.copyOf(bytes, Math.max(bytes.length, 256));
        if (bytes.length > 3) {
            mad[0] = 1;
            mad[3] &= 0x7F;
        }
        MadTransactor server = new MadTransactor(null, null);
        try {
            assertNotNull(server.parseRequest(new ReceivedMad(mad, (int) (mad.length * cut), MadAddress.gmp(1), false)).header());
        } catch (MadException e) {
            assertNotNull(e.describe());
        }
    }

    @Property(tries = 2000)
    void anyBytesCanBeDumped(@ForAll("bytes") byte[] bytes) {
        assertNotNull(MadDump.describe(bytes, bytes.length));
        assertNotNull(MadDump.summary(bytes));
    }

    private static void validate(Case<?> c, byte[] reply, int length) {
        try {
            c.validate(new ReceivedMad(reply, Math.min(length, reply.length), MadAddress.gmp(5), false));
        } catch (MadException e) {
            assertNotNull(e.describe());
        } catch (MalformedMadException e) {
            assertNotNull(e.getMessage());
        }
    }

    @Provide
    Arbitrary<Integer> cases() {
        return Arbitraries.integers().between(0, CASES.size() - 1);
    }

    @Provide
    Arbitrary<byte[]> bytes() {
        return Arbitraries.bytes().array(byte[].class).ofMinSize(0).ofMaxSize(700);
    }

    @Provide
    Arbitrary<Double> fractions() {
        return Arbitraries.doubles().between(0, 1);
    }

    @Provide
    Arbitrary<Integer> records() {
        return Arbitraries.integers().between(0, 12);
    }

    @Provide
    Arbitrary<List<int[]>> edits() {
        Arbitrary<int[]> edit = Combinators.combine(Arbitraries.integers().between(0, 80).injectDuplicates(0.1)
                .map(i -> i < 64 ? i : i * 13), Arbitraries.integers().between(0, 255)).as((at, value) -> new int[] {at, value});
        return edit.list().ofMaxSize(6);
    }
}
