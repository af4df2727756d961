package org.jrdma.mad.sim;

import org.jrdma.iba.Mad;
import org.jrdma.mad.MadAddress;
import org.jrdma.mad.MadTransport;
import org.jrdma.mad.ReceivedMad;

/** The ibsim client protocol as a {@link MadTransport}: the node the client is attached at is the end port. */
public final class IbsimTransport implements MadTransport {
    private final IbsimClient client;

    public IbsimTransport(IbsimClient client) {
        this.client = client;
    }

    /** Attaches to a fabric at a node (null for ibsim's default node). */
    public static IbsimTransport attach(String socketName, String node) {
        return new IbsimTransport(IbsimClient.attach(socketName, node));
    }

    /** The underlying client (node and port data of the attachment point). */
    public IbsimClient client() {
        return client;
    }

    @Override
    public void send(byte[] mad, MadAddress to) {
        int mgmtClass = mad[1] & 0xFF;
        boolean smp = mgmtClass == Mad.CLASS_SUBN_LID_ROUTED || mgmtClass == Mad.CLASS_SUBN_DIRECTED_ROUTE;
        client.send(mad, to.lid(), to.qpn(), smp ? 0 : 1);
    }

    @Override
    public ReceivedMad receive(int timeoutMillis) {
        IbsimClient.SimPacket p = client.receive(timeoutMillis);
        if (p == null) {
            return null;
        }
        MadAddress from = new MadAddress(p.slid(), p.sqp() & 0xFFFFFF, 0, 0, 0, null);
        return new ReceivedMad(p.mad(), p.length(), from, p.status() == IbsimClient.STATUS_DROPPED);
    }

    @Override
    public String describe() {
        return "ibsim @" + client.socketName() + " node \"" + client.nodeName() + "\"";
    }

    @Override
    public void close() {
        client.close();
    }
}
