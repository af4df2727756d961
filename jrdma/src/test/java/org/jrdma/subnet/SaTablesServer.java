package org.jrdma.subnet;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import org.jrdma.iba.Mad;
import org.jrdma.iba.sa.SaLinkRecord;
import org.jrdma.iba.sa.SaNodeRecord;
import org.jrdma.iba.sa.SaPortInfoRecord;
import org.jrdma.iba.sa.SaSwitchInfoRecord;
import org.jrdma.iba.smp.SmpNodeInfo;
import org.jrdma.iba.wire.IbaStruct;
import org.jrdma.mad.IncomingRequest;
import org.jrdma.mad.MadEngine;
import org.jrdma.mad.MadException;
import org.jrdma.mad.MadTransactor;
import org.jrdma.mad.ReceivedMad;
import org.jrdma.mad.sim.IbsimTransport;
import org.jrdma.testkit.fabric.Fabric;

/**
 * A jrdma agent on a simulated fabric answering SubnAdmGetTable of every NodeRecord,
 * SwitchInfoRecord, PortInfoRecord and LinkRecord of a subnet, by RMPP: the records of a subnet
 * read from OpenSM's SA one at a time, served whole, as OpenSM cannot behind ibsim (its
 * multi-packet answers are cut to one MAD).
 */
final class SaTablesServer implements AutoCloseable {
    private final MadEngine engine;
    private final MadTransactor mt;
    private final List<SaNodeRecord> nodes = new ArrayList<>();
    private final List<SaSwitchInfoRecord> switches = new ArrayList<>();
    private final List<SaPortInfoRecord> ports = new ArrayList<>();
    private final List<SaLinkRecord> links = new ArrayList<>();
    private final List<Throwable> failures = new CopyOnWriteArrayList<>();
    private final AtomicInteger served = new AtomicInteger();
    private final Thread server;
    private volatile boolean stopped;

    SaTablesServer(Fabric fabric, String node, Subnet subnet) {
        IbsimTransport transport = IbsimTransport.attach(fabric.socketName(), node);
        this.engine = new MadEngine(transport, 8);
        this.mt = new MadTransactor(engine, transport.client().endPort());
        records(subnet);
        mt.registerServer(Mad.CLASS_SUBN_ADM, 2, 1L << Mad.METHOD_GET_TABLE, 0);
        server = Thread.ofVirtual().start(this::serve);
    }

    /** The LID requests to this server go to. */
    int lid() {
        return mt.endPort().orElseThrow().lid();
    }

    /** The records of {@code subnet} as the SA keeps them: one NodeRecord per switch and per CA port, by LID. */
    private void records(Subnet subnet) {
        for (Node n : subnet.nodes()) {
            if (n.isSwitch()) {
                nodes.add(nodeRecord(n, n.lid(), n.info()));
                switches.add(new SaSwitchInfoRecord().lid(n.lid()));
                switches.getLast().switchInfo().unpack(n.switchInfo().toBytes(), 0);
            }
            for (Port p : n.ports()) {
                if (!n.isSwitch()) {
                    nodes.add(nodeRecord(n, p.lid(), n.info().portGuid(p.guid()).localPortNum(p.number())));
                }
                SaPortInfoRecord pir = new SaPortInfoRecord().endportLid(p.lid()).portNum(p.number());
                pir.portInfo().unpack(p.info().toBytes(), 0);
                ports.add(pir);
                if (p.number() > 0 && p.remote() != null) {
                    links.add(new SaLinkRecord().fromLid(p.lid()).fromPort(p.number()).toPort(p.remote().number()).toLid(p.remote().lid()));
                }
            }
        }
    }

    private static SaNodeRecord nodeRecord(Node n, int lid, SmpNodeInfo info) {
        SaNodeRecord r = new SaNodeRecord().lid(lid);
        r.nodeInfo().unpack(info.toBytes(), 0);
        r.nodeDescription().nodeString(n.description());
        return r;
    }

    private void serve() {
        while (!stopped) {
            ReceivedMad in = engine.receiveRequest(Duration.ofMillis(50));
            if (in == null) {
                continue;
            }
            try {
                IncomingRequest request = mt.parseRequest(in);
                List<? extends IbaStruct> table = switch (request.attributeId()) {
                    case SaNodeRecord.ATTRIBUTE_ID -> nodes;
                    case SaSwitchInfoRecord.ATTRIBUTE_ID -> switches;
                    case SaPortInfoRecord.ATTRIBUTE_ID -> ports;
                    case SaLinkRecord.ATTRIBUTE_ID -> links;
                    default -> throw new MadException("no such table here", Mad.STATUS_UNSUP_METHOD_ATTR_COMBO);
                };
                mt.sendReply(request, table);
                served.incrementAndGet();
            } catch (MadException e) {
                mt.sendErrorException(in, e);
            } catch (RuntimeException e) {
                failures.add(e);
            }
        }
    }

    /** How many tables it sent. */
    int tablesServed() {
        return served.get();
    }

    /** How many NodeRecords it holds. */
    int nodeRecords() {
        return nodes.size();
    }

    /** Stops serving; throws what went wrong in the server, if anything. */
    @Override
    public void close() {
        stopped = true;
        try {
            server.join(Duration.ofSeconds(10));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } finally {
            engine.close();
        }
        if (!failures.isEmpty()) {
            throw new AssertionError("the SA tables server failed", failures.getFirst());
        }
    }
}
