package org.jrdma.mad;

import java.io.PrintStream;

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

    /** One line per MAD: direction, class, method, attribute, modifier, TID, status, LID. */
    static MadTracer summary(PrintStream out) {
        return new MadTracer() {
            @Override
            public void sent(byte[] mad, MadAddress to) {
                out.println("SEND " + MadDump.summary(mad) + " to LID " + to.lid() + " QP " + to.qpn());
            }

            @Override
            public void received(ReceivedMad mad) {
                out.println("RECV " + MadDump.summary(mad.mad()) + " from LID " + mad.from().lid()
                        + (mad.dropped() ? " (dropped by the fabric)" : ""));
            }

            @Override
            public void timeout(byte[] request, MadAddress to, int attempts) {
                out.println("TIMEOUT " + MadDump.summary(request) + " after " + attempts + " attempts");
            }
        };
    }

    /**
     * Like {@link #summary}, followed by each MAD decoded ({@link MadDump#describe}): named header
     * fields, the attribute component by component, and the bytes in hex.
     */
    static MadTracer dump(PrintStream out) {
        MadTracer summary = summary(out);
        return new MadTracer() {
            @Override
            public void sent(byte[] mad, MadAddress to) {
                summary.sent(mad, to);
                out.print(MadDump.describe(mad, mad.length));
            }

            @Override
            public void received(ReceivedMad mad) {
                summary.received(mad);
                out.print(MadDump.describe(mad.mad(), mad.length()));
            }

            @Override
            public void timeout(byte[] request, MadAddress to, int attempts) {
                summary.timeout(request, to, attempts);
            }
        };
    }
}
