package org.jrdma.verbs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.lang.foreign.GroupLayout;
import java.util.HexFormat;
import org.jrdma.verbs.ffi.IbvFlow;
import org.jrdma.verbs.ffi.StructsEx;
import org.junit.jupiter.api.Test;

/**
 * The Java side of flow steering specifications, on the build host: each {@link FlowSpec} becomes
 * the {@code struct ibv_flow_spec_*} of its type with its filter in network order, and fields
 * wider than verbs.h's are refused before anything reaches libibverbs.
 */
class FlowSpecTest {
    private static final HexFormat HEX = HexFormat.of();

    @Test
    void ethFilterIsMacsEtherTypeAndVlanInNetworkOrder() {
        IbvFlow.Spec spec = Flow.toIbv(new FlowSpec.Eth(new FlowSpec.EthFilter(0x0211_2233_4455L, 0x0a0b_0c0d_0e0fL,
                0x0800, 0x2005), new FlowSpec.EthFilter(0xffff_ffff_ffffL, 0, 0xffff, 0x0fff), false));
        assertEquals(IbvFlow.SPEC_ETH, spec.type());
        assertEquals(StructsEx.IBV_FLOW_SPEC_ETH, spec.layout());
        assertEquals("0211223344550a0b0c0d0e0f08002005", HEX.formatHex(spec.val()));
        assertEquals("ffffffffffff" + "000000000000" + "ffff" + "0fff", HEX.formatHex(spec.mask()));
    }

    @Test
    void ipv4AndTcpUdpFiltersInNetworkOrderInnerOrNot() {
        IbvFlow.Spec ip = Flow.toIbv(new FlowSpec.Ipv4(new FlowSpec.Ipv4Filter(0xc0a80001, 0x0a000001),
                new FlowSpec.Ipv4Filter(0, -1), true));
        assertEquals(IbvFlow.SPEC_IPV4 | IbvFlow.SPEC_INNER, ip.type());
        assertEquals(StructsEx.IBV_FLOW_SPEC_IPV4, ip.layout());
        assertEquals("c0a800010a000001", HEX.formatHex(ip.val()));
        assertEquals("00000000ffffffff", HEX.formatHex(ip.mask()));
        IbvFlow.Spec udp = Flow.toIbv(new FlowSpec.TcpUdp(true, new FlowSpec.TcpUdpFilter(4791, 1024),
                new FlowSpec.TcpUdpFilter(0xffff, 0), false));
        assertEquals(IbvFlow.SPEC_UDP, udp.type());
        assertEquals(StructsEx.IBV_FLOW_SPEC_TCP_UDP, udp.layout());
        assertEquals("12b70400", HEX.formatHex(udp.val()));
        assertEquals(IbvFlow.SPEC_TCP, Flow.toIbv(new FlowSpec.TcpUdp(false, new FlowSpec.TcpUdpFilter(80, 0),
                new FlowSpec.TcpUdpFilter(0xffff, 0), false)).type());
    }

    @Test
    void ipv6FilterIsAddressesLabelAndBytes() {
        byte[] src = new byte[16];
        src[0] = (byte) 0xfe;
        src[1] = (byte) 0x80;
        byte[] dst = new byte[16];
        dst[15] = 1;
        FlowSpec.Ipv6Filter filter = new FlowSpec.Ipv6Filter(src, dst, 0xabcde, 17, 0x20, 64);
        src[0] = 0;
        IbvFlow.Spec spec = Flow.toIbv(new FlowSpec.Ipv6(filter, filter, false));
        assertEquals(StructsEx.IBV_FLOW_SPEC_IPV6, spec.layout());
        assertEquals("fe80" + "00".repeat(14) + "00".repeat(15) + "01" + "000abcde" + "11" + "20" + "40" + "00",
                HEX.formatHex(spec.val()));
        assertEquals((byte) 0xfe, filter.srcIp()[0], "the filter keeps its own copy");
        filter.srcIp()[0] = 0;
        assertEquals((byte) 0xfe, filter.srcIp()[0], "and gives copies");
    }

    @Test
    void actionsCarryNoFilter() {
        IbvFlow.Spec tag = Flow.toIbv(new FlowSpec.Tag(0x1234));
        assertEquals(IbvFlow.SPEC_ACTION_TAG, tag.type());
        assertEquals(StructsEx.IBV_FLOW_SPEC_ACTION_TAG, tag.layout());
        assertEquals(0x1234, tag.tagId());
        assertNull(tag.val());
        IbvFlow.Spec drop = Flow.toIbv(new FlowSpec.Drop());
        assertEquals(IbvFlow.SPEC_ACTION_DROP, drop.type());
        assertEquals(StructsEx.IBV_FLOW_SPEC_ACTION_DROP, drop.layout());
    }

    @Test
    void fieldsWiderThanVerbsHAreRefused() {
        assertThrows(IllegalArgumentException.class, () -> new FlowSpec.EthFilter(1L << 48, 0, 0, 0));
        assertThrows(IllegalArgumentException.class, () -> new FlowSpec.EthFilter(0, -1, 0, 0));
        assertThrows(IllegalArgumentException.class, () -> new FlowSpec.EthFilter(0, 0, 0x10000, 0));
        assertThrows(IllegalArgumentException.class, () -> new FlowSpec.TcpUdpFilter(65536, 0));
        assertThrows(IllegalArgumentException.class, () -> new FlowSpec.Ipv6Filter(new byte[4], new byte[16], 0, 0, 0, 0));
        assertThrows(IllegalArgumentException.class,
                () -> new FlowSpec.Ipv6Filter(new byte[16], new byte[16], 1 << 20, 0, 0, 0));
        assertThrows(IllegalArgumentException.class,
                () -> new FlowSpec.Ipv6Filter(new byte[16], new byte[16], 0, 256, 0, 0));
        assertThrows(NullPointerException.class, () -> new FlowSpec.Ipv4(null, new FlowSpec.Ipv4Filter(0, 0), false));
        assertThrows(IllegalArgumentException.class, () -> IbvFlow.Spec.filter(IbvFlow.SPEC_TCP, new byte[5], new byte[4]));
        assertThrows(IllegalArgumentException.class, () -> IbvFlow.Spec.filter(0x50, new byte[4], new byte[4]));
    }

    @Test
    void specificationsAreWholeWordsSoTheyFollowEachOtherUnpadded() {
        for (GroupLayout layout : new GroupLayout[] {StructsEx.IBV_FLOW_ATTR, StructsEx.IBV_FLOW_SPEC_ETH,
                StructsEx.IBV_FLOW_SPEC_IPV4, StructsEx.IBV_FLOW_SPEC_IPV6, StructsEx.IBV_FLOW_SPEC_TCP_UDP,
                StructsEx.IBV_FLOW_SPEC_ACTION_TAG, StructsEx.IBV_FLOW_SPEC_ACTION_DROP}) {
            assertEquals(0, layout.byteSize() % StructsEx.IBV_FLOW_ATTR.byteAlignment(), layout.toString());
        }
    }
}
