package org.jrdma.mad;

import java.util.Arrays;
import org.jrdma.iba.Mad;
import org.jrdma.iba.wire.Bits;
import org.jrdma.iba.wire.MadDecoder;

/**
 * How a request turns into its response (IBA 13.4.5, 13.4.6.1): the response keeps the request's
 * header (class, version, TID, attribute, modifier) with the R bit set and the response method,
 * and carries a status word; a directed-route SMP response also has its D bit set (IBA 14.2.1.2).
 */
public final class MadReplies {
    private static final int STATUS_OFFSET = 4;
    /** The RMPP header's bytes after RMPPVersion: type, time and flags, status, Data1, Data2. */
    private static final int RMPP_TYPE_OFFSET = 25;

    private MadReplies() {
    }

    /** True if requests of {@code method} are answered: Get, Set, Report, and the SA's GetTable, GetTraceTable, GetMulti, Delete. */
    public static boolean expectsResponse(int method) {
        return switch (method) {
            case Mad.METHOD_GET, Mad.METHOD_SET, Mad.METHOD_REPORT, Mad.METHOD_GET_TABLE, Mad.METHOD_GET_TRACE_TABLE,
                    Mad.METHOD_GET_MULTI, Mad.METHOD_DELETE -> true;
            default -> false;
        };
    }

    /**
     * The method of the response to a request method: GetResp for Get and Set, GetTableResp for
     * GetTable and GetTraceTable, and the method with the R bit for Report, GetMulti and Delete.
     *
     * @throws IllegalArgumentException if requests of {@code method} get no response
     */
    public static int responseMethod(int method) {
        if (!expectsResponse(method)) {
            throw new IllegalArgumentException(String.format("method 0x%02x is not a request that gets a response", method));
        }
        return switch (method) {
            case Mad.METHOD_GET, Mad.METHOD_SET -> Mad.METHOD_GET_RESP;
            case Mad.METHOD_GET_TRACE_TABLE -> Mad.METHOD_GET_TABLE_RESP;
            default -> method | Mad.METHOD_RESP_MASK;
        };
    }

    /**
     * A 256-byte response to {@code request} carrying {@code status} and, after the header, the
     * request's own bytes: the error response IBA 13.4.7 describes (the request returned with its
     * status set), and the start of any other response. The RMPP header, where the class has one,
     * is cleared but for its version.
     *
     * @param status the status word, common bits and class-specific bits (the D bit is added for directed-route SMPs)
     * @throws IllegalArgumentException if the request gets no response, is shorter than a MAD
     *                                  header, or the status does not fit in 16 bits
     */
    public static byte[] response(byte[] request, int status) {
        if (request.length < MadDecoder.MAD_SIZE) {
            throw new IllegalArgumentException("a MAD request is " + MadDecoder.MAD_SIZE + " bytes, not " + request.length);
        }
        if ((status & ~0xFFFF) != 0) {
            throw new IllegalArgumentException("MAD status " + status + " does not fit in 16 bits");
        }
        byte[] reply = Arrays.copyOf(request, MadDecoder.MAD_SIZE);
        reply[3] = (byte) responseMethod(request[3] & 0xFF);
        int mgmtClass = reply[1] & 0xFF;
        boolean directed = mgmtClass == Mad.CLASS_SUBN_DIRECTED_ROUTE;
        Bits.u16(reply, STATUS_OFFSET, directed ? status | Mad.STATUS_DIRECTED_RESPONSE : status);
        if (Rmpp.hasRmppHeader(mgmtClass)) {
            Arrays.fill(reply, RMPP_TYPE_OFFSET, Rmpp.HEADER_END, (byte) 0);
        }
        return reply;
    }
}
