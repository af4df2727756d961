package org.jrdma.subnet;

import java.util.List;
import java.util.function.Function;
import org.jrdma.devices.EndPort;
import org.jrdma.iba.sa.SaLinkRecord;
import org.jrdma.iba.sa.SaNodeRecord;
import org.jrdma.iba.sa.SaPortInfoRecord;
import org.jrdma.iba.smp.SmpPortInfo;
import org.jrdma.iba.smp.SmpSwitchInfo;
import org.jrdma.mad.MadSchedule;
import org.jrdma.mad.SmpTarget;

/**
 * Discovery from the subnet administrator's records (IBA 15.2.5), no SMP sent: a node is its
 * NodeRecord by LID, a switch's SwitchInfo its SwitchInfoRecord, a port's PortInfo its
 * PortInfoRecord by LID and port number, and a port's neighbor the LinkRecord from that LID and
 * port; the records come one query at a time or out of whole tables ({@link SaRecords}).
 */
final class SaExplorer implements Exploration.Explorer, Exploration.NodeAttributes {
    private final EndPort here;
    private final Function<MadSchedule, SaRecords> records;
    private SaRecords source;

    /**
     * @param here    the end port discovery starts from
     * @param records makes the source of records when discovery starts (whole tables are read on its scheduler)
     */
    SaExplorer(EndPort here, Function<MadSchedule, SaRecords> records) {
        this.here = here;
        this.records = records;
    }

    @Override
    public Node start(MadSchedule sched) {
        if (here.lid() == 0) {
            throw new IllegalStateException("the end port " + here + " has no LID: no SM has brought the subnet up");
        }
        source = records.apply(sched);
        SaNodeRecord record = source.node(here.lid());
        return Exploration.read(sched, this, new SmpTarget.Lid(here.lid()), record.nodeInfo(), record.nodeDescription().nodeString(),
                List.of(here.portNumber()));
    }

    @Override
    public Exploration.Probe probe(Port from) {
        SaLinkRecord link = source.link(from.lid(), from.number());
        if (link == null) {
            return null;
        }
        SaNodeRecord record = source.node(link.toLid());
        return new Exploration.Probe(from, new SmpTarget.Lid(link.toLid()), record.nodeInfo(), record.nodeDescription().nodeString(),
                link.toPort());
    }

    @Override
    public Exploration.NodeAttributes attributes() {
        return this;
    }

    @Override
    public String description(SmpTarget target) {
        return source.node(lid(target)).nodeDescription().nodeString();
    }

    @Override
    public SmpSwitchInfo switchInfo(SmpTarget target) {
        return source.switchInfo(lid(target)).switchInfo();
    }

    @Override
    public SmpPortInfo portInfo(SmpTarget target, int port) {
        SaPortInfoRecord record = source.portInfo(lid(target), port);
        return record == null ? null : SmpPortInfo.decode(record.portInfo().toBytes(), 0);
    }

    private static int lid(SmpTarget target) {
        return ((SmpTarget.Lid) target).lid();
    }
}
