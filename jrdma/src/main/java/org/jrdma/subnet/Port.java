package org.jrdma.subnet;

import org.jrdma.iba.Guid;
import org.jrdma.iba.smp.SmpPortInfo;

/**
 * A port of a discovered node: its number, its PortInfo as read during discovery, and the port at
 * the other end of its link, if any. A switch's physical ports share the switch's port GUID and
 * its port 0 LID (IBA 14.2.5.6); a channel adapter port has its own GUID and LID.
 */
public final class Port {
    private final Node node;
    private final int number;
    private final Guid guid;
    private final SmpPortInfo info;
    private Port remote;

    Port(Node node, int number, Guid guid, SmpPortInfo info) {
        this.node = node;
        this.number = number;
        this.guid = guid;
        this.info = info;
    }

    /** The node this port belongs to. */
    public Node node() {
        return node;
    }

    /** The port number (0 is a switch's management port). */
    public int number() {
        return number;
    }

    /** The port GUID. */
    public Guid guid() {
        return guid;
    }

    /** PortInfo as read during discovery (a copy). */
    public SmpPortInfo info() {
        return SmpPortInfo.decode(info.toBytes(), 0);
    }

    /** The port's base LID: its own for a CA port, port 0's for a switch port. */
    public int lid() {
        return node.isSwitch() ? node.lid() : info.lid();
    }

    /** The LID mask control of the port (port 0's for a switch, 0 if that was not read). */
    public int lmc() {
        return node.isSwitch() ? node.managementLmc() : info.lmc();
    }

    /** The port at the other end of this port's link, or null if it has none. */
    public Port remote() {
        return remote;
    }

    SmpPortInfo rawInfo() {
        return info;
    }

    void linkTo(Port other) {
        this.remote = other;
        other.remote = this;
    }

    @Override
    public String toString() {
        return node.description() + " port " + number;
    }
}
