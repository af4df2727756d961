package org.jrdma.verbs;

import java.nio.ByteBuffer;
import java.util.Objects;

/**
 * One specification of a flow steering rule ({@code struct ibv_flow_spec_*} after
 * {@code struct ibv_flow_attr}; {@link Qp#flow(int, int, int, FlowSpec...)}): a filter on one
 * header of the packet, whose fields match where the mask has bits set ({@link Eth},
 * {@link Ipv4}, {@link Ipv6}, {@link TcpUdp}), or an action on what the rule matched
 * ({@link Tag}, {@link Drop}). Fields are given in host order; jrdma writes them in the network
 * order verbs.h asks for. A filter marked {@code inner} ({@code IBV_FLOW_SPEC_INNER}) matches the
 * inner headers of a tunnelled packet.
 */
public sealed interface FlowSpec {

    /**
     * {@code struct ibv_flow_eth_filter}: destination and source MAC (48 bits), ether type, VLAN
     * tag (802.1Q: priority 3 bits, CFI 1, VLAN id 12).
     */
    record EthFilter(long dstMac, long srcMac, int etherType, int vlanTag) {
        /** Checks each field's width. */
        public EthFilter {
            Args.unsigned("dst_mac", dstMac, 48);
            Args.unsigned("src_mac", srcMac, 48);
            Args.unsigned("ether_type", etherType, 16);
            Args.unsigned("vlan_tag", vlanTag, 16);
        }

        byte[] bytes() {
            ByteBuffer b = ByteBuffer.allocate(16);
            b.putShort((short) (dstMac >>> 32)).putInt((int) dstMac);
            b.putShort((short) (srcMac >>> 32)).putInt((int) srcMac);
            return b.putShort((short) etherType).putShort((short) vlanTag).array();
        }
    }

    /** {@code struct ibv_flow_spec_eth} ({@code IBV_FLOW_SPEC_ETH}). */
    record Eth(EthFilter val, EthFilter mask, boolean inner) implements FlowSpec {
        /** Checks that both filters are given. */
        public Eth {
            Objects.requireNonNull(val, "val");
            Objects.requireNonNull(mask, "mask");
        }

    }

    /** {@code struct ibv_flow_ipv4_filter}: source and destination address, as 32-bit numbers. */
    record Ipv4Filter(int srcIp, int dstIp) {
        byte[] bytes() {
            return ByteBuffer.allocate(8).putInt(srcIp).putInt(dstIp).array();
        }
    }

    /** {@code struct ibv_flow_spec_ipv4} ({@code IBV_FLOW_SPEC_IPV4}). */
    record Ipv4(Ipv4Filter val, Ipv4Filter mask, boolean inner) implements FlowSpec {
        /** Checks that both filters are given. */
        public Ipv4 {
            Objects.requireNonNull(val, "val");
            Objects.requireNonNull(mask, "mask");
        }

    }

    /**
     * {@code struct ibv_flow_ipv6_filter}: source and destination address (16 bytes each), flow
     * label (20 bits), next header, traffic class, hop limit.
     */
    record Ipv6Filter(byte[] srcIp, byte[] dstIp, int flowLabel, int nextHdr, int trafficClass, int hopLimit) {
        /** Checks the addresses' length and each field's width; keeps copies of the addresses. */
        public Ipv6Filter {
            srcIp = address("src_ip", srcIp);
            dstIp = address("dst_ip", dstIp);
            Args.unsigned("flow_label", flowLabel, 20);
            Args.unsigned("next_hdr", nextHdr, 8);
            Args.unsigned("traffic_class", trafficClass, 8);
            Args.unsigned("hop_limit", hopLimit, 8);
        }

        private static byte[] address(String name, byte[] ip) {
            if (ip.length != 16) {
                throw new IllegalArgumentException(name + " has 16 bytes, not " + ip.length);
            }
            return ip.clone();
        }

        /** The source address (a copy). */
        @Override
        public byte[] srcIp() {
            return srcIp.clone();
        }

        /** The destination address (a copy). */
        @Override
        public byte[] dstIp() {
            return dstIp.clone();
        }

        byte[] bytes() {
            return ByteBuffer.allocate(40).put(srcIp).put(dstIp).putInt(flowLabel).put((byte) nextHdr)
                    .put((byte) trafficClass).put((byte) hopLimit).array();
        }
    }

    /** {@code struct ibv_flow_spec_ipv6} ({@code IBV_FLOW_SPEC_IPV6}). */
    record Ipv6(Ipv6Filter val, Ipv6Filter mask, boolean inner) implements FlowSpec {
        /** Checks that both filters are given. */
        public Ipv6 {
            Objects.requireNonNull(val, "val");
            Objects.requireNonNull(mask, "mask");
        }

    }

    /** {@code struct ibv_flow_tcp_udp_filter}: destination and source port. */
    record TcpUdpFilter(int dstPort, int srcPort) {
        /** Checks each port's width. */
        public TcpUdpFilter {
            Args.unsigned("dst_port", dstPort, 16);
            Args.unsigned("src_port", srcPort, 16);
        }

        byte[] bytes() {
            return ByteBuffer.allocate(4).putShort((short) dstPort).putShort((short) srcPort).array();
        }
    }

    /** {@code struct ibv_flow_spec_tcp_udp} of TCP ({@code IBV_FLOW_SPEC_TCP}) or UDP ({@code IBV_FLOW_SPEC_UDP}). */
    record TcpUdp(boolean udp, TcpUdpFilter val, TcpUdpFilter mask, boolean inner) implements FlowSpec {
        /** Checks that both filters are given. */
        public TcpUdp {
            Objects.requireNonNull(val, "val");
            Objects.requireNonNull(mask, "mask");
        }

    }

    /**
     * {@code struct ibv_flow_spec_action_tag} ({@code IBV_FLOW_SPEC_ACTION_TAG}): the completions
     * of matched packets carry {@code tagId} ({@code read_flow_tag}).
     */
    record Tag(int tagId) implements FlowSpec {
    }

    /** {@code struct ibv_flow_spec_action_drop} ({@code IBV_FLOW_SPEC_ACTION_DROP}): matched packets are dropped. */
    record Drop() implements FlowSpec {
    }
}
