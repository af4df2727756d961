package org.jrdma.tools;

import org.jrdma.RdmaException;
import org.jrdma.iba.Gid;
import org.jrdma.iba.Guid;
import org.jrdma.iba.diag.PortId;
import org.jrdma.iba.sa.SaPathRecord;
import org.jrdma.mad.GmpClient;
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
            case LID -> new Address(text, Destination.parse(text, false), null);
            case DIRECTED_ROUTE -> new Address(text, Destination.parse(text, true), null);
            case GUID -> new Address(text, null, guid(text));
        };
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
         * local port to the SA at the local port's SM LID.
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
            GmpClient gmp = fabric.gmp(smp.engine());
            int lid;
            try {
                lid = gmp.subnAdmGet(query, SaPathRecord.DGID_COMPONENT_MASK | SaPathRecord.SGID_COMPONENT_MASK,
                        smLid != null ? smLid : local.smLid()).dlid();
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
