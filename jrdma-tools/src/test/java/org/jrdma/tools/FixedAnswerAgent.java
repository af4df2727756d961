package org.jrdma.tools;

import java.time.Duration;
import java.util.Map;
import org.jrdma.iba.smp.SmpPortInfo;
import org.jrdma.mad.MadEngine;
import org.jrdma.mad.MadReplies;
import org.jrdma.mad.ReceivedMad;
import org.jrdma.mad.SmpClient;
import org.jrdma.mad.SmpTarget;
import org.jrdma.mad.sim.IbsimTransport;
import org.jrdma.testkit.fabric.Fabric;

/**
 * A jrdma agent of one management class on a simulated CA, for the answers ibsim has no agent to
 * give (a vendor class, the CC attributes it does not hand to an SMP handler): each Get of an
 * attribute in its table is answered with that data at the class's data offset, each other
 * request with itself (a Set's data echoed), status 0.
 */
final class FixedAnswerAgent implements AutoCloseable {
    private final MadEngine engine;
    private final Thread server;
    private final int lid;
    private volatile boolean closed;

    private FixedAnswerAgent(MadEngine engine, int lid, int dataOffset, Map<Integer, byte[]> answers) {
        this.engine = engine;
        this.lid = lid;
        this.server = Thread.ofVirtual().start(() -> serve(dataOffset, answers));
    }

    /**
     * Starts the agent of {@code mgmtClass} at {@code node}.
     *
     * @param answers the data of each attribute ID's Get response
     */
    static FixedAnswerAgent start(Fabric fabric, String node, int mgmtClass, int classVersion, int dataOffset,
            Map<Integer, byte[]> answers) {
        MadEngine engine = new MadEngine(IbsimTransport.attach(fabric.socketName(), node), 4);
        int lid = new SmpClient(engine, Duration.ofSeconds(1), 2, 0).get(new SmpPortInfo(), SmpTarget.local(), 0).lid();
        engine.registerServer(mgmtClass, classVersion, 0b110, 0);
        return new FixedAnswerAgent(engine, lid, dataOffset, answers);
    }

    /** The LID of the agent's port, where the tools send. */
    int lid() {
        return lid;
    }

    private void serve(int dataOffset, Map<Integer, byte[]> answers) {
        while (!closed) {
            ReceivedMad in;
            try {
                in = engine.receiveRequest(Duration.ofMillis(200));
            } catch (RuntimeException e) {
                return; // closed
            }
            if (in == null || in.dropped()) {
                continue;
            }
            byte[] reply = MadReplies.response(in.mad(), 0);
            int attributeId = (reply[16] & 0xFF) << 8 | reply[17] & 0xFF;
            byte[] data = answers.get(attributeId);
            if (data != null && (in.mad()[3] & 0x7F) == 1) {
                System.arraycopy(data, 0, reply, dataOffset, Math.min(data.length, reply.length - dataOffset));
            }
            engine.send(reply, in.from());
        }
    }

    @Override
    public void close() {
        closed = true;
        try {
            server.join(Duration.ofSeconds(2));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        engine.close();
    }
}
