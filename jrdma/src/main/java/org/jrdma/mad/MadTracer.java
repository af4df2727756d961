package org.jrdma.mad;

import java.io.PrintStream;
import java.util.function.Consumer;

/**
 * Told about every MAD an engine sends and receives, for debugging: the seed's
 * {@code simple_tracer} ({@link #summary}) and {@code dumper_tracer} ({@link #dump}).
 */
public interface MadTracer {
    /** A tracer that does nothing. */
    MadTracer NONE = new MadTracer() {
    };

    /** A MAD was sent. */
    default void sent(byte[] mad, MadAddress to) {
    }

    /** A MAD was received. */
    default void received(ReceivedMad mad) {
    }

    /** A request went unanswered after all its attempts. */
    default void timeout(byte[] request, MadAddress to, int attempts) {
    }

    /**
     * One line per MAD: direction, class, method, attribute, modifier, TID, status, LID (for a MAD
     * sent its QP too, and its P_Key index when not 0).
     */
    static MadTracer summary(PrintStream out) {
        return summary(out::print);
    }

    /** Like {@link #summary(PrintStream)}, each line (with its newline) given to {@code out}. */
    static MadTracer summary(Consumer<String> out) {
        return printing(out, false);
    }

    /**
     * Like {@link #summary}, followed by each MAD decoded ({@link MadDump#describe}): named header
     * fields, the attribute component by component, and the bytes in hex.
     */
    static MadTracer dump(PrintStream out) {
        return dump(out::print);
    }

    /**
     * Like {@link #dump(PrintStream)}, the text of each MAD (its summary line and its decoding) given
     * to {@code out} in one piece, so MADs traced from several threads do not interleave.
     */
    static MadTracer dump(Consumer<String> out) {
        return printing(out, true);
    }

    /** A tracer giving {@code out} one summary line per event, each MAD decoded after its line if {@code decoded}. */
    private static MadTracer printing(Consumer<String> out, boolean decoded) {
        return new MadTracer() {
            @Override
            public void sent(byte[] mad, MadAddress to) {
                out.accept("SEND " + MadDump.summary(mad) + " to LID " + to.lid() + " QP " + to.qpn()
                        + (to.pkeyIndex() != 0 ? " P_Key index " + to.pkeyIndex() : "") + "\n"
                        + (decoded ? MadDump.describe(mad, mad.length) : ""));
            }

            @Override
            public void received(ReceivedMad mad) {
                out.accept("RECV " + MadDump.summary(mad.mad()) + " from LID " + mad.from().lid()
                        + (mad.dropped() ? " (dropped by the fabric)" : "") + "\n"
                        + (decoded ? MadDump.describe(mad.mad(), mad.length()) : ""));
            }

            @Override
            public void timeout(byte[] request, MadAddress to, int attempts) {
                out.accept("TIMEOUT " + MadDump.summary(request) + " after " + attempts + " attempts\n");
            }
        };
    }
}
