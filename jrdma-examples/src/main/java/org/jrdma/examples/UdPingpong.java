package org.jrdma.examples;

import java.lang.foreign.Arena;
import org.jrdma.Rdma;
import org.jrdma.devices.EndPort;
import org.jrdma.path.IBPath;
import org.jrdma.verbs.Ah;
import org.jrdma.verbs.Context;
import org.jrdma.verbs.QpType;
import org.jrdma.verbs.WcPath;

/**
 * libibverbs' {@code ibv_ud_pingpong} in Java: the same options, the same TCP exchange of
 * {@code LID:QPN:PSN:GID} ({@link PingpongExchange}), the same UD SEND/RECV ping-pong and the
 * same output, so a Java side talks to a C side either way round.
 *
 * <pre>
 * java --enable-native-access=ALL-UNNAMED -cp ... org.jrdma.examples.UdPingpong -d rxe0 -g 0 -s 1024          # server
 * java --enable-native-access=ALL-UNNAMED -cp ... org.jrdma.examples.UdPingpong -d rxe0 -g 0 -s 1024 10.0.0.1 # client
 * </pre>
 *
 * <p>The loop is {@link Pingpong}'s. The queue pair is set up from an {@link IBPath}, as
 * python-rdma does: INIT from the local path (end port, P_Key, the Q_Key {@value #QKEY} that
 * ud_pingpong uses), then, once the peer's address is known, RTR and RTS from the path to the
 * peer (its QPN, and the local PSN), whose address handle {@code pd.ah(path)} makes: LID and SL,
 * and with the peer's GID a GRH with hop limit 1 from the local GID {@code -g}. A message is at
 * most the port's active MTU ({@code ibv_ud_pingpong} refuses more), and every receive buffer
 * starts with the {@value WcPath#GRH_BYTES} bytes of GRH a UD receive is given before the
 * message.
 */
public final class UdPingpong extends Pingpong {
    /** The Q_Key of {@code ud_pingpong.c}. */
    static final int QKEY = 0x11111111;

    private final IBPath local;

    private UdPingpong(PingpongSettings settings, Context ctx, Arena arena) throws PingpongException {
        super(settings, ctx, arena, QpType.UD, WcPath.GRH_BYTES);
        int mtu = ctx.queryPort(settings.ibPort()).activeMtu().bytes();
        if (settings.size() > mtu) {
            throw new PingpongException("Requested size larger than port MTU (" + mtu + ")");
        }
        EndPort endPort = Rdma.getEndPort(ctx.deviceName() + "/" + settings.ibPort());
        this.local = IBPath.builder(endPort).qkey(QKEY).sl(settings.sl()).sqpsn(myPsn).build();
        qp.modifyToInit(local);
    }

    /** Runs {@code ibv_ud_pingpong} with {@code args}; exits 0 on success, 1 on failure. */
    public static void main(String[] args) {
        main(args, PingpongSettings::parseUd, PingpongSettings.UD_USAGE, UdPingpong::new);
    }

    /** {@code pp_connect_ctx}: RTR and RTS, and the address handle of the path to {@code dest}. */
    @Override
    void connect(PingpongDest dest) {
        IBPath path = local.copy(b -> {
            b.dlid(dest.lid()).dqpn(dest.qpn()).dqpsn(dest.psn());
            if (dest.gid().interfaceId() != 0) {
                b.hasGrh(true).dgid(dest.gid()).sgidIndex(settings.gidIndex()).hopLimit(1);
            }
        });
        try {
            qp.modifyToRtr(path);
        } catch (RuntimeException e) {
            throw new IllegalStateException("Failed to modify QP to RTR: " + e.getMessage(), e);
        }
        try {
            qp.modifyToRts(path);
        } catch (RuntimeException e) {
            throw new IllegalStateException("Failed to modify QP to RTS: " + e.getMessage(), e);
        }
        Ah ah;
        try {
            ah = qp.pd().ah(path);
        } catch (RuntimeException e) {
            throw new IllegalStateException("Failed to create AH: " + e.getMessage(), e);
        }
        sendWr.ud(ah, dest.qpn(), QKEY);
    }

    /** {@code ibv_ud_pingpong} prints a colon before the GID of its own address. */
    @Override
    String describeLocal(PingpongDest mine) {
        return mine.describe(": ");
    }
}
