package org.jrdma.mad;

import java.time.Duration;
import org.jrdma.MadException;
import org.jrdma.iba.Mad;
import org.jrdma.iba.mad.SmpDirectedFormat;
import org.jrdma.iba.mad.SmpFormat;
import org.jrdma.iba.wire.Bits;
import org.jrdma.iba.wire.IbaStruct;
import org.jrdma.iba.wire.MadAttribute;

/**
 * SubnGet and SubnSet (IBA 14.2.1): subnet management packets to a LID or along a directed
 * route, over a {@link MadEngine}. The attribute passed in is what a Set sends and where a Get's
 * answer is written; it is returned for chaining.
 */
public final class SmpClient {
    /** Where SMP attribute data starts in both SMP formats. */
    private static final int DATA_OFFSET = 64;
    private static final int DATA_SIZE = 64;

    private final MadEngine engine;
    private final Duration timeout;
    private final int retries;
    private final long mKey;

    /**
     * @param engine  the engine to send through
     * @param timeout how long to wait for each attempt
     * @param retries how many times to resend an unanswered SMP
     * @param mKey    the M_Key to send (0 when the subnet uses none)
     */
    public SmpClient(MadEngine engine, Duration timeout, int retries, long mKey) {
        this.engine = engine;
        this.timeout = timeout;
        this.retries = retries;
        this.mKey = mKey;
    }

    /** The engine this client sends through. */
    public MadEngine engine() {
        return engine;
    }

    /** SubnGet: reads an attribute into {@code attribute} and returns it. */
    public <T extends IbaStruct & MadAttribute> T get(T attribute, SmpTarget target, long attributeModifier) {
        return exchange(Mad.METHOD_GET, attribute, target, attributeModifier);
    }

    /** SubnSet: writes {@code attribute}; the node's answer (its new value) is written back into it. */
    public <T extends IbaStruct & MadAttribute> T set(T attribute, SmpTarget target, long attributeModifier) {
        return exchange(Mad.METHOD_SET, attribute, target, attributeModifier);
    }

    private <T extends IbaStruct & MadAttribute> T exchange(int method, T attribute, SmpTarget target, long modifier) {
        if (attribute.size() > DATA_SIZE) {
            throw new IllegalArgumentException(attribute.ibaName() + " (" + attribute.size() + " bytes) is not an SMP attribute");
        }
        byte[] mad = new byte[256];
        MadAddress to = build(mad, method, attribute, target, modifier);
        ReceivedMad reply = engine.execute(mad, to, timeout, retries);
        check(reply.mad(), method, attribute, target, modifier);
        attribute.unpack(reply.mad(), DATA_OFFSET);
        return attribute;
    }

    private MadAddress build(byte[] mad, int method, IbaStruct attribute, SmpTarget target, long modifier) {
        int attributeId = ((MadAttribute) attribute).attributeId();
        switch (target) {
            case SmpTarget.Lid lid -> {
                SmpFormat smp = new SmpFormat(mad, 0);
                smp.header().baseVersion(1).mgmtClass(Mad.CLASS_SUBN_LID_ROUTED).classVersion(1).method(method)
                        .attributeId(attributeId).attributeModifier(modifier);
                smp.mKey(mKey);
                attribute.pack(mad, DATA_OFFSET);
                return MadAddress.smp(lid.lid());
            }
            case SmpTarget.DirectedRoute dr -> {
                SmpDirectedFormat smp = new SmpDirectedFormat(mad, 0);
                smp.baseVersion(1).mgmtClass(Mad.CLASS_SUBN_DIRECTED_ROUTE).classVersion(1).method(method)
                        .hopPointer(0).hopCount(dr.hops()).attributeId(attributeId).attributeModifier(modifier)
                        .mKey(mKey).drSlid(MadAddress.PERMISSIVE_LID).drDlid(MadAddress.PERMISSIVE_LID);
                int[] ports = dr.ports();
                for (int i = 0; i < ports.length; i++) {
                    smp.initialPath(i + 1, ports[i]);
                }
                attribute.pack(mad, DATA_OFFSET);
                return MadAddress.smp(MadAddress.PERMISSIVE_LID);
            }
        }
    }

    private static void check(byte[] reply, int method, IbaStruct attribute, SmpTarget target, long modifier) {
        int replyMethod = reply[3] & 0xFF;
        boolean directed = (reply[1] & 0xFF) == Mad.CLASS_SUBN_DIRECTED_ROUTE;
        int status = Bits.u16(reply, 4) & (directed ? 0x7FFF : 0xFFFF);
        String what = (method == Mad.METHOD_GET ? "SubnGet(" : "SubnSet(") + attribute.ibaName()
                + (modifier != 0 ? String.format(", modifier 0x%x", modifier) : "") + ") to " + describe(target);
        if (replyMethod != Mad.METHOD_GET_RESP) {
            throw new MadException(String.format("%s: the reply has method 0x%02x, not GetResp", what, replyMethod));
        }
        if (Bits.u16(reply, 16) != ((MadAttribute) attribute).attributeId()) {
            throw new MadException(String.format("%s: the reply is for attribute 0x%04x", what, Bits.u16(reply, 16)));
        }
        if (status != 0) {
            throw new MadException(what + " failed: " + Mad.statusToString(Mad.CLASS_SUBN_LID_ROUTED, status), status);
        }
    }

    private static String describe(SmpTarget target) {
        return switch (target) {
            case SmpTarget.Lid lid -> "LID " + lid.lid();
            case SmpTarget.DirectedRoute dr -> "DR path " + dr;
        };
    }
}
