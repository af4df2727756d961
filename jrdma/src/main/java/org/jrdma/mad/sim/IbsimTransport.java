package org.jrdma.mad.sim;

import java.util.List;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import org.jrdma.devices.EndPort;
import org.jrdma.iba.Mad;
import org.jrdma.iba.mad.MadHeader;
import org.jrdma.iba.mad.RmppHeader;
import org.jrdma.iba.wire.Bits;
import org.jrdma.mad.MadAddress;
import org.jrdma.mad.MadReplies;
import org.jrdma.mad.MadTransport;
import org.jrdma.mad.ReceivedMad;

/**
 * The ibsim client protocol as a {@link MadTransport}: the node the client is attached at is the
 * end port ({@link IbsimClient#endPort()}).
 *
 * <h2>Serving requests</h2>
 * ibsim answers SMPs and PerfMgt MADs itself and hands every other request that reaches a port's
 * QP0 or QP1 to the client of that port that declared itself its subnet manager (ibsim's
 * {@code find_client}; the responses go back to the requester by the client number ibsim writes
 * into the top 16 bits of each request's TID). {@link #registerServer} therefore declares this
 * client the port's SM (SET_ISSM, so only one jrdma server per node, and not on OpenSM's node) and
 * then does what the kernel does for its agents: {@link #receive} hands over the requests a
 * registered agent serves, answers other Gets and Sets with status 0x000C (unsupported
 * method/attribute) and drops the rest. Before any registration every MAD is handed over.
 *
 * <p>ibsim has no RMPP layer: {@link #reassemblesRmpp} is false for every class, so the
 * {@link org.jrdma.mad.MadEngine} does RMPP between jrdma agents on the fabric. OpenSM's SA
 * responses reach it unsegmented (see {@link IbsimClient}).
 */
public final class IbsimTransport implements MadTransport {
    private static final int VENDOR_OUI_OFFSET = 37;
    private static final int RMPP_ACTIVE = 0x1;
    private static final int RMPP_DATA = 1;

    private final IbsimClient client;
    private final List<Agent> agents = new CopyOnWriteArrayList<>();

    private record Agent(int mgmtClass, int classVersion, long methodMask, int oui) {
        boolean serves(byte[] mad) {
            int method = mad[3] & 0x7F;
            return ((methodMask >>> method & 1) != 0 || isRmppControl(mad)) && ours(mad);
        }

        private boolean ours(byte[] mad) {
            boolean ouiClass = mgmtClass >= Mad.CLASS_VENDOR_RANGE2_START && mgmtClass <= Mad.CLASS_VENDOR_RANGE2_END;
            return (mad[1] & 0xFF) == mgmtClass && (mad[2] & 0xFF) == classVersion
                    && (!ouiClass || Bits.get(mad, VENDOR_OUI_OFFSET, 0, 24) == oui);
        }

        /**
         * An RMPP ACK, STOP or ABORT (IBA 13.6.2) carries the method of the transfer's DATA with the R
         * bit toggled, which need not be one the agent serves (a Set's response is a GetResp, whose
         * ACKs go as Gets): like the kernel, hand those to the agent of the class whatever their method.
         */
        private static boolean isRmppControl(byte[] mad) {
            int mgmtClass = mad[1] & 0xFF;
            boolean rmppClass = mgmtClass == Mad.CLASS_SUBN_ADM
                    || mgmtClass >= Mad.CLASS_VENDOR_RANGE2_START && mgmtClass <= Mad.CLASS_VENDOR_RANGE2_END;
            RmppHeader h = new RmppHeader(mad, MadHeader.SIZE);
            return rmppClass && h.rmppVersion() != 0 && (h.rmppFlags() & RMPP_ACTIVE) != 0 && h.rmppType() != RMPP_DATA;
        }
    }

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

    /** Declares this client the port's SM and serves requests matching the agent; see the class comment. */
    @Override
    public void registerServer(int mgmtClass, int classVersion, long methodMask, int oui) {
        if ((mgmtClass & ~0xFF) != 0 || (classVersion & ~0xFF) != 0 || (oui & ~0xFFFFFF) != 0) {
            throw new IllegalArgumentException(String.format("class 0x%x, version 0x%x or OUI 0x%x out of range", mgmtClass,
                    classVersion, oui));
        }
        // The agent goes in before SET_ISSM: once this client is the port's SM, ibsim forwards the SM
        // class to it, and a MAD arriving while no agent was registered would be handed over as a
        // request the server never asked for (DiscoverySourcesTest's SA server got an SMP that way).
        boolean first = agents.isEmpty();
        Agent agent = new Agent(mgmtClass, classVersion, methodMask, oui);
        agents.add(agent);
        if (first) {
            try {
                client.setIsSm(true);
            } catch (RuntimeException e) {
                agents.remove(agent);
                throw e;
            }
        }
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
        ReceivedMad in = received(p);
        MadAddress from = in.from();
        if (in.dropped() || agents.isEmpty() || Mad.answersRequest(p.mad()[3] & 0xFF) || agents.stream().anyMatch(a -> a.serves(p.mad()))) {
            return in;
        }
        int method = p.mad()[3] & 0xFF;
        if (method == Mad.METHOD_GET || method == Mad.METHOD_SET) {
            send(MadReplies.response(p.mad(), Mad.STATUS_UNSUP_METHOD_ATTR_COMBO), from);
        }
        return null;
    }

    /**
     * A packet from ibsim as the MAD received: from its source LID and QP, dropped when ibsim
     * returned it undelivered. A pure function of the packet, so that it can be fuzzed (IbsimFuzzTest).
     */
    static ReceivedMad received(IbsimClient.SimPacket p) {
        MadAddress from = new MadAddress(p.slid(), p.sqp() & 0xFFFFFF, 0, 0, 0, null);
        return new ReceivedMad(p.mad(), p.length(), from, p.status() == IbsimClient.STATUS_DROPPED);
    }

    /** False: ibsim relays single MADs; see the class comment. */
    @Override
    public boolean reassemblesRmpp(int mgmtClass) {
        return false;
    }

    /** The end port of the node the client is attached at ({@link IbsimClient#endPort()}). */
    @Override
    public Optional<EndPort> endPort() {
        return Optional.of(client.endPort());
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
