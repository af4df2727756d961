package org.jrdma.mad.sim;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.jrdma.RdmaException;
import org.jrdma.iba.Mad;
import org.jrdma.iba.mad.SmpDirectedFormat;
import org.jrdma.iba.mad.SmpFormat;
import org.jrdma.iba.smp.SmpNodeDescription;
import org.jrdma.iba.smp.SmpNodeInfo;
import org.jrdma.testkit.fabric.Fabric;
import org.jrdma.testkit.junit.SimulatedFabric;
import org.junit.jupiter.api.Test;

/** ibsim's client protocol spoken by jrdma against a real ibsim, no libumad2sim involved. */
@SimulatedFabric(topology = "two-switch")
class IbsimClientTest {

    @Test
    void attachesAtANamedNodeAndReadsItsNodeAndPortInfo(Fabric fabric) {
        try (IbsimClient client = IbsimClient.attach(fabric.socketName(), "node03 HCA-1")) {
            assertEquals("node03 HCA-1", client.nodeName());
            assertEquals(0x0002c90300001030L, client.nodeInfo().nodeGuid().value());
            assertEquals(1, client.nodeInfo().nodeType());
            assertTrue(client.portInfo().lid() > 0, "OpenSM gave the port a LID");
            assertEquals(0xFFFF, client.pkeys()[0], "default full-membership P_Key");
        }
    }

    @Test
    void theAttachmentPointIsAnEndPortWithTheNodesOwnAnswers(Fabric fabric) {
        try (IbsimClient client = IbsimClient.attach(fabric.socketName(), "node03 HCA-1")) {
            var ep = client.endPort();
            assertEquals("ibsim0", ep.deviceName());
            assertEquals(1, ep.portNumber());
            assertEquals(client.portInfo().lid(), ep.lid());
            assertTrue(ep.smLid() > 0);
            assertEquals(org.jrdma.iba.PortState.ACTIVE, ep.state());
            assertEquals(org.jrdma.iba.StaticRate.RATE_10_GBPS, ep.rate().orElseThrow(), "4x SDR");
            assertEquals(org.jrdma.iba.Gid.parse("fe80::2:c903:0:1031"), ep.defaultGid(), "the port GUID, not the node GUID");
        }
        try (IbsimClient sw = IbsimClient.attach(fabric.socketName(), "sw2")) {
            assertEquals(0, sw.endPort().portNumber(), "a switch's end port is its port 0");
        }
    }

    @Test
    void directedRouteNodeInfoOfTheNodeItselfAndAcrossTheInterSwitchLink(Fabric fabric) {
        try (IbsimClient client = IbsimClient.attach(fabric.socketName(), null)) {
            assertEquals("sw1", client.nodeName());
            assertEquals(0x0002c90300000a01L, directedNodeInfo(client, new int[0]).nodeGuid().value());
            assertEquals(0x0002c90300000a02L, directedNodeInfo(client, new int[] {7}).nodeGuid().value());
        }
    }

    @Test
    void lidRoutedSmpReachesEveryLid(Fabric fabric) {
        try (IbsimClient client = IbsimClient.attach(fabric.socketName(), "node01 HCA-1")) {
            byte[] mad = new byte[256];
            SmpFormat smp = new SmpFormat(mad, 0);
            smp.header().baseVersion(1).mgmtClass(Mad.CLASS_SUBN_LID_ROUTED).classVersion(1)
                    .method(Mad.METHOD_GET).transactionId(0x1234).attributeId(SmpNodeDescription.ATTRIBUTE_ID);
            client.send(mad, 1, 0, 0);
            IbsimClient.SimPacket reply = client.receive(5000);
            assertNotNull(reply, "no reply within 5 s");
            assertEquals(0, reply.status());
            SmpFormat answer = new SmpFormat(reply.mad(), 0);
            assertEquals(1, answer.header().r());
            // ibsim tags the upper TID bits with the client; the low 32 bits come back unchanged.
            assertEquals(0x1234, answer.header().transactionId() & 0xFFFF_FFFFL);
            String description = new SmpNodeDescription(reply.mad(), 64).nodeString();
            assertTrue(description.equals("sw1") || description.equals("sw2"), description);
        }
    }

    @Test
    void aPacketIbsimCannotRouteComesBackDropped(Fabric fabric) {
        try (IbsimClient client = IbsimClient.attach(fabric.socketName(), "node01 HCA-1")) {
            byte[] mad = new byte[256];
            new SmpFormat(mad, 0).header().baseVersion(1).mgmtClass(Mad.CLASS_SUBN_LID_ROUTED).classVersion(1)
                    .method(Mad.METHOD_GET).transactionId(7).attributeId(SmpNodeInfo.ATTRIBUTE_ID);
            client.send(mad, 0xBFFF, 0, 0);
            IbsimClient.SimPacket reply = client.receive(5000);
            assertNotNull(reply);
            assertEquals(IbsimClient.STATUS_DROPPED, reply.status());
        }
    }

    @Test
    void unknownNodesAndMissingSimulatorsFailClearly(Fabric fabric) {
        RdmaException unknown = assertThrows(RdmaException.class, () -> IbsimClient.attach(fabric.socketName(), "no-such-node"));
        assertTrue(unknown.getMessage().contains("refused CONNECT to node \"no-such-node\""), unknown.getMessage());
        RdmaException missing = assertThrows(RdmaException.class, () -> IbsimClient.attach("jrdma-nobody-here", null));
        assertTrue(missing.getMessage().contains("cannot reach ibsim"), missing.getMessage());
    }

    @Test
    void closeIsIdempotentAndDetaches(Fabric fabric) {
        IbsimClient client = IbsimClient.attach(fabric.socketName(), null);
        client.close();
        client.close();
        assertThrows(IllegalStateException.class, () -> client.send(new byte[256], 1, 0, 0));
    }

    private static SmpNodeInfo directedNodeInfo(IbsimClient client, int[] path) {
        byte[] mad = new byte[256];
        SmpDirectedFormat dr = new SmpDirectedFormat(mad, 0);
        dr.baseVersion(1).mgmtClass(Mad.CLASS_SUBN_DIRECTED_ROUTE).classVersion(1).method(Mad.METHOD_GET)
                .transactionId(0x55).attributeId(SmpNodeInfo.ATTRIBUTE_ID).hopCount(path.length).hopPointer(0)
                .drSlid(0xFFFF).drDlid(0xFFFF);
        for (int i = 0; i < path.length; i++) {
            dr.initialPath(i + 1, path[i]);
        }
        client.send(mad, 0xFFFF, 0, 0);
        IbsimClient.SimPacket reply = client.receive(5000);
        assertNotNull(reply, "no reply within 5 s");
        assertEquals(0, reply.status());
        SmpDirectedFormat answer = new SmpDirectedFormat(reply.mad(), 0);
        assertEquals(1, answer.r());
        assertEquals(1, answer.d(), "a DR response has the direction bit set");
        return SmpNodeInfo.decode(reply.mad(), 64);
    }
}
