package org.jrdma.verbs;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteOrder;
import java.util.Objects;
import java.util.function.Consumer;
import org.jrdma.devices.EndPort;
import org.jrdma.iba.Gid;
import org.jrdma.iba.Iba;
import org.jrdma.path.IBPath;

/**
 * The path a UD datagram arrived on, made from its work completion and the 40 bytes its receive
 * buffer starts with: python-rdma's {@code rdma.ibverbs.WCPath(end_port, wc, buf, off, **kwargs)}.
 * The path describes the headers as they were on the wire, so the remote end is its source;
 * {@link IBPath#reverse()} turns it into the path to reply on (IBA 13.5.4):
 * <pre>{@code
 * IBPath reply = WcPath.of(endPort, wc, buffer, 0, b -> b.qkey(QKEY)).reverse();
 * qp.postSend(new SendWr().sge(sge).ud(pd.ah(reply), reply.dqpn().getAsInt(), QKEY));
 * }</pre>
 * <table>
 *   <caption>Work completion or GRH field, IBPath attribute</caption>
 *   <tr><th>from</th><th>path</th></tr>
 *   <tr><td>wc.src_qp</td><td>sqpn</td></tr>
 *   <tr><td>wc.qp_num</td><td>dqpn</td></tr>
 *   <tr><td>wc.slid</td><td>SLID</td></tr>
 *   <tr><td>wc.sl</td><td>SL</td></tr>
 *   <tr><td>wc.dlid_path_bits</td><td>DLID: the end port's base LID with these path bits</td></tr>
 *   <tr><td>wc.pkey_index</td><td>pkey from the end port's table, on QP1 only (verbs defines
 *       the index for the GSI QP alone; other QPs receive on their own P_Key, which the caller
 *       passes, as python-rdma's {@code pkey=qp_pkey})</td></tr>
 *   <tr><td>IBV_WC_GRH in wc.wc_flags</td><td>has_grh, and from the GRH (IBA 8.3):</td></tr>
 *   <tr><td>GRH SGID, DGID</td><td>SGID, DGID</td></tr>
 *   <tr><td>GRH HopLmt, TClass, FlowLabel</td><td>hop_limit, traffic_class, flow_label</td></tr>
 * </table>
 * On RoCE v2 over IPv4 the 40 bytes hold 20 zero bytes and the IPv4 header instead of a GRH
 * (as {@code ibv_init_ah_from_wc} reads them): the addresses become IPv4-mapped GIDs
 * ({@code ::ffff:a.b.c.d}), TTL the hop limit and TOS the traffic class.
 */
public final class WcPath {
    /** The bytes at the start of a UD receive buffer reserved for the GRH. */
    public static final int GRH_BYTES = 40;

    private static final ValueLayout.OfInt BIG_INT = ValueLayout.JAVA_INT_UNALIGNED.withOrder(ByteOrder.BIG_ENDIAN);
    private static final int IPV4_OFFSET = 20;
    /** The first byte of an IPv4 header without options: version 4, IHL 5 words. */
    private static final byte IPV4_VERSION_IHL = 0x45;
    private static final long IPV4_MAPPED = 0x0000_FFFF_0000_0000L;

    private WcPath() {
    }

    /** {@link #of(EndPort, Wc, MemorySegment, long, Consumer)} with no overrides. */
    public static IBPath of(EndPort endPort, Wc wc, MemorySegment buffer, long offset) {
        return of(endPort, wc, buffer, offset, b -> { });
    }

    /**
     * The path of the successful UD receive {@code wc} on {@code endPort}, as the table above
     * says, then {@code overrides} applied to the builder (python-rdma's {@code **kwargs}, for
     * example {@code b -> b.pkey(qpPkey).qkey(qpQkey)}).
     *
     * @param buffer the receive buffer whose first {@link #GRH_BYTES} bytes at {@code offset}
     *               were posted with the request, or null to ignore the GRH
     * @throws IllegalArgumentException  if the GRH area holds neither a GRH nor an IPv4 header
     * @throws IndexOutOfBoundsException if the buffer is shorter than the GRH area
     */
    public static IBPath of(EndPort endPort, Wc wc, MemorySegment buffer, long offset,
            Consumer<IBPath.Builder<?>> overrides) {
        Objects.requireNonNull(endPort, "endPort");
        IBPath.Builder<? extends IBPath> b = IBPath.builder(endPort).sqpn(wc.srcQp()).dqpn(wc.qpNum())
                .slid(wc.slid()).sl(wc.sl()).dlidBits(wc.dlidPathBits() & 0x7F);
        if (wc.qpNum() == Iba.QP1 && wc.pkeyIndex() < endPort.pkeys().size()) {
            b.pkeyIndex(wc.pkeyIndex());
        }
        if ((wc.wcFlags() & WcBuffer.GRH) != 0 && buffer != null) {
            grh(b, buffer, offset);
        }
        overrides.accept(b);
        return b.build();
    }

    /**
     * Sets has_grh and the GRH attributes of {@code b} from the {@link #GRH_BYTES} bytes at
     * {@code offset}: an IBA GRH (IPVer 6, as an IPv6 header is), or a RoCE v2 IPv4 header after
     * 20 zero bytes.
     */
    static void grh(IBPath.Builder<?> b, MemorySegment buffer, long offset) {
        MemorySegment area = buffer.asSlice(offset, GRH_BYTES);
        int first = area.get(BIG_INT, 0);
        b.hasGrh(true);
        if (first >>> 28 == 6) {
            b.trafficClass((first >>> 20) & 0xFF).flowLabel(first & 0xF_FFFF)
                    .hopLimit(Byte.toUnsignedInt(area.get(ValueLayout.JAVA_BYTE, 7)))
                    .sgid(Gid.fromSegment(area, 8)).dgid(Gid.fromSegment(area, 24));
            return;
        }
        boolean zeros = true;
        for (int i = 0; i < IPV4_OFFSET; i++) {
            zeros &= area.get(ValueLayout.JAVA_BYTE, i) == 0;
        }
        if (!zeros || area.get(ValueLayout.JAVA_BYTE, IPV4_OFFSET) != IPV4_VERSION_IHL) {
            throw new IllegalArgumentException(String.format(
                    "the 40-byte GRH area holds neither a GRH (IPVer 6) nor an IPv4 header: starts 0x%08x", first));
        }
        b.trafficClass(Byte.toUnsignedInt(area.get(ValueLayout.JAVA_BYTE, IPV4_OFFSET + 1))).flowLabel(0)
                .hopLimit(Byte.toUnsignedInt(area.get(ValueLayout.JAVA_BYTE, IPV4_OFFSET + 8)))
                .sgid(ipv4Mapped(area.get(BIG_INT, IPV4_OFFSET + 12)))
                .dgid(ipv4Mapped(area.get(BIG_INT, IPV4_OFFSET + 16)));
    }

    /** The IPv4-mapped GID {@code ::ffff:a.b.c.d} of {@code address}, as RoCE v2 GID tables hold it. */
    private static Gid ipv4Mapped(int address) {
        return new Gid(0, IPV4_MAPPED | Integer.toUnsignedLong(address));
    }
}
