package org.jrdma.tools.cc;

import java.time.Duration;
import org.jrdma.iba.Mad;
import org.jrdma.iba.cc.CcCongestionLog;
import org.jrdma.iba.mad.CcFormat;
import org.jrdma.iba.mad.MadHeader;
import org.jrdma.iba.wire.IbaStruct;
import org.jrdma.iba.wire.MadAttribute;
import org.jrdma.mad.MadAddress;
import org.jrdma.mad.MadEngine;
import org.jrdma.mad.MadException;
import org.jrdma.mad.MadTimeoutException;
import org.jrdma.mad.ReceivedMad;
import org.jrdma.path.IBPath;

/**
 * Congestion Control MADs (class 0x21, version 2, IBA annex A10.4.1) to one LID's QP1, as
 * libibmad's {@code cc_query_status_via} and {@code cc_config_status_via} send them: the CC_Key in
 * every request, the attribute data at byte 64 (the CongestionLog at byte 32), and an answer whose
 * status is not 0 a failure.
 *
 * @param engine  the engine to send through
 * @param lid     the destination
 * @param ccKey   the CC_Key ({@code -c})
 * @param timeout how long to wait for each attempt
 * @param retries how many times to resend an unanswered request
 */
record CcMads(MadEngine engine, int lid, long ccKey, Duration timeout, int retries) {
    /** The CC class version libibmad sends. */
    private static final int CLASS_VERSION = 2;
    /** Where a CC MAD's data starts, and where the CongestionLog's does. */
    private static final int DATA_OFFSET = 64;
    private static final int LOG_DATA_OFFSET = 32;

    /** Get: the attribute's value at {@code modifier}, read into {@code attribute}. */
    <T extends IbaStruct & MadAttribute> T get(T attribute, long modifier) {
        attribute.unpack(getData(attribute, modifier), 0);
        return attribute;
    }

    /**
     * Get: the whole data area of the answer (from the attribute's offset to the end of the MAD),
     * which the C tools read past the attribute's end where they index by 48 ports.
     */
    <T extends IbaStruct & MadAttribute> byte[] getData(T attribute, long modifier) {
        return call(Mad.METHOD_GET, attribute, modifier);
    }

    /** Set: writes {@code attribute} at {@code modifier}. */
    <T extends IbaStruct & MadAttribute> void set(T attribute, long modifier) {
        call(Mad.METHOD_SET, attribute, modifier);
    }

    private <T extends IbaStruct & MadAttribute> byte[] call(int method, T attribute, long modifier) {
        byte[] request = new byte[CcFormat.SIZE];
        new MadHeader(request, 0).baseVersion(Mad.BASE_VERSION).mgmtClass(Mad.CLASS_CONG_MGMT).classVersion(CLASS_VERSION)
                .method(method).attributeId(attribute.attributeId()).attributeModifier(modifier & 0xFFFF_FFFFL);
        new CcFormat(request, 0).ccKey(ccKey);
        int offset = offset(attribute);
        byte[] data = attribute.toBytes();
        System.arraycopy(data, 0, request, offset, Math.min(data.length, request.length - offset));
        ReceivedMad reply;
        try {
            reply = engine.execute(request, MadAddress.gmp(lid), timeout, retries);
        } catch (MadTimeoutException e) {
            throw new MadTimeoutException(what(method, attribute) + ": " + e.getMessage(), exchange(request));
        } catch (MadException e) {
            throw new MadException(what(method, attribute) + ": " + e.getMessage(), exchange(request));
        }
        byte[] mad = reply.mad();
        int status = new MadHeader(mad, 0).status();
        if (status != 0) {
            throw new MadException(String.format("%s: the reply has status 0x%04x", what(method, attribute), status), status,
                    new MadException.Exchange(request, mad, path()));
        }
        byte[] answer = new byte[CcFormat.SIZE - offset];
        System.arraycopy(mad, offset, answer, 0, Math.min(answer.length, Math.max(0, reply.length() - offset)));
        return answer;
    }

    private String what(int method, IbaStruct attribute) {
        return "CC " + (method == Mad.METHOD_SET ? "Set" : "Get") + "(" + attribute.ibaName() + ") to LID " + lid;
    }

    private MadException.Exchange exchange(byte[] request) {
        return new MadException.Exchange(request, null, path());
    }

    private IBPath path() {
        return IBPath.builder(null).dlid(lid).build();
    }

    private static int offset(IbaStruct attribute) {
        return attribute instanceof CcCongestionLog ? LOG_DATA_OFFSET : DATA_OFFSET;
    }
}
