package org.jrdma.tools;

import java.util.Optional;
import java.util.function.IntFunction;
import org.jrdma.iba.Gid;
import org.jrdma.iba.Guid;
import org.jrdma.iba.sa.SaPathRecord;
import org.jrdma.iba.smp.SmpNodeInfo;
import org.jrdma.iba.smp.SmpPortInfo;
import org.jrdma.mad.MadTransactor;
import org.jrdma.mad.SmpClient;
import org.jrdma.mad.SmpTarget;
import org.jrdma.path.IBDRPath;
import org.jrdma.path.IBPath;
import org.jrdma.path.PathParser;
import org.jrdma.subnet.Node;
import org.jrdma.subnet.Port;
import org.jrdma.subnet.Subnet;

/**
 * A {@code TARGET} argument of python-rdma's own ibtool commands: an end port named as
 * {@code rdma.path.from_string} reads it (a LID, a directed route {@code 0,1,7}, a port GUID
 * {@code 0002:c903:0000:1491}, a GID {@code fe80::2:c903:0:1491}, a scoped GID
 * {@code fe80::...%mlx4_0/1} or a path specification {@code IBPath(DLID=2)}), after the
 * infiniband-diags address options python-rdma also reads: {@code -D} makes a bare number
 * {@code N} the route {@code N,}, {@code -G} reads a bare hex number as a port GUID, and each of
 * {@code -D}, {@code -G}, {@code -L} refuses a target of another kind.
 *
 * @param text     the argument as given
 * @param route    the directed route's ports after the leading 0 (empty for the local node), or null
 * @param lid      the destination LID, or 0
 * @param portGuid the port GUID (a GID's interface ID), or null
 */
public record PathTarget(String text, int[] route, int lid, Guid portGuid) {
    /** How {@code -D}, {@code -G} and {@code -L} ask for targets to be read. */
    public enum Kind {
        /** Any form. */
        ANY,
        /** {@code -D}: a directed route. */
        ROUTE,
        /** {@code -G}: a GUID or GID. */
        GUID,
        /** {@code -L}: a LID. */
        LID
    }

    /**
     * Reads argument number {@code index} (from 1).
     *
     * @throws CmdError python-rdma's {@code Invalid command line argument #N 'TEXT' - WHY}
     */
    public static PathTarget parse(String text, Kind kind, int index) {
        String form = text;
        if (kind == Kind.ROUTE && text.chars().allMatch(Character::isDigit) && !text.isEmpty()) {
            form = text + ",";
        } else if (kind == Kind.GUID && !text.isEmpty() && text.chars().allMatch(c -> Character.digit(c, 16) >= 0)
                && text.length() <= 16) {
            form = new Guid(Long.parseUnsignedLong(text, 16)).toString();
        } else if (kind == Kind.GUID && text.startsWith("0x")) {
            form = parseHexGuid(text).map(Guid::toString).orElse(text);
        }
        PathTarget target;
        try {
            IBPath path = PathParser.system().fromString(form);
            target = of(text, path);
        } catch (IllegalArgumentException e) {
            throw invalid(index, text, e.getMessage());
        }
        switch (kind) {
            case ROUTE -> {
                if (target.route == null) {
                    throw invalid(index, text, "Not a directed route");
                }
            }
            case GUID -> {
                if (target.portGuid == null) {
                    throw invalid(index, text, "Not a GUID");
                }
            }
            case LID -> {
                if (target.lid == 0) {
                    throw invalid(index, text, "Not a LID");
                }
            }
            case ANY -> {
            }
        }
        return target;
    }

    private static Optional<Guid> parseHexGuid(String text) {
        try {
            return Optional.of(Guid.parse(text));
        } catch (IllegalArgumentException e) {
            return Optional.empty();
        }
    }

    private static PathTarget of(String text, IBPath path) {
        if (path instanceof IBDRPath dr) {
            byte[] hops = dr.drPath();
            int[] route = new int[hops.length - 1];
            for (int i = 1; i < hops.length; i++) {
                route[i - 1] = hops[i] & 0xFF;
            }
            return new PathTarget(text, route, 0, null);
        }
        Guid guid = path.dgid().map(Gid::guid).orElse(null);
        return new PathTarget(text, null, guid == null ? path.dlid() : 0, guid);
    }

    private static CmdError invalid(int index, String text, String why) {
        return new CmdError("Invalid command line argument #" + index + " '" + text + "' - " + why);
    }

    /**
     * Where SMPs to the target go: its directed route or LID; a GUID or GID is resolved to the
     * port's LID ({@link #lid}).
     */
    public SmpTarget smpTarget(SmpClient smp, MadTransactor sa, IntFunction<IBPath> saPath) {
        return route != null ? new SmpTarget.DirectedRoute(route) : new SmpTarget.Lid(lid(smp, sa, saPath));
    }

    /**
     * The LID of the target's end port: the LID given, the one a directed route arrives at (its
     * PortInfo:LID, a switch's port 0), or the DLID of the SA's PathRecord from the local port to
     * the GUID or GID (a SubnAdmGet on {@code saPath}'s path, which it is given the local port's
     * SM LID for: python-rdma's {@code --sa-path} with {@code --smkey}, else the SA at that LID, as
     * python-rdma's {@code resolve_path} asks it).
     */
    public int lid(SmpClient smp, MadTransactor sa, IntFunction<IBPath> saPath) {
        if (route != null) {
            return smp.get(new SmpPortInfo(), new SmpTarget.DirectedRoute(route), 0).lid();
        }
        if (portGuid == null) {
            return lid;
        }
        SmpTarget self = new SmpTarget.DirectedRoute(new int[0]);
        SmpPortInfo local = smp.get(new SmpPortInfo(), self, 0);
        Guid localGuid = smp.get(new SmpNodeInfo(), self, 0).portGuid();
        long prefix = local.gidPrefix() != 0 ? local.gidPrefix() : Gid.DEFAULT_PREFIX;
        SaPathRecord query = new SaPathRecord().sgid(new Gid(prefix, localGuid.value())).dgid(new Gid(prefix, portGuid.value()));
        return sa.subnAdmGet(query, SaPathRecord.SGID_COMPONENT_MASK | SaPathRecord.DGID_COMPONENT_MASK, saPath.apply(local.masterSmLid())).dlid();
    }

    /**
     * The end port this target names in {@code subnet}: the port a directed route arrives at,
     * followed hop by hop over the subnet's links from {@link Subnet#from()} (a switch's port 0),
     * the port whose LID range holds the LID (a switch's port 0), or the port with the GUID (a
     * switch's port 0); empty when the subnet has none.
     */
    public Optional<Port> find(Subnet subnet) {
        if (route != null) {
            Node node = subnet.from();
            Port arrived = node.isSwitch() ? null : node.port(node.info().localPortNum());
            for (int hop : route) {
                Port out = node.port(hop);
                if (out == null || out.remote() == null) {
                    return Optional.empty();
                }
                arrived = out.remote();
                node = arrived.node();
            }
            return Optional.ofNullable(node.isSwitch() ? node.managementPort() : arrived);
        }
        for (Node node : subnet.nodes()) {
            for (Port port : node.ports()) {
                if (node.isSwitch() && port.number() != 0) {
                    continue;
                }
                if (portGuid != null ? portGuid.equals(port.guid())
                        : port.lid() != 0 && lid >= port.lid() && lid < port.lid() + (1 << port.lmc())) {
                    return Optional.of(port);
                }
            }
        }
        return Optional.empty();
    }
}
