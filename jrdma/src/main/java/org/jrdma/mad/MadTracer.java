package org.jrdma.mad;

import java.io.PrintStream;
import org.jrdma.iba.wire.Bits;

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
                out.println("SEND " + line(mad) + " to LID " + to.lid() + " QP " + to.qpn());
            }

            @Override
            public void received(ReceivedMad mad) {
                out.println("RECV " + line(mad.mad()) + " from LID " + mad.from().lid()
                        + (mad.dropped() ? " (dropped by the fabric)" : ""));
            }

            @Override
            public void timeout(byte[] request, MadAddress to, int attempts) {
                out.println("TIMEOUT " + line(request) + " after " + attempts + " attempts");
            }
        };
    }

    /** Like {@link #summary}, followed by a hex dump of each MAD. */
    static MadTracer dump(PrintStream out) {
        MadTracer summary = summary(out);
        return new MadTracer() {
            @Override
            public void sent(byte[] mad, MadAddress to) {
                summary.sent(mad, to);
                out.print(hex(mad));
            }

            @Override
            public void received(ReceivedMad mad) {
                summary.received(mad);
                out.print(hex(mad.mad()));
            }

            @Override
            public void timeout(byte[] request, MadAddress to, int attempts) {
                summary.timeout(request, to, attempts);
            }
        };
    }

    private static String line(byte[] mad) {
        return String.format("class 0x%02x method 0x%02x attr 0x%04x mod 0x%08x tid 0x%016x status 0x%04x",
                mad[1] & 0xFF, mad[3] & 0xFF, Bits.u16(mad, 16), Bits.u32(mad, 20), Bits.u64(mad, 8), Bits.u16(mad, 4));
    }

    private static String hex(byte[] mad) {
        StringBuilder s = new StringBuilder();
        for (int i = 0; i < mad.length; i += 16) {
            s.append(String.format("  %04x:", i));
            for (int j = i; j < Math.min(mad.length, i + 16); j++) {
                s.append(j % 4 == 0 ? "  " : " ").append(String.format("%02x", mad[j] & 0xFF));
            }
            s.append('\n');
        }
        return s.toString();
    }
}
