package org.jrdma.tools;

import org.jrdma.RdmaException;
import org.jrdma.iba.Gid;
import org.jrdma.iba.Guid;
import org.jrdma.iba.diag.PortId;
import org.jrdma.iba.sa.SaPathRecord;
import org.jrdma.mad.SmpClient;
import org.jrdma.mad.SmpTarget;
import picocli.CommandLine.Option;

/**
 * {@code -D} and {@code -G}: how a command reads its address arguments, as the infiniband-diags
 * tools do. The last of them given wins; without any, an address is a LID. A GUID is turned into
 * a LID by asking the subnet administrator for a PathRecord from the local port to it (libibmad's
 * {@code resolve_guid}). Most commands also take {@code -L} ({@link AddressOptions}); ibaddr uses
 * that letter for something else.
 */
class RouteOrGuidOptions {
    /** How an address argument is written. */
    enum Kind {
        /** A LID, decimal or 0x-hex. */
        LID,
        /** A directed route {@code 0,port,...} from the local port. */
        DIRECTED_ROUTE,
        /** A port GUID, {@code 0x...} or {@code xxxx:xxxx:xxxx:xxxx}. */
        GUID
    }

    private Kind kind = Kind.LID;

    @Option(names = {"-D", "--Direct"}, description = "use Direct address argument (a directed route 0,port,...)")
    void direct(boolean on) {
        kind = Kind.DIRECTED_ROUTE;
    }

    @Option(names = {"-G", "--Guid"}, description = "use GUID address argument (resolved to a LID by the SA)")
    void guid(boolean on) {
        kind = Kind.GUID;
    }

    /** How address arguments are read. */
    final Kind kind() {
        return kind;
    }

    final void kind(Kind kind) {
        this.kind = kind;
    }

    /**
     * Reads an address argument as these options say, before any MAD is sent.
     *
     * @throws DiagError if {@code text} is not an address of this kind: the C tools' {@code can't
     *                   resolve destination port <text>}
     */
    final Address parse(String text) {
        return switch (kind) {
            case LID -> lidOrPath(text, true);
            case DIRECTED_ROUTE -> new Address(text, Destination.parse(text, true), null);
            case GUID -> new Address(text, null, guid(text));
        };
    }

    /**
     * A LID argument, or one of python-rdma's other names of an end port where infiniband-diags
     * takes a LID ({@link PathTarget}): a GID ({@code fe80::2:c903:0:1491}), a scoped GID
     * ({@code fe80::2:c903:0:1491%mlx4_0/1}) or a port GUID with colons
     * ({@code 0002:c903:0000:1491}), each resolved to its LID by the SA as {@code -G}'s GUIDs are
     * (the GID's interface ID), or a path specification: {@code IBPath(DLID=2)} its DLID, and
     * with {@code routes} {@code IBDRPath(drPath=...)} its directed route. Text without a colon
     * or a parenthesis, or that is no such path, is read as a LID and fails as the C tools fail.
     */
    static Address lidOrPath(String text, boolean routes) {
        if (text.indexOf(':') >= 0 || text.indexOf('(') >= 0) {
            PathTarget path = null;
            try {
                path = PathTarget.parse(text, PathTarget.Kind.ANY, 1);
            } catch (CmdError notAPath) {
                // not one of python-rdma's forms either: read as a LID below
            }
            if (path != null && path.portGuid() != null) {
                return new Address(text, null, path.portGuid());
            }
            if (path != null && path.route() != null && routes) {
                return new Address(text, new Destination(new SmpTarget.DirectedRoute(path.route()),
                        PortId.directRoute(routeText(path.route()))), null);
            }
            if (path != null && path.route() == null && path.lid() != 0) {
                return new Address(text, new Destination(new SmpTarget.Lid(path.lid()), PortId.lid(path.lid())), null);
            }
        }
        return new Address(text, Destination.parse(text, false), null);
    }

    private static String routeText(int[] route) {
        StringBuilder text = new StringBuilder("0");
        for (int port : route) {
            text.append(',').append(port);
        }
        return text.toString();
    }

    private static Guid guid(String text) {
        try {
            return Guid.parse(text);
        } catch (IllegalArgumentException e) {
            throw Destination.unresolved(text, e);
        }
    }

    /**
     * An address argument: a destination already, or a port GUID the SA turns into one.
     *
     * @param text        the argument as given
     * @param destination the LID or directed route, or null for a GUID
     * @param guid        the port GUID, or null
     */
    record Address(String text, Destination destination, Guid guid) {
        /**
         * The destination: a GUID is resolved to its LID by a SubnAdmGet(PathRecord) from the
         * local port to the SA at the local port's SM LID (or on {@code --sa-path}, with {@code --smkey}).
         *
         * @param smp    the SMP client, to read the local port
         * @param fabric the timeout and retries of the SA query
         * @throws DiagError if the SA cannot resolve the GUID ({@code can't resolve destination port <text>})
         */
        Destination resolve(SmpClient smp, FabricOptions fabric) {
            return resolve(smp, fabric, fabric.smPortLid());
        }

        /**
         * The destination, a GUID resolved by the SA at {@code smLid} ({@code -s/--sm_port}), or
         * at the local port's SM LID when it is null.
         */
        Destination resolve(SmpClient smp, FabricOptions fabric, Integer smLid) {
            if (guid == null) {
                return destination;
            }
            LocalPort local = LocalPort.read(smp);
            long prefix = local.info().gidPrefix();
            SaPathRecord query = new SaPathRecord().sgid(new Gid(prefix, local.node().portGuid().value()))
                    .dgid(new Gid(prefix != 0 ? prefix : Gid.DEFAULT_PREFIX, guid.value()));
            int lid;
            try {
                lid = fabric.transactor(smp.engine()).subnAdmGet(query, SaPathRecord.DGID_COMPONENT_MASK | SaPathRecord.SGID_COMPONENT_MASK,
                        fabric.saPath(smp.engine(), () -> smLid != null ? smLid : local.smLid())).dlid();
            } catch (RdmaException e) {
                throw Destination.unresolved(text, e).warn("ib_path_query_via", "sa call path_query failed");
            }
            if (lid <= 0 || lid >= 0xC000) {
                throw Destination.unresolved(text, new RdmaException("the SA answered LID " + lid + " for port GUID " + guid));
            }
            return new Destination(new SmpTarget.Lid(lid), PortId.lid(lid));
        }
    }
}
