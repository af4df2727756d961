package org.jrdma.mad;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.jrdma.iba.Mad;
import org.jrdma.iba.mad.MadHeader;
import org.jrdma.iba.mad.RmppHeader;
import org.jrdma.iba.wire.MadDecoder;

/**
 * The reliable multi-packet transaction protocol (RMPP, IBA 13.6) as far as both ends share it:
 * which classes carry the RMPP header, its types, flags and abort codes, how a long MAD is cut
 * into DATA segments, and how ACK, STOP and ABORT packets are made from the header of a segment.
 *
 * <p>A transfer is held, before segmenting and after reassembly, in the form the kernel's umad
 * uses: the first segment whole (common MAD header, RMPP header, class header, first data),
 * then the data of every further segment. Each segment repeats the class header (the SA's
 * SM_Key, AttributeOffset and ComponentMask, the vendor OUI), and its PayloadLength counts the
 * 220 bytes after the RMPP header: in the first segment those of the whole transfer, in the last
 * those of the last segment (IBA 13.6.2.3).
 */
final class Rmpp {
    static final int VERSION = 1;
    static final int TYPE_DATA = 1;
    static final int TYPE_ACK = 2;
    static final int TYPE_STOP = 3;
    static final int TYPE_ABORT = 4;
    static final int FLAG_ACTIVE = 0x1;
    static final int FLAG_FIRST = 0x2;
    static final int FLAG_LAST = 0x4;
    /** RRespTime 0x1F: no response time given (IBA 13.6.2.1). */
    static final int NO_RESP_TIME = 0x1F;
    /** ABORT: the transfer took too long. */
    static final int STATUS_T2L = 118;
    /** ABORT: PayloadLength of the last segment inconsistent with the transfer. */
    static final int STATUS_BAD_LEN = 119;
    /** ABORT: First flag and SegmentNumber inconsistent. */
    static final int STATUS_BAD_SEG = 120;
    /** ABORT: illegal RMPPType. */
    static final int STATUS_BADT = 121;
    /** ABORT: NewWindowLast smaller than the segment acknowledged. */
    static final int STATUS_W2S = 122;
    /** ABORT: SegmentNumber beyond the window or the transfer. */
    static final int STATUS_S2B = 123;
    /** ABORT: unsupported RMPPVersion. */
    static final int STATUS_UNV = 125;
    /** ABORT: too many retries. */
    static final int STATUS_TMR = 126;
    /** Where the RMPP header ends: the common MAD header (24 bytes) and the RMPP header (12). */
    static final int HEADER_END = MadHeader.SIZE + RmppHeader.SIZE;
    /** The bytes a segment's PayloadLength counts: all after the RMPP header. */
    static final int SEGMENT_PAYLOAD = MadDecoder.MAD_SIZE - HEADER_END;

    private Rmpp() {
    }

    /** True for the classes whose MADs carry the RMPP header: SA (IBA 15.2.1.1) and vendor 0x30-0x4F (IBA 16.5.1). */
    static boolean hasRmppHeader(int mgmtClass) {
        return mgmtClass == Mad.CLASS_SUBN_ADM
                || mgmtClass >= Mad.CLASS_VENDOR_RANGE2_START && mgmtClass <= Mad.CLASS_VENDOR_RANGE2_END;
    }

    /** True if the first {@code length} bytes of {@code mad} are an RMPP packet: version set and the Active flag on. */
    static boolean isActive(byte[] mad, int length) {
        if (length < HEADER_END || !hasRmppHeader(mad[1] & 0xFF)) {
            return false;
        }
        RmppHeader h = header(mad);
        return h.rmppVersion() != 0 && (h.rmppFlags() & FLAG_ACTIVE) != 0;
    }

    /** True if {@code mad} is an active RMPP packet of type DATA. */
    static boolean isData(ReceivedMad mad) {
        return isActive(mad.mad(), mad.length()) && header(mad.mad()).rmppType() == TYPE_DATA;
    }

