package org.jrdma.mad;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.function.Supplier;
import org.jrdma.iba.Mad;
import org.jrdma.iba.mad.RmppHeader;
import org.jrdma.iba.wire.Bits;
import org.jrdma.iba.wire.IbaStruct;
import org.jrdma.iba.wire.MadDecoder;
import org.jrdma.path.IBPath;

/**
 * A request and the reply it got: checks that the reply answers the request (IBA 13.4.6.1: the
 * same class, version, TID and attribute, the response method, for vendor classes the same OUI)
 * and turns its status word (IBA 13.4.7) into the exceptions, then reads the attribute or the SA
 * records out of it. The reply's bytes are untrusted: every failure is a {@link MadException}
 * carrying the request, the reply and the path.
 *
 * @param call    the RPC made
 * @param request the request as sent
 * @param reply   the reply
 * @param path    the path the request went on
 */
record Transaction(MadCall<?> call, byte[] request, ReceivedMad reply, IBPath path) {
    private static final int STATUS_OFFSET = 4;
    private static final int TID_LOW_OFFSET = 12;
    private static final int ATTRIBUTE_ID_OFFSET = 16;
    private static final int VENDOR_OUI_OFFSET = 37;
    /** SA AttributeOffset (IBA 15.2.1.1). */
    private static final int SA_ATTRIBUTE_OFFSET_OFFSET = 44;
    /** The SA header's own bytes that an RMPP PayloadLength counts (SM_Key, AttributeOffset, ComponentMask). */
    private static final int SA_HEADER_BYTES = MadDecoder.SA_DATA_OFFSET - Rmpp.HEADER_END;

    /**
     * Checks the reply against the request and its status word.
     *
     * @return the status word, which is 0, or has the redirect bit alone for a GMP the responder redirects
     * @throws MadClassException when the status holds a class-specific error
     * @throws MadException      when the reply does not answer the request, or its status holds another error
     */
    int check() {
        byte[] mad = reply.mad();
        if (reply.length() < call.dataOffset()) {
            throw fail("the reply of " + reply.length() + " bytes is shorter than the " + call.dataOffset()
                    + "-byte header of its class");
        }
        expect("base version", mad[0], Mad.BASE_VERSION);
        expect("management class", mad[1], call.mgmtClass());
        expect("class version", mad[2], request[2]);
        expect("method", mad[3], MadReplies.responseMethod(call.rpc().method));
        if (Bits.u32(mad, TID_LOW_OFFSET) != Bits.u32(request, TID_LOW_OFFSET)) {
            throw fail(String.format("the reply has TID 0x%016x, the request 0x%016x", Bits.u64(mad, 8), Bits.u64(request, 8)));
        }
        if (call.rpc() != Rpc.SUBN_ADM_GET_MULTI) {
            expect("attribute ID", Bits.u16(mad, ATTRIBUTE_ID_OFFSET), Bits.u16(request, ATTRIBUTE_ID_OFFSET));
        }
        if (call.oui() != 0) {
            expect("OUI", (int) Bits.get(mad, VENDOR_OUI_OFFSET, 0, 24), call.oui());
        }
        int status = Bits.u16(mad, STATUS_OFFSET);
        if (call.mgmtClass() == Mad.CLASS_SUBN_DIRECTED_ROUTE) {
            if ((status & Mad.STATUS_DIRECTED_RESPONSE) == 0) {
                throw fail("the directed-route reply lacks the D bit");
            }
            status &= ~Mad.STATUS_DIRECTED_RESPONSE;
        }
        if (status == Mad.STATUS_REDIRECT && !MadAddress.isSmp(call.mgmtClass())) {
            return status;
        }
        if ((status & Mad.STATUS_CLASS_MASK) != 0) {
            throw new MadClassException(this + " failed", call.mgmtClass(), status, exchange());
        }
        if (status != 0) {
            throw new MadException(this + " failed", status, exchange());
        }
        return status;
    }

    /**
     * The attribute the reply carries, in a new instance: {@code size()} bytes at the class's
     * data offset, which the reply must hold.
     */
    <R extends IbaStruct> R attribute(Supplier<R> factory) {
        return attributeAt(factory, call.dataOffset());
    }

    /** The attribute the reply carries at byte {@code offset}, in a new instance. */
    <R extends IbaStruct> R attributeAt(Supplier<R> factory, int offset) {
        R result = factory.get();
        if (reply.length() < offset + result.size()) {
            throw fail("the reply holds " + reply.length() + " bytes, too few for " + result.ibaName() + " ("
                    + result.size() + " bytes at offset " + offset + ")");
        }
        result.unpack(reply.mad(), offset);
        return result;
    }

    /**
     * The records of an SA table response (GetTableResp, GetMultiResp; IBA 15.2.5): spaced by
     * AttributeOffset (8-byte words), up to the end of the reply. The end is the reply's length
     * for a reassembled RMPP transfer and for the single MAD ibsim relays from OpenSM, and the
     * PayloadLength of a lone First-and-Last segment. A segment that says more follow but came
     * alone raises a {@link MadException} rather than returning part of a table.
     */
    <R extends IbaStruct> List<R> records(Supplier<R> factory) {
        byte[] mad = reply.mad();
        if (reply.length() < MadDecoder.SA_DATA_OFFSET) {
            throw fail("the reply of " + reply.length() + " bytes is shorter than an SA header");
        }
        RmppHeader rmpp = Rmpp.header(mad);
        boolean segmented = Rmpp.isActive(mad, reply.length());
        boolean whole = reply.length() > MadDecoder.MAD_SIZE;
        if (!whole && segmented && (rmpp.rmppFlags() & Rmpp.FLAG_LAST) == 0) {
            throw fail("the response continues in further RMPP segments that were not reassembled");
        }
        int end = reply.length();
        if (!whole && segmented && rmpp.data2() >= SA_HEADER_BYTES) {
            end = (int) Math.min(end, Rmpp.HEADER_END + rmpp.data2());
        }
        int stride = Bits.u16(mad, SA_ATTRIBUTE_OFFSET_OFFSET) * 8;
        List<R> records = new ArrayList<>();
        for (int at = MadDecoder.SA_DATA_OFFSET; stride > 0; at += stride) {
            R record = factory.get();
            if (stride < record.size()) {
                throw fail("AttributeOffset " + stride / 8 + " is smaller than a " + record.ibaName());
            }
            if (at + record.size() > end) {
                break;
            }
            record.unpack(mad, at);
            records.add(record);
        }
        return records;
    }

    /** What the messages say was done: {@code SubnGet(NodeInfo) to IBDRPath(...)}. */
    @Override
    public String toString() {
        return call + " to " + path;
    }

    /** The request, the reply (as long as it came) and the path, for exceptions. */
    MadException.Exchange exchange() {
        return new MadException.Exchange(request, Arrays.copyOf(reply.mad(), reply.length()), path);
    }

    private void expect(String field, int got, int wanted) {
        if ((got & 0xFF_FFFF) != (wanted & 0xFF_FFFF)) {
            throw fail(String.format("the reply has %s 0x%x, expected 0x%x", field, got & 0xFF_FFFF, wanted & 0xFF_FFFF));
        }
    }

    private void expect(String field, byte got, int wanted) {
        expect(field, got & 0xFF, wanted & 0xFF);
    }

    private MadException fail(String why) {
        return new MadException(this + ": " + why, exchange());
    }
}
