package org.jrdma.iba.wire;

import java.util.ArrayList;
import java.util.List;
import org.jrdma.iba.Mad;
import org.jrdma.iba.mad.MadHeader;

/**
 * Decodes received MAD bytes generically: the common header (IBA 13.4.2) says the management
 * class and attribute, the class's MAD format says where the attribute data starts, and
 * {@link IbaStructs#forAttribute} supplies the attribute's class.
 *
 * <p>The input is untrusted: anything too short or inconsistent raises a
 * {@link MalformedMadException} naming the problem; nothing reads out of bounds and the work is
 * bounded by the input's length.
 */
public final class MadDecoder {
    /** Bytes in a MAD on the wire (without RMPP reassembly). */
    public static final int MAD_SIZE = 256;
    /** Where the SA attribute data starts: MAD header, RMPP header, SM_Key, AttributeOffset, ComponentMask. */
    public static final int SA_DATA_OFFSET = 56;
    private static final int SA_ATTRIBUTE_OFFSET_BYTE = 44;

    private MadDecoder() {
    }

    /**
     * Where a management class puts its attribute data (IBA 14.2.1, 15.2.1, 16.1.1, 16.3.1, 16.4,
     * 12.6, 13.4.5 vendor formats, A10 congestion control).
     */
    public static int dataOffset(int mgmtClass) {
        return switch (mgmtClass) {
            case Mad.CLASS_SUBN_LID_ROUTED, Mad.CLASS_SUBN_DIRECTED_ROUTE -> 64;
            case Mad.CLASS_SUBN_ADM -> SA_DATA_OFFSET;
            case Mad.CLASS_PERF_MGMT, Mad.CLASS_BM, Mad.CLASS_DEVICE_MGMT, Mad.CLASS_CONG_MGMT -> 64;
            default -> mgmtClass >= Mad.CLASS_VENDOR_RANGE2_START && mgmtClass <= Mad.CLASS_VENDOR_RANGE2_END ? 40 : 24;
        };
    }

    /** Decodes a whole MAD held in {@code mad} (256 bytes, or more after RMPP reassembly). */
    public static DecodedMad decode(byte[] mad) {
        return decode(mad, 0, mad.length);
    }

    /**
     * Decodes the MAD in {@code mad[offset .. offset+length)}.
     *
     * @throws MalformedMadException if the bytes are not a decodable MAD
     */
    public static DecodedMad decode(byte[] mad, int offset, int length) {
        if (offset < 0 || length < 0 || offset > mad.length - length) {
            throw new MalformedMadException("range " + offset + "+" + length + " outside a " + mad.length + "-byte buffer");
        }
        if (length < MadHeader.SIZE) {
            throw new MalformedMadException("a MAD has a " + MadHeader.SIZE + "-byte header; got " + length + " bytes");
        }
        MadHeader header = MadHeader.decode(mad, offset);
        if (header.baseVersion() != 1) {
            throw new MalformedMadException("MAD base version " + header.baseVersion() + " is not 1");
        }
        int cls = header.mgmtClass();
        int dataOffset = dataOffset(cls);
        IbaStruct prototype = IbaStructs.forAttribute(cls, header.attributeId());
        if (prototype == null || length < dataOffset) {
            return new DecodedMad(header, dataOffset, null, List.of());
        }
        if (cls == Mad.CLASS_SUBN_ADM && isTableResponse(header.method() | header.r() << 7)) {
            List<IbaStruct> records = saRecords(mad, offset, length, header, prototype);
            return new DecodedMad(header, dataOffset, records.isEmpty() ? null : records.getFirst(), records);
        }
        if (length - dataOffset < prototype.size()) {
            throw new MalformedMadException(prototype.ibaName() + " needs " + prototype.size() + " bytes at offset "
                    + dataOffset + " of the MAD, which has " + length);
        }
        prototype.unpack(mad, offset + dataOffset);
        return new DecodedMad(header, dataOffset, prototype, List.of(prototype));
    }

    private static boolean isTableResponse(int method) {
        return method == Mad.METHOD_GET_TABLE_RESP || method == Mad.METHOD_GET_MULTI_RESP;
    }

    /** The records of an SA table response: AttributeOffset gives their spacing in 8-byte words. */
    private static List<IbaStruct> saRecords(byte[] mad, int offset, int length, MadHeader header, IbaStruct prototype) {
        if (length < SA_DATA_OFFSET) {
            throw new MalformedMadException("an SA MAD has a " + SA_DATA_OFFSET + "-byte header; got " + length + " bytes");
        }
        int stride = Bits.u16(mad, offset + SA_ATTRIBUTE_OFFSET_BYTE) * 8;
        if (stride == 0) {
            return List.of();
        }
        if (stride < prototype.size()) {
            throw new MalformedMadException("SA AttributeOffset " + stride / 8 + " (" + stride + " bytes) is smaller than a "
                    + prototype.ibaName() + " (" + prototype.size() + " bytes)");
        }
        List<IbaStruct> records = new ArrayList<>();
        for (int at = SA_DATA_OFFSET; at + prototype.size() <= length; at += stride) {
            IbaStruct record = IbaStructs.forAttribute(header.mgmtClass(), header.attributeId());
            records.add(record.unpack(mad, offset + at));
        }
        return records;
    }
}
