package org.jrdma.mad;

import org.jrdma.iba.Mad;
import org.jrdma.iba.mad.MadHeader;
import org.jrdma.iba.mad.RmppHeader;
import org.jrdma.iba.wire.Bits;
import org.jrdma.iba.wire.DecodedMad;
import org.jrdma.iba.wire.IbaStruct;
import org.jrdma.iba.wire.MadDecoder;
import org.jrdma.iba.wire.MalformedMadException;

/**
 * Text forms of a MAD for traces and error reports: a one-line summary of the common header
 * (IBA 13.4.2), and a full dump with the header's fields named, the RMPP header of classes that
 * have one (IBA 13.6.2), the attribute (or every SA record) component by component where jrdma
 * knows it, and the bytes in hex. Safe on any bytes: what cannot be decoded is said, never thrown.
 */
public final class MadDump {
    private MadDump() {
    }

    /** One line: class, method, attribute, modifier, TID and status of the common header. */
    public static String summary(byte[] mad) {
        if (mad.length < MadHeader.SIZE) {
            return "(" + mad.length + " bytes, too short for a MAD header)";
        }
        return String.format("class 0x%02x method 0x%02x attr 0x%04x mod 0x%08x tid 0x%016x status 0x%04x",
                mad[1] & 0xFF, mad[3] & 0xFF, Bits.u16(mad, 16), Bits.u32(mad, 20), Bits.u64(mad, 8), Bits.u16(mad, 4));
    }

    /**
     * The first {@code length} bytes of {@code mad} decoded: the common header with the names of
     * class, method and status, the RMPP header where the class has one and it is active, the
     * attribute or records, then the hex dump.
     */
    public static String describe(byte[] mad, int length) {
        int n = Math.max(0, Math.min(length, mad.length));
        StringBuilder out = new StringBuilder();
        if (n < MadHeader.SIZE) {
            return out.append("  (").append(n).append(" bytes, too short for a MAD header)\n").append(hex(mad, n)).toString();
        }
        int mgmtClass = mad[1] & 0xFF;
        int method = mad[3] & 0xFF;
        int status = Bits.u16(mad, 4);
        out.append(String.format("  %s %s(0x%02x) %s(0x%02x) attr 0x%04x mod 0x%08x tid 0x%016x status 0x%04x (%s), %d bytes%n",
                mad[0] == Mad.BASE_VERSION ? "MAD" : "MAD base version " + (mad[0] & 0xFF), Mad.className(mgmtClass),
                mgmtClass, Mad.methodName(mgmtClass, method), method, Bits.u16(mad, 16), Bits.u32(mad, 20),
                Bits.u64(mad, 8), status, Mad.statusToString(mgmtClass, status & ~directionBit(mgmtClass)), n));
        if (Rmpp.hasRmppHeader(mgmtClass) && n >= Rmpp.HEADER_END) {
            RmppHeader rmpp = new RmppHeader(mad, MadHeader.SIZE);
            if (rmpp.rmppVersion() != 0 || rmpp.rmppFlags() != 0) {
                out.append(String.format("  RMPP version %d type %d flags 0x%x status %d data1 %d data2 %d%n",
                        rmpp.rmppVersion(), rmpp.rmppType(), rmpp.rmppFlags(), rmpp.rmppStatus(), rmpp.data1(), rmpp.data2()));
            }
        }
        try {
            DecodedMad decoded = MadDecoder.decode(mad, 0, n);
            if (decoded.records().isEmpty()) {
                out.append(String.format("  attribute 0x%04x: not known to jrdma for this class%n", Bits.u16(mad, 16)));
            }
            for (IbaStruct record : decoded.records()) {
                record.toDottedString().lines().forEach(line -> out.append("  ").append(line).append('\n'));
            }
        } catch (MalformedMadException e) {
            out.append("  undecodable: ").append(e.getMessage()).append('\n');
        }
        return out.append(hex(mad, n)).toString();
    }

    /** The first {@code length} bytes in hex, 16 to a line, each line starting with its offset. */
    public static String hex(byte[] mad, int length) {
        StringBuilder s = new StringBuilder();
        int n = Math.max(0, Math.min(length, mad.length));
        for (int i = 0; i < n; i += 16) {
            s.append(String.format("  %04x:", i));
            for (int j = i; j < Math.min(n, i + 16); j++) {
                s.append(j % 4 == 0 ? "  " : " ").append(String.format("%02x", mad[j] & 0xFF));
            }
            s.append('\n');
        }
        return s.toString();
    }

    private static int directionBit(int mgmtClass) {
        return mgmtClass == Mad.CLASS_SUBN_DIRECTED_ROUTE ? Mad.STATUS_DIRECTED_RESPONSE : 0;
    }
}
