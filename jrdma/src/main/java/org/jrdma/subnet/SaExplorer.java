package org.jrdma.subnet;

import java.util.List;
import org.jrdma.MadException;
import org.jrdma.devices.EndPort;
import org.jrdma.iba.sa.SaLinkRecord;
import org.jrdma.iba.sa.SaNodeRecord;
import org.jrdma.iba.sa.SaPortInfoRecord;
import org.jrdma.iba.sa.SaSwitchInfoRecord;
import org.jrdma.iba.smp.SmpPortInfo;
import org.jrdma.iba.smp.SmpSwitchInfo;
import org.jrdma.mad.MadSchedule;
import org.jrdma.mad.MadTransactor;
import org.jrdma.mad.SmpTarget;

/**
 * Discovery from the subnet administrator's records (IBA 15.2.5), no SMP sent: a node is its
 * NodeRecord by LID, a switch's SwitchInfo its SwitchInfoRecord, a port's PortInfo its
 * PortInfoRecord by LID and port number, and a port's neighbor the LinkRecord from that LID and
 * port. Each query is a SubnAdmGetTable whose components select one record, so every answer fits
 * one MAD: it works where the SA's multi-packet (RMPP) responses do not arrive whole, as with
 * OpenSM behind ibsim.
 */
record SaExplorer(MadTransactor sa) implements Exploration.Explorer, Exploration.NodeAttributes {
    @Override
    public Node start(MadSchedule sched) {
        EndPort here = sa.endPort().orElseThrow(() -> new IllegalArgumentException("SA discovery needs the transactor's end port"));
        if (here.lid() == 0) {
            throw new IllegalStateException("the end port " + here + " has no LID: no SM has brought the subnet up");
        }
        SaNodeRecord record = nodeRecord(here.lid());
        return Exploration.read(sched, this, new SmpTarget.Lid(here.lid()), record.nodeInfo(), record.nodeDescription().nodeString(),
                List.of(here.portNumber()));
    }

    @Override
    public Exploration.Probe probe(Port from) {
        List<SaLinkRecord> links = sa.subnAdmGetTable(new SaLinkRecord().fromLid(from.lid()).fromPort(from.number()),
                SaLinkRecord.FROM_LID_COMPONENT_MASK | SaLinkRecord.FROM_PORT_COMPONENT_MASK);
        if (links.isEmpty()) {
            return null;
        }
        SaLinkRecord link = links.getFirst();
        SaNodeRecord record = nodeRecord(link.toLid());
        return new Exploration.Probe(from, new SmpTarget.Lid(link.toLid()), record.nodeInfo(), record.nodeDescription().nodeString(),
                link.toPort());
    }

    @Override
    public Exploration.NodeAttributes attributes() {
        return this;
    }

    @Override
    public String description(SmpTarget target) {
        return nodeRecord(lid(target)).nodeDescription().nodeString();
    }

    @Override
    public SmpSwitchInfo switchInfo(SmpTarget target) {
        return one(sa.subnAdmGetTable(new SaSwitchInfoRecord().lid(lid(target)), SaSwitchInfoRecord.LID_COMPONENT_MASK),
                "SwitchInfoRecord", target).switchInfo();
    }

    @Override
    public SmpPortInfo portInfo(SmpTarget target, int port) {
        List<SaPortInfoRecord> records = sa.subnAdmGetTable(new SaPortInfoRecord().endportLid(lid(target)).portNum(port),
                SaPortInfoRecord.ENDPORT_LID_COMPONENT_MASK | SaPortInfoRecord.PORT_NUM_COMPONENT_MASK);
        return records.isEmpty() ? null : SmpPortInfo.decode(records.getFirst().portInfo().toBytes(), 0);
    }

    private SaNodeRecord nodeRecord(int lid) {
        SmpTarget target = new SmpTarget.Lid(lid);
        return one(sa.subnAdmGetTable(new SaNodeRecord().lid(lid), SaNodeRecord.LID_COMPONENT_MASK), "NodeRecord", target);
    }

    private static <R> R one(List<R> records, String what, SmpTarget target) {
        if (records.isEmpty()) {
            throw new MadException("the SA has no " + what + " for LID " + lid(target));
        }
        return records.getFirst();
    }

    private static int lid(SmpTarget target) {
        return ((SmpTarget.Lid) target).lid();
    }
}
