package org.jrdma.path;

import static org.jrdma.path.Fixtures.GID_1;
import static org.jrdma.path.Fixtures.GID_2;
import static org.jrdma.path.Fixtures.MLX;
import static org.jrdma.path.Fixtures.PORT_1;
import static org.jrdma.path.Fixtures.PORT_2;
import static org.jrdma.path.Fixtures.ROCE;
import static org.jrdma.path.Fixtures.SITE_GID_1;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.function.Consumer;
import org.jrdma.NoSuchDeviceException;
import org.jrdma.RdmaException;
import org.jrdma.devices.EndPort;
import org.jrdma.iba.Gid;
import org.jrdma.iba.Iba;
import org.jrdma.iba.Mtu;
import org.jrdma.iba.StaticRate;
import org.junit.jupiter.api.Test;

/** {@link IBPath}: every attribute of the seed's tables, derived values, reverse, copy. */
class IBPathTest {
    /** A path with every attribute away from its default and at the top of its range. */
    static IBPath everything() {
        return IBPath.builder(PORT_1).retries(255).dlid(0xFFFF).slid(0xFFFF).sl(15).pkey(0x7FFF).hasGrh(true)
                .sgid(SITE_GID_1).dgid(GID_2).hopLimit(255).trafficClass(255).flowLabel(0xFFFFF).dqpn(0xFFFFFF)
                .sqpn(0xFFFFFF).qkey(0xFFFF_FFFF).mtu(Mtu.MTU_4096).rate(StaticRate.RATE_1200_GBPS)
                .umadAgentId(Integer.MAX_VALUE).respTime(31).packetLifeTime(63).minRnrTimer(31).dackRespTime(31)
                .sackRespTime(31).dqpsn(0xFFFFFF).sqpsn(0xFFFFFF).drdatomic(0).srdatomic(0).mKey(-1L).smKey(-1L)
                .build();
    }

    @Test
    void defaultsArePythonRdmas() {
        IBPath path = IBPath.builder(null).build();
        assertEquals(Optional.empty(), path.endPort());
        assertEquals(0, path.retries());
        assertEquals(0, path.dlid());
        assertEquals(0, path.slid());
        assertEquals(0, path.sl());
        assertEquals(Iba.DEFAULT_PKEY, path.pkey());
        assertFalse(path.hasGrh());
        assertEquals(Optional.empty(), path.sgid());
        assertEquals(Optional.empty(), path.dgid());
        assertEquals(0, path.hopLimit());
        assertEquals(0, path.trafficClass());
        assertEquals(0, path.flowLabel());
        assertEquals(OptionalInt.empty(), path.dqpn());
        assertEquals(OptionalInt.empty(), path.sqpn());
        assertEquals(OptionalInt.empty(), path.qkey());
        assertEquals(Mtu.MTU_256, path.mtu());
        assertEquals(StaticRate.RATE_2_5_GBPS, path.rate());
        assertEquals(OptionalInt.empty(), path.umadAgentId());
        assertEquals(20, path.respTime());
        assertEquals(EndPort.DEFAULT_SUBNET_TIMEOUT, path.packetLifeTime());
        assertEquals(0, path.minRnrTimer());
        assertEquals(20, path.dackRespTime());
        assertEquals(20, path.sackRespTime());
        assertEquals(0, path.dqpsn());
        assertEquals(0, path.sqpsn());
        assertEquals(255, path.drdatomic());
        assertEquals(255, path.srdatomic());
        assertEquals(0, path.mKey());
        assertEquals(0, path.smKey());
        assertEquals("IBPath(end_port=None)", path.toString());
    }

