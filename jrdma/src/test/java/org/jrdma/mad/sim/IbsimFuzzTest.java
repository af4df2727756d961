package org.jrdma.mad.sim;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.code_intelligence.jazzer.junit.FuzzTest;
import java.util.Arrays;
import org.jrdma.RdmaException;
import org.jrdma.devices.EndPort;
import org.jrdma.iba.smp.SmpNodeInfo;
import org.jrdma.iba.smp.SmpPortInfo;
import org.jrdma.mad.ReceivedMad;

/**
 * Coverage-guided fuzz targets (Jazzer) for ibsim's protocol messages as {@link IbsimClient}
 * parses them: a datagram from the data socket ({@code struct sim_request}, the MAD and its
 * addressing) as {@link IbsimTransport} hands it over, and the replies of attaching (CONNECT,
 * GET_NODEINFO, GET_PORTINFO, GET_PKEYS, the node's NodeInfo and PortInfo by directed-route SMP
 * to itself, GET_VENDOR) turned into the client's node name, end port and device. The only
 * exception allowed out is {@link RdmaException}.
 */
class IbsimFuzzTest {
    private static final int CTL_SIZE = 80;

    /** One datagram from the data socket, received into the client's 288-byte buffer. */
    @FuzzTest(maxDuration = "10s")
    void dataPacket(byte[] datagram) {
        try {
            IbsimClient.SimPacket p = IbsimClient.packet(received(datagram, IbsimClient.REQUEST_SIZE), datagram.length);
            assertEquals(256, p.mad().length);
            assertTrue(p.length() >= 0 && p.length() <= 256, "length " + p.length());
            ReceivedMad mad = IbsimTransport.received(p);
            assertEquals(p.status() == IbsimClient.STATUS_DROPPED, mad.dropped());
        } catch (RdmaException expected) {
            // not a struct sim_request
        }
    }

    /**
     * The seven replies of attaching, in order, each framed by a big-endian 16-bit length (a
     * datagram's length as received, at most its buffer's).
     */
    @FuzzTest(maxDuration = "10s")
    void attach(byte[] stream) {
        Datagrams in = new Datagrams(stream);
        try {
            byte[] connect = in.control("CONNECT");
            IbsimClient.connectedClient(connect);
            IbsimClient.connectedNode(connect);
            SmpNodeInfo nodeInfo = IbsimClient.nodeInfo(in.control("GET_NODEINFO"));
            IbsimClient.portInfo(in.control("GET_PORTINFO"));
            int[] pkeys = IbsimClient.pkeys(in.control("GET_PKEYS"));
            SmpNodeInfo self = SmpNodeInfo.decode(in.smp(), 64);
            int port = IbsimClient.selfPort(self);
            EndPort endPort = IbsimClient.endPort(self, port, SmpPortInfo.decode(in.smp(), 64), pkeys);
            assertEquals(port, endPort.portNumber());
            IbsimClient.device(in.control("GET_VENDOR"), nodeInfo, endPort);
        } catch (RdmaException expected) {
            // a reply ibsim would not send
        }
    }

    /** The datagram as the socket leaves it in a receive buffer of {@code size} bytes. */
    private static byte[] received(byte[] datagram, int size) {
        return Arrays.copyOf(datagram, Math.max(size, datagram.length));
    }

    /** Length-framed datagrams; an exhausted stream yields empty ones. */
    private static final class Datagrams {
        private final byte[] stream;
        private int at;

        Datagrams(byte[] stream) {
            this.stream = stream;
        }

        byte[] control(String what) {
            byte[] d = next(CTL_SIZE);
            return IbsimClient.controlReply(received(d, CTL_SIZE), d.length, what);
        }

        /** An SMP reply's MAD, from a data-socket datagram. */
        byte[] smp() {
            byte[] d = next(IbsimClient.REQUEST_SIZE);
            return IbsimClient.packet(received(d, IbsimClient.REQUEST_SIZE), d.length).mad();
        }

        private byte[] next(int max) {
            if (at + 2 > stream.length) {
                return new byte[0];
            }
            int length = Math.min(max, ((stream[at] & 0xFF) << 8 | stream[at + 1] & 0xFF) % (max + 1));
            at += 2;
            int end = Math.min(stream.length, at + length);
            byte[] d = Arrays.copyOfRange(stream, at, end);
            at = end;
            return d;
        }
    }
}