    /** True if {@code mad} is an active RMPP packet of type ACK, STOP or ABORT, which only a sender awaits. */
    static boolean isControl(ReceivedMad mad) {
        return isActive(mad.mad(), mad.length()) && header(mad.mad()).rmppType() != TYPE_DATA;
    }

    /** A view of the RMPP header of {@code mad}. */
    static RmppHeader header(byte[] mad) {
        return new RmppHeader(mad, MadHeader.SIZE);
    }

    /** The size of the MAD and class headers a segment of {@code mgmtClass} repeats: where its data starts. */
    static int headerLength(int mgmtClass) {
        return MadDecoder.dataOffset(mgmtClass);
    }

    /**
     * Cuts a transfer into DATA segments of 256 bytes, numbered from 1, flagged First and Last,
     * with the PayloadLength of IBA 13.6.2.3.
     *
     * @param transfer the transfer: the class header in its first {@link #headerLength} bytes, then the data
     */
    static List<byte[]> segments(byte[] transfer) {
        int header = headerLength(transfer[1] & 0xFF);
        int room = MadDecoder.MAD_SIZE - header;
        int data = transfer.length - header;
        int count = Math.max(1, (data + room - 1) / room);
        int pad = count * room - data;
        List<byte[]> segments = new ArrayList<>(count);
        for (int i = 1; i <= count; i++) {
            byte[] segment = new byte[MadDecoder.MAD_SIZE];
            System.arraycopy(transfer, 0, segment, 0, header);
            int from = header + (i - 1) * room;
            System.arraycopy(transfer, from, segment, header, Math.min(room, transfer.length - from));
            int flags = FLAG_ACTIVE | (i == 1 ? FLAG_FIRST : 0) | (i == count ? FLAG_LAST : 0);
            long payload = i == count ? SEGMENT_PAYLOAD - pad : i == 1 ? (long) count * SEGMENT_PAYLOAD - pad : 0;
            header(segment).rmppVersion(VERSION).rmppType(TYPE_DATA).rmppRespTime(NO_RESP_TIME).rmppFlags(flags)
                    .rmppStatus(0).data1(i).data2(payload);
            segments.add(segment);
        }
        return segments;
    }

    /**
     * An ACK, STOP or ABORT about the transfer {@code segment} belongs to: its MAD and class
     * headers, the R bit toggled when the receiver sends it (it answers the sender's packets).
     */
    static byte[] control(byte[] segment, boolean fromReceiver, int type, int status, long data1, long data2) {
        byte[] mad = new byte[MadDecoder.MAD_SIZE];
        int header = Math.min(headerLength(segment[1] & 0xFF), segment.length);
        System.arraycopy(segment, 0, mad, 0, header);
        if (fromReceiver) {
            mad[3] ^= (byte) Mad.METHOD_RESP_MASK;
        }
        header(mad).rmppVersion(VERSION).rmppType(type).rmppRespTime(NO_RESP_TIME).rmppFlags(FLAG_ACTIVE)
                .rmppStatus(status).data1(data1).data2(data2);
        return mad;
    }

    /** The name of an RMPPStatus code, as IBA 13.6.2.2 gives them. */
    static String statusName(int status) {
        return switch (status) {
            case 0 -> "normal";
            case 1 -> "resources exhausted";
            case STATUS_T2L -> "total time too long";
            case STATUS_BAD_LEN -> "inconsistent last and payload length";
            case STATUS_BAD_SEG -> "inconsistent first and segment number";
            case STATUS_BADT -> "bad RMPPType";
            case STATUS_W2S -> "NewWindowLast too small";
            case STATUS_S2B -> "SegmentNumber too big";
            case 124 -> "illegal status";
            case STATUS_UNV -> "unsupported version";
            case STATUS_TMR -> "too many retries";
            case 127 -> "unspecified";
            default -> "status " + status;
        };
    }

    /** A copy of {@code bytes} grown to at least {@code size}, doubling. */
    static byte[] grow(byte[] bytes, int size) {
        return size <= bytes.length ? bytes : Arrays.copyOf(bytes, Math.max(size, bytes.length * 2));
    }
}
