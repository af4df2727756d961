package org.jrdma.tools.traps;

import java.util.Arrays;
import java.util.Optional;
import org.jrdma.iba.Gid;
import org.jrdma.iba.Guid;
import org.jrdma.iba.smp.SmpNotice;
import org.jrdma.iba.smp.SmpNoticeTrap129;
import org.jrdma.iba.smp.SmpNoticeTrap144;
import org.jrdma.iba.smp.SmpNoticeTrap145;
import org.jrdma.iba.smp.SmpNoticeTrap256;
import org.jrdma.iba.smp.SmpNoticeTrap257;

/**
 * The traps infiniband-diags' ibsendtrap knows, each a generic Notice (IBA 13.4.8.2) with the
 * DataDetails of its trap number (IBA 14.2.5.1), filled with the values the C tool puts in them:
 * the issuing port's own LID, node type and CapabilityMask where IBA wants them, and fixed example
 * values for the rest (the offending keys, LIDs, QPs and GIDs of the security traps).
 */
enum Trap {
    /** Trap 144 with NodeDescriptionChange: the port's node description changed. */
    NODE_DESC_CHANGE("node_desc_change", 144, Type.INFO),
    /** Trap 144 with LinkSpeedEnabledChange. */
    LINK_SPEED_ENABLED_CHANGE("link_speed_enabled_change", 144, Type.INFO),
    /** Trap 129: the local link integrity threshold was reached at the port of the command line. */
    LOCAL_LINK_INTEGRITY("local_link_integrity", 129, Type.URGENT),
    /** Trap 145: the node's SystemImageGUID changed (to 0x1234567812345678). */
    SYS_IMAGE_GUID_CHANGE("sys_image_guid_change", 145, Type.INFO),
    /** Trap 256: a bad M_Key in a LID-routed SMP. */
    MKEY_LID("mkey_lid", 256, Type.SECURITY),
    /** Trap 256: a bad M_Key in a directed-route SMP, with its return path 5,6,7,8. */
    MKEY_DR("mkey_dr", 256, Type.SECURITY),
    /** Trap 257: a bad P_Key between LIDs 1 and 2. */
    PKEY("pkey", 257, Type.SECURITY),
    /** Trap 258: a bad Q_Key between LIDs 1 and 2. */
    QKEY("qkey", 258, Type.SECURITY);

    /** The example value ibsendtrap puts in the new SystemImageGUID of trap 145 and in the M_Key of trap 256. */
    private static final long EXAMPLE_64 = 0x1234567812345678L;
    /** The GID prefix of the two example GIDs of traps 257 and 258 (ibsendtrap's value, a site-local prefix). */
    private static final long EXAMPLE_GID_PREFIX = 0xf8c0000000000001L;
    /** The SMP data area: the first 64 bytes of the 80-byte Notice go in a SubnTrap (its IssuerGID stays out). */
    static final int SMP_DATA_SIZE = 64;

    /** The notice types (IBA 13.4.8.2, Table 128). */
    enum Type {
        URGENT(1), SECURITY(2), INFO(4);

        final int value;

        Type(int value) {
            this.value = value;
        }
    }

    /** The name ibsendtrap takes on its command line. */
    final String cName;
    /** The trap number. */
    final int number;
    /** The notice type. */
    final Type type;

    Trap(String cName, int number, Type type) {
        this.cName = cName;
        this.number = number;
        this.type = type;
    }

    /** The trap of a command-line name, as ibsendtrap compares them (exactly). */
    static Optional<Trap> named(String name) {
        return Arrays.stream(values()).filter(t -> t.cName.equals(name)).findFirst();
    }

    /**
     * The Notice this trap sends from a port.
     *
     * @param issuerLid      the sending port's LID (IssuerLID, and the LID in most DataDetails)
     * @param producerType   the sending node's type (1 CA, 2 switch, 3 router), the generic notice's ProducerType
     * @param capabilityMask the sending port's CapabilityMask, for trap 144
     * @param errorPort      the port trap 129 names
     */
    SmpNotice notice(int issuerLid, int producerType, long capabilityMask, int errorPort) {
        SmpNotice notice = new SmpNotice().isGeneric(1).type(type.value).producerTypeOrVendorId(producerType)
                .trapNumberOrDeviceId(number).issuerLid(issuerLid);
        byte[] details = switch (this) {
            case NODE_DESC_CHANGE -> trap144(issuerLid, capabilityMask).nodeDescriptionChange(1).toBytes();
            case LINK_SPEED_ENABLED_CHANGE -> trap144(issuerLid, capabilityMask).linkSpeedEnabledChange(1).toBytes();
            case LOCAL_LINK_INTEGRITY -> new SmpNoticeTrap129().lidAddr(issuerLid).portNo(errorPort & 0xFF).toBytes();
            // ibsendtrap leaves the LID of trap 145 at 0
            case SYS_IMAGE_GUID_CHANGE -> new SmpNoticeTrap145().systemImageGuid(new Guid(EXAMPLE_64)).toBytes();
            case MKEY_LID -> trap256(issuerLid).toBytes();
            case MKEY_DR -> trap256(issuerLid).drNotice(1).drHopCount(4).drNoticeReturnPath(0, 5).drNoticeReturnPath(1, 6)
                    .drNoticeReturnPath(2, 7).drNoticeReturnPath(3, 8).toBytes();
            case PKEY, QKEY -> new SmpNoticeTrap257().lidAddr1(1).lidAddr2(2).key(0x12345678L).qp1(0x010101).qp2(0x020202)
                    .gidAddr1(Gid.of(EXAMPLE_GID_PREFIX, new Guid(0x1111222233334444L)))
                    .gidAddr2(Gid.of(EXAMPLE_GID_PREFIX, new Guid(0x5678567812341234L))).toBytes();
        };
        return notice.dataDetails(details);
    }

    private static SmpNoticeTrap144 trap144(int lid, long capabilityMask) {
        return new SmpNoticeTrap144().lidAddr(lid).otherLocalChanges(1).capabilityMask(capabilityMask);
    }

    private static SmpNoticeTrap256 trap256(int lid) {
        return new SmpNoticeTrap256().lidAddr(lid).drSlid(0xFFFF).method(1).attributeId(0x15).attributeModifier(0x12).mKey(EXAMPLE_64);
    }
}