    @Test
    void holdsEveryAttributeAtTheTopOfItsRange() {
        IBPath path = everything();
        assertEquals(Optional.of(PORT_1), path.endPort());
        assertEquals(255, path.retries());
        assertEquals(0xFFFF, path.dlid());
        assertEquals(0xFFFF, path.slid());
        assertEquals(15, path.sl());
        assertEquals(0x7FFF, path.pkey());
        assertTrue(path.hasGrh());
        assertEquals(Optional.of(SITE_GID_1), path.sgid());
        assertEquals(Optional.of(GID_2), path.dgid());
        assertEquals(255, path.hopLimit());
        assertEquals(255, path.trafficClass());
        assertEquals(0xFFFFF, path.flowLabel());
        assertEquals(OptionalInt.of(0xFFFFFF), path.dqpn());
        assertEquals(OptionalInt.of(0xFFFFFF), path.sqpn());
        assertEquals(OptionalInt.of(0xFFFF_FFFF), path.qkey());
        assertEquals(Mtu.MTU_4096, path.mtu());
        assertEquals(StaticRate.RATE_1200_GBPS, path.rate());
        assertEquals(OptionalInt.of(Integer.MAX_VALUE), path.umadAgentId());
        assertEquals(31, path.respTime());
        assertEquals(63, path.packetLifeTime());
        assertEquals(31, path.minRnrTimer());
        assertEquals(31, path.dackRespTime());
        assertEquals(31, path.sackRespTime());
        assertEquals(0xFFFFFF, path.dqpsn());
        assertEquals(0xFFFFFF, path.sqpsn());
        assertEquals(0, path.drdatomic());
        assertEquals(0, path.srdatomic());
        assertEquals(-1L, path.mKey());
        assertEquals(-1L, path.smKey());
        assertEquals("IBPath(end_port='mlx4_0/1', retries=255, DLID=0xffff, SLID=0xffff, SL=15, pkey=0x7fff, "
                + "has_grh=True, SGID=GID('fec0::2:c903:0:1491'), DGID=GID('fe80::2:c903:0:1492'), hop_limit=255, "
                + "traffic_class=255, flow_label=1048575, dqpn=16777215, sqpn=16777215, qkey=0xffffffff, MTU=5, "
                + "rate=24, umad_agent_id=2147483647, resp_time=31, packet_life_time=63, min_rnr_timer=31, "
                + "dack_resp_time=31, sack_resp_time=31, dqpsn=16777215, sqpsn=16777215, drdatomic=0, srdatomic=0, "
                + "MKey=0xffffffffffffffff, SMKey=0xffffffffffffffff)", path.toString());
    }

