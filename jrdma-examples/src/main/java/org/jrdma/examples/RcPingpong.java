package org.jrdma.examples;

import java.lang.foreign.Arena;
import org.jrdma.verbs.AhAttr;
import org.jrdma.verbs.Context;
import org.jrdma.verbs.QpAttr;
import org.jrdma.verbs.QpState;
import org.jrdma.verbs.QpType;

/**
 * libibverbs' {@code ibv_rc_pingpong} in Java: the same options, the same TCP exchange of
 * {@code LID:QPN:PSN:GID} ({@link PingpongExchange}), the same RC SEND/RECV ping-pong and the
 * same two result lines, so a Java side talks to a C side either way round.
 *
 * <pre>
 * java --enable-native-access=ALL-UNNAMED -cp ... org.jrdma.examples.RcPingpong -d rxe0 -g 0          # server
 * java --enable-native-access=ALL-UNNAMED -cp ... org.jrdma.examples.RcPingpong -d rxe0 -g 0 10.0.0.1 # client
 * </pre>
 *
 * <p>The loop is {@link Pingpong}'s; this class creates the RC queue pair and connects it with
 * rc_pingpong's attributes. {@code -N} builds the sends through {@code ibv_wr_*}, and the
 * Java-only {@code --cq-ex} polls an extended CQ ({@code ibv_start_poll}). Not supported:
 * on-demand paging, completion timestamps and device memory ({@code -o -O -P -t -j}); the page
 * size is taken as 4096.
 */
public final class RcPingpong extends Pingpong {
    private RcPingpong(PingpongSettings settings, Context ctx, Arena arena) {
        super(settings, ctx, arena, QpType.RC, 0);
        qp.modify(new QpAttr().qpState(QpState.INIT).pkeyIndex(0).portNum(settings.ibPort()).qpAccessFlags(0));
    }

    /** Runs {@code ibv_rc_pingpong} with {@code args}; exits 0 on success, 1 on failure. */
    public static void main(String[] args) {
        main(args, PingpongSettings::parse, PingpongSettings.USAGE, RcPingpong::new);
    }

    /** {@code pp_connect_ctx}: RTR then RTS towards {@code dest}, with rc_pingpong's attributes. */
    @Override
    void connect(PingpongDest dest) {
        AhAttr ah = new AhAttr().dlid(dest.lid()).sl(settings.sl()).srcPathBits(0).portNum(settings.ibPort());
        try {
            if (dest.gid().interfaceId() != 0) {
                ah.grh(dest.gid(), settings.gidIndex(), 1);
            }
            qp.modify(new QpAttr().qpState(QpState.RTR).ahAttr(ah).pathMtu(settings.mtu()).destQpNum(dest.qpn())
                    .rqPsn(dest.psn()).maxDestRdAtomic(1).minRnrTimer(12));
        } catch (RuntimeException e) {
            throw new IllegalStateException("Failed to modify QP to RTR: " + e.getMessage(), e);
        }
        try {
            qp.modify(new QpAttr().qpState(QpState.RTS).timeout(14).retryCnt(7).rnrRetry(7).sqPsn(myPsn)
                    .maxRdAtomic(1));
        } catch (RuntimeException e) {
            throw new IllegalStateException("Failed to modify QP to RTS: " + e.getMessage(), e);
        }
    }
}
