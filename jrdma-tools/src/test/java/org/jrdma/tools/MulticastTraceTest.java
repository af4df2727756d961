package org.jrdma.tools;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.List;
import org.jrdma.iba.Gid;
import org.jrdma.iba.sa.SaMcMemberRecord;
import org.jrdma.mad.MadEngine;
import org.jrdma.mad.MadTransactor;
import org.jrdma.mad.sim.IbsimTransport;
import org.jrdma.testkit.fabric.Fabric;
import org.jrdma.testkit.junit.SimulatedFabric;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * {@code ibtool ibtracert -m MLID} against infiniband-diags' ibtracert on the fat tree, once
 * node01 (LID 4), node04 (LID 10) and node07 (LID 13) have joined the IPoIB broadcast group
 * (MLID 0xc000) through OpenSM's SA, so that OpenSM has programmed the switches' multicast
 * forwarding tables: identical standard output and exit status, attached at a switch, at a member
 * HCA and at an HCA outside the group.
 */
@SimulatedFabric(topology = "fat-tree")
class MulticastTraceTest {
    /** The IPv4 IPoIB broadcast group of the default partition, which OpenSM creates. */
    private static final Gid BROADCAST = Gid.parse("ff12:401b:ffff::ffff:ffff");
    private static final List<String> MEMBERS = List.of("node01 HCA-1", "node04 HCA-1", "node07 HCA-1");

    /** Joins the members (again: a join is idempotent) and waits until spine1 forwards the MLID. */
    private static void joinBroadcastGroup(Fabric fabric) throws InterruptedException {
        for (String node : MEMBERS) {
            try (IbsimTransport transport = IbsimTransport.attach(fabric.socketName(), node); MadEngine engine = new MadEngine(transport, 4)) {
                MadTransactor sa = new MadTransactor(engine, transport.client().endPort());
                SaMcMemberRecord join = new SaMcMemberRecord().mgid(BROADCAST)
                        .portGid(transport.client().endPort().gids().getFirst()).joinState(1);
                SaMcMemberRecord joined = sa.subnAdmSet(join, SaMcMemberRecord.MGID_COMPONENT_MASK
                        | SaMcMemberRecord.PORT_GID_COMPONENT_MASK | SaMcMemberRecord.JOIN_STATE_COMPONENT_MASK, sa.saPath());
                assertEquals(0xC000, joined.mlid(), node);
            }
        }
        for (int i = 0; i < 100 && !fabric.run("ibroute", "-M", "1").stdout().contains("0xc000"); i++) {
            Thread.sleep(100);
        }
        assertTrue(fabric.run("ibroute", "-M", "1").stdout().contains("0xc000"), "OpenSM did not program the MFTs");
    }

    @ParameterizedTest
    @ValueSource(strings = {"4 13", "13 4", "1 13", "4 1", "1 10", "7 13", "-n 4 13", "-n 7 13", "4 9", "4 4", "9 13",
            "--mlid 0xc000 4 10", "-G 0x0002c90300001011 0x0002c90300001071"})
    void tracesWhatTheCToolTraces(String args, Fabric fabric) throws InterruptedException {
        joinBroadcastGroup(fabric);
        String[] words = (args.startsWith("--mlid") ? args : "-m 0xc000 " + args).split(" ");
        for (String node : List.of("spine1", "node01 HCA-1", "node05 HCA-1")) {
            AgainstC.runAt(fabric, node, "ibtracert", words).assertSame();
        }
    }

    /**
     * {@code --json} of a multicast trace: the route the text shows (From, each hop, To), the MLID;
     * a trace that fails is the error document with the text's status (README, "JSON output").
     */
    @Test
    void jsonHasTheRouteTheTextShows(Fabric fabric) throws InterruptedException {
        joinBroadcastGroup(fabric);
        TextAndJson runs = TextAndJson.of("ibtracert", "--sim", fabric.socketName(), "-m", "0xc000", "4", "13");
        JsonNode document = runs.document();
        assertEquals(0xc000, document.get("mlid").asInt());
        assertEquals(runs.find("^From \\S+ (0x\\p{XDigit}+) "), "0x" + Long.toHexString(Long.decode(document.at("/from/nodeGuid").asText())));
        assertEquals(runs.find("^To \\S+ (0x\\p{XDigit}+) "), "0x" + Long.toHexString(Long.decode(document.at("/to/nodeGuid").asText())));
        assertEquals(runs.findAll("^\\[(\\d+)\\] -> "), document.get("hops").findValuesAsText("outPort"));
        assertEquals(runs.findAll("^\\[\\d+\\] -> \\S+ 0x\\p{XDigit}+\\[(\\d+)\\]"), document.get("hops").findValuesAsText("portNum"));
        assertEquals(runs.findAll("^\\[\\d+\\] -> .* lid (\\d+) "), document.get("hops").findValuesAsText("lid"));
        assertEquals(13, document.at("/to/lid").asInt());

        TextAndJson below = TextAndJson.of("ibtracert", "--sim", fabric.socketName(), "-m", "0xbfff", "4", "13");
        assertEquals(255, below.error().get("status").asInt());
        assertEquals("Failed to get route information", below.error().get("message").asText());
    }

    @Test
    void anMlidBelowTheMulticastRangeFailsAsTheCToolDoes(Fabric fabric) {
        AgainstC run = AgainstC.run(fabric, "ibtracert", "-m", "0xbfff", "4", "13").assertSame();
        assertTrue(run.ours().err().contains("invalid MLID; must be 0xc000 or larger"), run.ours().err());
    }

    @Test
    void aBadMlidIsAUsageError() {
        IbtoolRun run = IbtoolRun.of("ibtracert", "--sim", "x", "-m", "broadcast", "4", "13");
        assertEquals(ExitCodes.USAGE, run.exitCode());
        assertTrue(run.err().contains("bad MLID \"broadcast\""), run.err());
    }
}
