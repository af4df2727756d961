package org.jrdma.subnet;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.jrdma.iba.sa.SaLinkRecord;
import org.jrdma.iba.sa.SaNodeRecord;
import org.jrdma.iba.sa.SaPortInfoRecord;
import org.jrdma.iba.sa.SaSwitchInfoRecord;
import org.jrdma.mad.MadException;
import org.jrdma.mad.MadSchedule;
import org.jrdma.mad.MadTransactor;

/**
 * The SA records (IBA 15.2.5) discovery from the SA reads, by LID and port: asked for one at a
 * time ({@link #queries}), or taken out of the whole tables read at the start ({@link #tables}).
 */
sealed interface SaRecords {
    /** @throws MadException if the SA has no NodeRecord for {@code lid} */
    SaNodeRecord node(int lid);

    /** @throws MadException if the SA has no SwitchInfoRecord for {@code lid} */
    SaSwitchInfoRecord switchInfo(int lid);

    /** The PortInfoRecord of port {@code port} of the port or switch with LID {@code lid}, or null. */
    SaPortInfoRecord portInfo(int lid, int port);

    /** The LinkRecord from port {@code port} of the node with LID {@code lid}, or null if the port has no link. */
    SaLinkRecord link(int lid, int port);

    /**
     * One SubnAdmGetTable per record wanted, its components selecting that record, so every answer
     * fits one MAD: for SAs whose multi-packet answers do not arrive whole (OpenSM behind ibsim).
     */
    static SaRecords queries(MadTransactor sa) {
        return new Queries(sa);
    }

    /**
     * The four whole tables (every NodeRecord, SwitchInfoRecord, PortInfoRecord and LinkRecord),
     * read at once by four SubnAdmGetTables in parallel; their answers come by RMPP.
     */
    static SaRecords tables(MadTransactor sa, MadSchedule sched) {
        MadSchedule.Task<List<SaNodeRecord>> nodes = sched.queue(() -> sa.subnAdmGetTable(new SaNodeRecord(), 0));
        MadSchedule.Task<List<SaSwitchInfoRecord>> switches = sched.queue(() -> sa.subnAdmGetTable(new SaSwitchInfoRecord(), 0));
        MadSchedule.Task<List<SaPortInfoRecord>> ports = sched.queue(() -> sa.subnAdmGetTable(new SaPortInfoRecord(), 0));
        MadSchedule.Task<List<SaLinkRecord>> links = sched.queue(() -> sa.subnAdmGetTable(new SaLinkRecord(), 0));
        Tables t = new Tables(new HashMap<>(), new HashMap<>(), new HashMap<>(), new HashMap<>());
        nodes.join().forEach(r -> t.nodes().put(r.lid(), r));
        switches.join().forEach(r -> t.switches().put(r.lid(), r));
        ports.join().forEach(r -> t.ports().put(key(r.endportLid(), r.portNum()), r));
        links.join().forEach(r -> t.links().put(key(r.fromLid(), r.fromPort()), r));
        return t;
    }

    private static int key(int lid, int port) {
        return lid << 8 | port;
    }

    private static <R> R one(R record, String what, int lid) {
        if (record == null) {
            throw new MadException("the SA has no " + what + " for LID " + lid);
        }
        return record;
    }

    /** See {@link #queries}. */
    record Queries(MadTransactor sa) implements SaRecords {
        @Override
        public SaNodeRecord node(int lid) {
            return one(first(sa.subnAdmGetTable(new SaNodeRecord().lid(lid), SaNodeRecord.LID_COMPONENT_MASK)), "NodeRecord", lid);
        }

        @Override
        public SaSwitchInfoRecord switchInfo(int lid) {
            return one(first(sa.subnAdmGetTable(new SaSwitchInfoRecord().lid(lid), SaSwitchInfoRecord.LID_COMPONENT_MASK)),
                    "SwitchInfoRecord", lid);
        }

        @Override
        public SaPortInfoRecord portInfo(int lid, int port) {
            return first(sa.subnAdmGetTable(new SaPortInfoRecord().endportLid(lid).portNum(port),
                    SaPortInfoRecord.ENDPORT_LID_COMPONENT_MASK | SaPortInfoRecord.PORT_NUM_COMPONENT_MASK));
        }

        @Override
        public SaLinkRecord link(int lid, int port) {
            return first(sa.subnAdmGetTable(new SaLinkRecord().fromLid(lid).fromPort(port),
                    SaLinkRecord.FROM_LID_COMPONENT_MASK | SaLinkRecord.FROM_PORT_COMPONENT_MASK));
        }

        private static <R> R first(List<R> records) {
            return records.isEmpty() ? null : records.getFirst();
        }
    }

    /** See {@link #tables}. */
    record Tables(Map<Integer, SaNodeRecord> nodes, Map<Integer, SaSwitchInfoRecord> switches, Map<Integer, SaPortInfoRecord> ports,
            Map<Integer, SaLinkRecord> links) implements SaRecords {
        @Override
        public SaNodeRecord node(int lid) {
            return one(nodes.get(lid), "NodeRecord", lid);
        }

        @Override
        public SaSwitchInfoRecord switchInfo(int lid) {
            return one(switches.get(lid), "SwitchInfoRecord", lid);
        }

        @Override
        public SaPortInfoRecord portInfo(int lid, int port) {
            return ports.get(key(lid, port));
        }

        @Override
        public SaLinkRecord link(int lid, int port) {
            return links.get(key(lid, port));
        }
    }
}