    @Test
    void settersRejectValuesOutsideTheirHeaderFields() {
        record Case(String message, Consumer<IBPath.Builder<?>> set) {
        }
        for (Case c : List.of(
                new Case("retries 256 is outside 0 to 255", b -> b.retries(256)),
                new Case("DLID 65536 is outside 0 to 65535", b -> b.dlid(0x10000)),
                new Case("SLID -1 is outside 0 to 65535", b -> b.slid(-1)),
                new Case("SL 16 is outside 0 to 15", b -> b.sl(16)),
                new Case("pkey 65536 is outside 0 to 65535", b -> b.pkey(0x10000)),
                new Case("hop_limit 256 is outside 0 to 255", b -> b.hopLimit(256)),
                new Case("traffic_class 256 is outside 0 to 255", b -> b.trafficClass(256)),
                new Case("flow_label 1048576 is outside 0 to 1048575", b -> b.flowLabel(0x100000)),
                new Case("dqpn 16777216 is outside 0 to 16777215", b -> b.dqpn(0x1000000)),
                new Case("sqpn -1 is outside 0 to 16777215", b -> b.sqpn(-1)),
                new Case("umad_agent_id -1 is outside 0 to 2147483647", b -> b.umadAgentId(-1)),
                new Case("resp_time 32 is outside 0 to 31", b -> b.respTime(32)),
                new Case("packet_life_time 64 is outside 0 to 63", b -> b.packetLifeTime(64)),
                new Case("min_rnr_timer 32 is outside 0 to 31", b -> b.minRnrTimer(32)),
                new Case("dack_resp_time 32 is outside 0 to 31", b -> b.dackRespTime(32)),
                new Case("sack_resp_time 32 is outside 0 to 31", b -> b.sackRespTime(32)),
                new Case("dqpsn 16777216 is outside 0 to 16777215", b -> b.dqpsn(0x1000000)),
                new Case("sqpsn 16777216 is outside 0 to 16777215", b -> b.sqpsn(0x1000000)),
                new Case("drdatomic 256 is outside 0 to 255", b -> b.drdatomic(256)),
                new Case("srdatomic -1 is outside 0 to 255", b -> b.srdatomic(-1)),
                new Case("SLID_bits 128 is outside 0 to 127", b -> b.slidBits(128)),
                new Case("DLID_bits -1 is outside 0 to 127", b -> b.dlidBits(-1)),
                new Case("pkey_index 3 is outside the 3 entries of the table of mlx4_0/1", b -> b.pkeyIndex(3)),
                new Case("SGID_index -1 is outside the 2 entries of the table of mlx4_0/1", b -> b.sgidIndex(-1)))) {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                    () -> c.set.accept(IBPath.builder(PORT_1)), c.message);
            assertEquals(c.message, e.getMessage());
        }
        assertThrows(NullPointerException.class, () -> IBPath.builder(null).mtu(null));
        assertThrows(NullPointerException.class, () -> IBPath.builder(null).rate(null));
    }

    @Test
    void optionalAttributesCanBeUnset() {
        IBPath set = IBPath.builder(PORT_1).dqpn(1).sqpn(1).qkey(5).umadAgentId(3).packetLifeTime(4).sgid(GID_1)
                .dgid(GID_2).build();
        IBPath unset = set.copy(b -> b.dqpn(null).sqpn(null).qkey(null).umadAgentId(null).packetLifeTime(null)
                .sgid(null).dgid(null));
        assertEquals(IBPath.builder(PORT_1).build(), unset);
    }

    @Test
    void pkeyIndexIsFoundInTheEndPortsTableAndCached() {
        assertEquals(0, IBPath.builder(PORT_1).build().pkeyIndex());
        assertEquals(2, IBPath.builder(PORT_1).pkey(0x7FFF).build().pkeyIndex());
        IBPath byIndex = IBPath.builder(PORT_1).pkeyIndex(1).build();
        assertEquals(0x8001, byIndex.pkey());
        assertEquals(1, byIndex.pkeyIndex());

        // A known index is kept even when the value is in the table twice, as python-rdma's cache does.
        EndPort twice = EndPort.builder("d", 1).pkeys(0xFFFF, 0xFFFF).build();
        IBPath second = IBPath.builder(twice).pkeyIndex(1).build();
        assertEquals(1, second.pkeyIndex());
        assertEquals(1, second.copy(b -> b.sl(1)).pkeyIndex(), "a copy keeps it");
        assertEquals(1, second.reverse().pkeyIndex(), "a reverse keeps the P_Key and so its index");
        assertEquals(0, second.copy(b -> b.pkey(0xFFFF)).pkeyIndex(), "setting the P_Key forgets it");
        assertEquals(0, second.copy(b -> b.endPort(twice)).pkeyIndex(), "changing the end port forgets it");

        RdmaException missing = assertThrows(RdmaException.class, () -> IBPath.builder(PORT_1).pkey(0x1234).build().pkeyIndex());
        assertEquals("P_Key 0x1234 not available on mlx4_0/1", missing.getMessage());
        IllegalStateException noPort = assertThrows(IllegalStateException.class, () -> IBPath.builder(null).build().pkeyIndex());
        assertEquals("pkey_index needs an end port; the path has none: IBPath(end_port=None)", noPort.getMessage());
        assertThrows(IllegalStateException.class, () -> IBPath.builder(null).pkeyIndex(0));
    }

    @Test
    void sgidIndexIsFoundInTheEndPortsTableAndCached() {
        assertEquals(1, IBPath.builder(PORT_1).sgid(SITE_GID_1).build().sgidIndex());
        IBPath byIndex = IBPath.builder(PORT_1).sgidIndex(1).build();
        assertEquals(Optional.of(SITE_GID_1), byIndex.sgid());
        assertEquals(1, byIndex.sgidIndex());
        assertEquals(0, byIndex.copy(b -> b.sgid(GID_1)).sgidIndex());

        RdmaException missing = assertThrows(RdmaException.class, () -> IBPath.builder(PORT_1).sgid(GID_2).build().sgidIndex());
        assertEquals("GID fe80::2:c903:0:1492 not available on mlx4_0/1", missing.getMessage());
        assertThrows(IllegalStateException.class, () -> IBPath.builder(PORT_1).build().sgidIndex(), "no SGID");
        assertThrows(IllegalStateException.class, () -> IBPath.builder(null).sgid(GID_1).build().sgidIndex());
        assertThrows(IllegalStateException.class, () -> IBPath.builder(null).sgidIndex(0));
    }

    @Test
    void lidBitsAreTheLowLmcBits() {
        IBPath path = IBPath.builder(PORT_1).slid(0x13).dlid(0x2A).build();
        assertEquals(3, path.slidBits());
        assertEquals(2, path.dlidBits());
        IBPath bits = IBPath.builder(PORT_1).slidBits(2).dlidBits(1).build();
        assertEquals(0x12, bits.slid());
        assertEquals(0x11, bits.dlid());
        assertEquals(2, bits.slidBits());
        IBPath noPort = IBPath.builder(null).slid(0x1FF).dlid(0x180).build();
        assertEquals(0x7F, noPort.slidBits(), "without an end port: the 7 bits an LMC can cover");
        assertEquals(0, noPort.dlidBits());
        assertThrows(IllegalStateException.class, () -> IBPath.builder(null).slidBits(1));
    }

    @Test
    void packetLifeTimeComesFromThePathThenTheEndPortThenTheDefault() {
        assertEquals(4, IBPath.builder(PORT_1).packetLifeTime(4).build().packetLifeTime());
        assertEquals(16, IBPath.builder(PORT_1).build().packetLifeTime());
        assertEquals(18, IBPath.builder(null).build().packetLifeTime());
    }

    @Test
    void madAndQpTimeoutsAreRoundTripPlusResponseTime() {
        IBPath path = IBPath.builder(PORT_1).respTime(20).dackRespTime(10).build();
        assertEquals(Duration.ofNanos(4096L * ((1L << 17) + (1L << 20))), path.madTimeout());
        assertEquals(Duration.ofNanos(4096L * ((1L << 17) + (1L << 10))), path.qpTimeout());
        assertSame(path.madTimeout(), path.madTimeout(), "cached");
        assertSame(path.qpTimeout(), path.qpTimeout(), "cached");

        IBPath longest = IBPath.builder(null).packetLifeTime(63).respTime(31).dackRespTime(31).build();
        Duration twoToThe76Nanos = Duration.ofNanos(1L << 62).multipliedBy(1L << 14);
        assertEquals(twoToThe76Nanos.plus(Duration.ofNanos(1L << 43)), longest.madTimeout());
        assertEquals(longest.madTimeout(), longest.qpTimeout());
        IBPath shortest = IBPath.builder(null).packetLifeTime(0).respTime(0).build();
        assertEquals(Duration.ofNanos(8192 + 4096), shortest.madTimeout());
    }

    @Test
    void completeNeedsAnEndPortAndADestination() {
        assertFalse(IBPath.builder(null).dlid(5).build().complete(), "no end port");
        assertFalse(IBPath.builder(PORT_1).build().complete(), "no DLID");
        assertTrue(IBPath.builder(PORT_1).dlid(5).build().complete());
        assertFalse(IBPath.builder(PORT_1).dgid(GID_2).build().complete(), "a bare GID needs a path record query");
        assertFalse(IBPath.builder(PORT_1).dlid(5).hasGrh(true).dgid(GID_2).build().complete(), "GRH without SGID");
        assertTrue(IBPath.builder(PORT_1).dlid(5).hasGrh(true).sgid(GID_1).dgid(GID_2).build().complete());
        assertFalse(IBPath.builder(ROCE).dlid(5).build().complete(), "RoCE addresses by GID");
        assertTrue(IBPath.builder(ROCE).hasGrh(true).sgidIndex(0).dgid(GID_2).build().complete());
    }

    @Test
    void reverseSwapsSourceAndDestinationPerIba13_5_4() {
        IBPath received = IBPath.builder(PORT_1).dlid(0x10).slid(0x20).sl(5).pkey(0x8001).hasGrh(true).sgid(GID_2)
                .dgid(GID_1).hopLimit(60).trafficClass(7).flowLabel(99).dqpn(1).sqpn(0x123).qkey(Iba.IB_DEFAULT_QP1_QKEY)
                .dackRespTime(3).sackRespTime(4).dqpsn(10).sqpsn(20).drdatomic(1).srdatomic(2).build();
        IBPath reply = received.reverse(true);
        assertEquals(0x20, reply.dlid());
        assertEquals(0x10, reply.slid());
        assertEquals(Optional.of(GID_1), reply.sgid());
        assertEquals(Optional.of(GID_2), reply.dgid());
        assertEquals(OptionalInt.of(0x123), reply.dqpn());
        assertEquals(OptionalInt.of(1), reply.sqpn());
        assertEquals(4, reply.dackRespTime());
        assertEquals(3, reply.sackRespTime());
        assertEquals(20, reply.dqpsn());
        assertEquals(10, reply.sqpsn());
        assertEquals(2, reply.drdatomic());
        assertEquals(1, reply.srdatomic());
        assertEquals(255, reply.hopLimit(), "a reply with a GRH goes out with hop limit 255");
        assertEquals(5, reply.sl(), "SL, P_Key, Q_Key, TClass and FlowLabel are the request's");
        assertEquals(0x8001, reply.pkey());
        assertEquals(OptionalInt.of(Iba.IB_DEFAULT_QP1_QKEY), reply.qkey());
        assertEquals(7, reply.trafficClass());
        assertEquals(99, reply.flowLabel());
        assertTrue(reply.hasGrh());
        assertEquals(0, reply.sgidIndex());

        assertEquals(60, received.reverse(false).hopLimit(), "not for a reply: only reversed");
        assertEquals(received, received.reverse(false).reverse(false));
        assertEquals(reply, received.reverse());
        assertEquals(0, IBPath.builder(null).build().reverse(true).hopLimit(), "no GRH, no hop limit");
        assertEquals(60, received.hopLimit(), "the path itself is unchanged");
    }

    @Test
    void copyAppliesOverridesToANewPath() {
        IBPath path = IBPath.builder(PORT_1).dlid(5).sl(1).build();
        IBPath copy = path.copy(b -> b.sl(3).dqpn(1));
        assertEquals(3, copy.sl());
        assertEquals(OptionalInt.of(1), copy.dqpn());
        assertEquals(5, copy.dlid());
        assertEquals(1, path.sl(), "write once: the original never changes");
        assertEquals(path, path.copy(b -> { }));
        assertEquals(path, path.toBuilder().build());
    }

    @Test
    void forwardAndReturnPaths() {
        IBPath path = IBPath.builder(PORT_1).dlid(5).slid(0x10).hasGrh(true).hopLimit(3).build();
        assertSame(path, path.forwardPath());
        assertEquals(path.reverse(false), path.returnPath());
        assertSame(path.returnPath(), path.returnPath(), "cached");
    }

    @Test
    void withEndPortOnFindsThePortMatchingTheSource() {
        assertEquals(Optional.of(PORT_1), IBPath.builder(null).slid(0x13).build().withEndPortOn(MLX).endPort());
        assertEquals(Optional.of(PORT_2), IBPath.builder(null).slid(0x20).build().withEndPortOn(MLX).endPort());
        assertEquals(Optional.of(PORT_2), IBPath.builder(PORT_1).slid(0x10).sgid(GID_2).build().withEndPortOn(MLX).endPort(),
                "the SGID decides when there is one");
        NoSuchDeviceException e = assertThrows(NoSuchDeviceException.class,
                () -> IBPath.builder(null).slid(0x14).build().withEndPortOn(MLX));
        assertEquals("No end port of mlx4_0 has LID 20, the source of IBPath(end_port=None, SLID=20)", e.getMessage());
        IBDRPath dr = IBDRPath.builder(null).slid(0x20).build();
        assertInstanceOf(IBDRPath.class, dr.withEndPortOn(MLX));
    }

    @Test
    void copyQpParamsTakesTheQueuePairValuesOnly() {
        IBPath from = IBPath.builder(PORT_2).dlid(9).sl(9).qkey(7).retries(6).minRnrTimer(12).dackRespTime(1)
                .sackRespTime(2).dqpn(100).sqpn(200).dqpsn(300).sqpsn(400).drdatomic(4).srdatomic(8).build();
        IBPath path = IBPath.builder(PORT_1).dlid(5).sl(1).mtu(Mtu.MTU_2048).build();
        IBPath merged = path.copyQpParams(from);
        assertEquals(IBPath.builder(PORT_1).dlid(5).sl(1).mtu(Mtu.MTU_2048).qkey(7).retries(6).minRnrTimer(12)
                .dackRespTime(1).sackRespTime(2).dqpn(100).sqpn(200).dqpsn(300).sqpsn(400).drdatomic(4).srdatomic(8)
                .build(), merged);
    }

    @Test
    void saPathGoesToTheSubnetManagerOnQp1() {
        IBPath sa = IBPath.saPath(PORT_1);
        assertEquals(1, sa.dlid());
        assertEquals(0x10, sa.slid());
        assertEquals(3, sa.sl());
        assertEquals(OptionalInt.of(1), sa.dqpn());
        assertEquals(OptionalInt.of(1), sa.sqpn());
        assertEquals(OptionalInt.of(Iba.IB_DEFAULT_QP1_QKEY), sa.qkey());
        assertEquals(0xFFFF, sa.pkey());
        assertEquals(0, sa.pkeyIndex());
        assertEquals(16, sa.packetLifeTime());
        assertTrue(sa.complete());
        assertEquals(0x7FFF, IBPath.saPath(PORT_2).pkey(), "the limited default P_Key when the full one is missing");
        RdmaException e = assertThrows(RdmaException.class, () -> IBPath.saPath(EndPort.builder("d", 1).pkeys(0x8001).build()));
        assertEquals("Could not find the SA default P_Key 0xffff or 0x7fff on d/1", e.getMessage());
    }

    @Test
    void equalByKindAndValues() {
        IBPath a = IBPath.builder(PORT_1).dlid(2).build();
        assertEquals(a, IBPath.builder(PORT_1).dlid(2).build());
        assertEquals(a.hashCode(), IBPath.builder(PORT_1).dlid(2).build().hashCode());
        assertNotEquals(a, IBPath.builder(PORT_1).dlid(3).build());
        assertNotEquals(a, IBPath.builder(PORT_2).dlid(2).build());
        assertNotEquals(a, IBPath.builder(null).dlid(2).build());
        IBPath sameAsDrDefaults = IBDRPath.builder(null).build().copy(b -> { });
        assertNotEquals(IBPath.builder(null).dlid(0xFFFF).slid(0xFFFF).dqpn(0).sqpn(0).qkey(0).build(), sameAsDrDefaults,
                "an IBPath never equals an IBDRPath");
        assertNotEquals(a, "IBPath(end_port='mlx4_0/1', DLID=2)");
    }

    @Test
    void gidsOfAnyPrefixAreKept() {
        Gid multicast = Gid.parse("ff12:401b::1");
        assertEquals(Optional.of(multicast), IBPath.builder(null).dgid(multicast).build().dgid());
    }
}
