package org.jrdma.iba.diag;

import java.util.Locale;
import java.util.function.IntFunction;
import java.util.function.Predicate;
import org.jrdma.iba.LinkSpeed;
import org.jrdma.iba.LinkSpeedExt;
import org.jrdma.iba.LinkWidth;
import org.jrdma.iba.Mtu;
import org.jrdma.iba.NodeType;
import org.jrdma.iba.PhysPortState;
import org.jrdma.iba.PortState;

/**
 * The value formatters of infiniband-diags 44 (Debian 12's rdma-core), as facts re-expressed:
 * libibmad's {@code mad_dump_*} functions, which smpquery and perfquery print through, and the
 * printf conversions saquery uses in its own record dumps.
 */
public final class Formats {
    private Formats() {
    }

    /** Text infiniband-diags prints in place of a key unless {@code -K} is given. */
    public static final String NOT_DISPLAYED = "<not displayed>";

    // --- numbers -------------------------------------------------------------------------------

    /** libibmad {@code mad_dump_uint}, printf {@code %u}: unsigned decimal. */
    public static final Format UINT = c -> Long.toUnsignedString(c.bits());

    /**
     * libibmad {@code mad_dump_hex}: {@code 0x} and lower-case digits, zero-padded to two digits
     * per byte the field occupies ({@code 0x%02x} for up to 8 bits, {@code 0x%06x} for 24,
     * {@code 0x%016x} for a GUID).
     */
    public static final Format HEX = c -> "0x" + zeroPad(Long.toHexString(c.bits()), 2 * ((c.bitLength() + 7) / 8));

    /** printf {@code 0x%x} (libibmad {@code mad_dump_bitfield}): lower-case, no padding. */
    public static final Format HEX_MIN = c -> "0x" + Long.toHexString(c.bits());

    /** printf {@code 0x%X}: upper-case, no padding (saquery's record dumps). */
    public static final Format HEX_UPPER = c -> "0x" + Long.toHexString(c.bits()).toUpperCase(Locale.ROOT);

    /** printf {@code 0x%0<digits>X}: upper-case, zero-padded. */
    public static Format hexUpper(int digits) {
        return c -> "0x" + zeroPad(Long.toHexString(c.bits()).toUpperCase(Locale.ROOT), digits);
    }

    /** printf {@code %<width>u}: unsigned decimal right-aligned in {@code width} columns. */
    public static Format decimal(int width) {
        return c -> leftPad(Long.toUnsignedString(c.bits()), width, ' ');
    }

    /** printf {@code 0x%-<width>X}: upper-case, left-aligned in {@code width} columns after 0x. */
    public static Format hexUpperLeft(int width) {
        return c -> {
            String digits = Long.toHexString(c.bits()).toUpperCase(Locale.ROOT);
            return "0x" + digits + " ".repeat(Math.max(0, width - digits.length()));
        };
    }

    /** A GID as glibc's {@code inet_ntop(AF_INET6)} writes it (saquery). */
    public static final Format GID = c -> c.gid().toString();

    // --- enumerations (libibmad dump.c) --------------------------------------------------------

    /** {@code mad_dump_node_type}: {@code Channel Adapter}, {@code Switch}, {@code Router}, {@code ?(N)?}. */
    public static final Format NODE_TYPE = enumerated(NodeType::describe);

    /** saquery's {@code ib_get_node_type_str}: like {@link #NODE_TYPE}, {@code UNKNOWN} outside 1..3. */
    public static final Format SA_NODE_TYPE = enumerated(v -> v >= 1 && v <= 3 ? NodeType.describe(v) : "UNKNOWN");

    /** {@code mad_dump_portstate}. */
    public static final Format PORT_STATE = enumerated(PortState::describe);

    /** {@code mad_dump_physportstate}. */
    public static final Format PHYS_PORT_STATE = enumerated(PhysPortState::describe);

    /** {@code mad_dump_linkdowndefstate}: the default PortPhysicalState after link down. */
    public static final Format LINK_DOWN_DEFAULT_STATE = enumerated(v -> switch (v) {
        case 0 -> "NoChange";
        case 1 -> "Sleep";
        case 2 -> "Polling";
        default -> "?(" + v + ")";
    });

    /** {@code mad_dump_mtu}. */
    public static final Format MTU = enumerated(Mtu::describe);

    /** {@code mad_dump_vlcap}: VLCap 1..5 as {@code VL0} .. {@code VL0-14}. */
    public static final Format VL_CAP = enumerated(v -> v >= 1 && v <= 5 ? vlRange(v) : "?(" + v + ")");

    /** {@code mad_dump_opervls}: like {@link #VL_CAP}, and 0 is {@code No change}. */
    public static final Format OPERATIONAL_VLS = enumerated(v -> v == 0 ? "No change"
            : v <= 5 ? vlRange(v) : "?(" + v + ")");

    /** {@code mad_dump_linkwidth}: LinkWidthActive. */
    public static final Format LINK_WIDTH = enumerated(LinkWidth::describe);

    /** {@code mad_dump_linkwidthen}: a LinkWidthEnabled mask, {@code 1X or 4X}. */
    public static final Format LINK_WIDTH_ENABLED = enumerated(Formats::linkWidths);

    /**
     * {@code mad_dump_linkwidthsup}: a LinkWidthSupported mask, with {@code (IBA extension)} after
     * any mask that is not one of the combinations of IBA 1.2.1 (1X, 1X+4X, 1X+4X+8X, ...).
     */
    public static final Format LINK_WIDTH_SUPPORTED = enumerated(v -> {
        String text = linkWidths(v);
        boolean classic = switch (v) {
            case 1, 3, 7, 11, 15, 17, 19, 23, 27, 31 -> true;
            default -> false;
        };
        return classic || v >> 5 != 0 ? text : text + " (IBA extension)";
    });

    /** {@code mad_dump_linkspeed}: LinkSpeedActive. */
    public static final Format LINK_SPEED = enumerated(LinkSpeed::describe);

    /** {@code mad_dump_linkspeedsup}: a LinkSpeedSupported mask, {@code 2.5 Gbps or 5.0 Gbps}. */
    public static final Format LINK_SPEED_SUPPORTED = enumerated(Formats::linkSpeeds);

    /** {@code mad_dump_linkspeeden}: a LinkSpeedEnabled mask, printed as {@link #LINK_SPEED_SUPPORTED}. */
    public static final Format LINK_SPEED_ENABLED = LINK_SPEED_SUPPORTED;

    /** {@code mad_dump_linkspeedext}: LinkSpeedExtActive. */
    public static final Format LINK_SPEED_EXT = enumerated(LinkSpeedExt::describe);

    /** {@code mad_dump_linkspeedextsup}: a LinkSpeedExtSupported mask; 0 prints as {@code 0}. */
    public static final Format LINK_SPEED_EXT_SUPPORTED = enumerated(Formats::linkSpeedsExt);

    /** {@code mad_dump_linkspeedexten}: as supported, and 30 means the extended speeds are disabled. */
    public static final Format LINK_SPEED_EXT_ENABLED = enumerated(v -> v == 30 ? "Extended link speeds disabled"
            : linkSpeedsExt(v));

    /** {@code mad_dump_portcapmask}: PortInfo:CapabilityMask, {@code 0x%x} then one line per known bit. */
    public static final Format CAPABILITY_MASK = c -> capabilities(c.bits(), Formats.CAPABILITY_NAMES);

    /** {@code mad_dump_portcapmask2}: PortInfo:CapabilityMask2, {@code 0x%x} then one line per known bit. */
    public static final Format CAPABILITY_MASK2 = c -> capabilities(c.bits(), Formats.CAPABILITY2_NAMES);

    // --- text ----------------------------------------------------------------------------------

    /**
     * A NodeDescription as the tools print it (rdma-core's {@code clean_nodedesc}): the bytes up
     * to the first NUL, each one that is not printable ASCII shown as a space.
     */
    public static final Format NODE_DESCRIPTION = c -> {
        byte[] bytes = c.bytes();
        StringBuilder out = new StringBuilder(bytes.length);
        for (byte b : bytes) {
            if (b == 0) {
                break;
            }
            out.append(b >= 0x20 && b < 0x7f ? (char) b : ' ');
        }
        return out.toString();
    };

    // --- combinators ---------------------------------------------------------------------------

    /** {@code format}, or {@link #NOT_DISPLAYED} unless keys are to be shown. */
    public static Format secret(Format format) {
        return c -> c.options().showKeys() ? format.apply(c) : NOT_DISPLAYED;
    }

    /** {@code then} when {@code condition} holds for the options, else {@code otherwise}. */
    public static Format when(Predicate<DiagOptions> condition, Format then, Format otherwise) {
        return c -> condition.test(c.options()) ? then.apply(c) : otherwise.apply(c);
    }

    /**
     * {@code format} applied to {@code length} bits at {@code offset} bits into the cell: a
     * component of an array element, such as the VL of a VLArbitrationTable entry.
     */
    public static Format part(int offset, int length, Format format) {
        return c -> {
            if (offset < 0 || length <= 0 || offset + length > c.bitLength()) {
                throw new IllegalArgumentException("bits " + offset + ".." + (offset + length - 1) + " are not within the "
                        + c.bitLength() + " bits of " + c.field().name());
            }
            return format.apply(new Cell(c.struct(), c.field(), c.bitOffset() + offset, length, c.options()));
        };
    }

    /** Always {@code text}, whatever the bits. */
    public static Format constant(String text) {
        return c -> text;
    }

    /** A formatter of small numbers (at most 31 bits) by a text function, as libibmad's enum dumpers are. */
    public static Format enumerated(IntFunction<String> text) {
        return c -> text.apply((int) c.bits());
    }

    // --- the texts -----------------------------------------------------------------------------

    /** PortInfo:CapabilityMask bit names, index = bit (null: libibmad prints nothing for it). */
    static final String[] CAPABILITY_NAMES = {
        null, "IsSM", "IsNoticeSupported", "IsTrapSupported", "IsOptionalIPDSupported",
        "IsAutomaticMigrationSupported", "IsSLMappingSupported", "IsMKeyNVRAM", "IsPKeyNVRAM",
        "IsLedInfoSupported", "IsSMdisabled", "IsSystemImageGUIDsupported",
        "IsPkeySwitchExternalPortTrapSupported", null, "IsExtendedSpeedsSupported",
        "IsCapabilityMask2Supported", "IsCommunicatonManagementSupported", "IsSNMPTunnelingSupported",
        "IsReinitSupported", "IsDeviceManagementSupported", "IsVendorClassSupported", "IsDRNoticeSupported",
        "IsCapabilityMaskNoticeSupported", "IsBootManagementSupported", "IsLinkRoundTripLatencySupported",
        "IsClientRegistrationSupported", "IsOtherLocalChangesNoticeSupported",
        "IsLinkSpeedWidthPairsTableSupported", "IsVendorSpecificMadsTableSupported",
        "IsMcastPkeyTrapSuppressionSupported", "IsMulticastFDBTopSupported", "IsHierarchyInfoSupported",
    };

    /** PortInfo:CapabilityMask2 bit names, index = bit. */
    static final String[] CAPABILITY2_NAMES = {
        "IsSetNodeDescriptionSupported", "IsPortInfoExtendedSupported", "IsVirtualizationSupported",
        "IsSwitchPortStateTableSupported", "IsLinkWidth2xSupported", "IsLinkSpeedHDRSupported",
        "IsMKeyProtectBitsExtSupported", "IsEnhancedTrap128Supported", "IsPartitionTopSupported",
        "IsEnhancedQoSArbiterSupported", "IsLinkSpeedNDRSupported",
    };

    private static String capabilities(long mask, String[] names) {
        StringBuilder out = new StringBuilder("0x").append(Long.toHexString(mask));
        for (int bit = 0; bit < names.length; bit++) {
            if (names[bit] != null && (mask & (1L << bit)) != 0) {
                out.append("\n\t\t\t\t").append(names[bit]);
            }
        }
        return out.toString();
    }

    private static String vlRange(int vlCap) {
        return switch (vlCap) {
            case 1 -> "VL0";
            case 2 -> "VL0-1";
            case 3 -> "VL0-3";
            case 4 -> "VL0-7";
            default -> "VL0-14";
        };
    }

    /** dump.c {@code dump_linkwidth}: the widths joined by " or ", or "undefined (N)" appended. */
    private static String linkWidths(int mask) {
        StringBuilder out = new StringBuilder();
        for (LinkWidth width : LinkWidth.values()) {
            if ((mask & width.value()) != 0) {
                out.append(width.text()).append(" or ");
            }
        }
        return finish(out, mask == 0 || mask >> 5 != 0, mask);
    }

    /** dump.c {@code dump_linkspeed}, with its {@code (IBA extension)} rule for masks of DDR or QDR without SDR. */
    private static String linkSpeeds(int mask) {
        StringBuilder out = new StringBuilder();
        for (LinkSpeed speed : LinkSpeed.values()) {
            if ((mask & speed.value()) != 0) {
                out.append(speed.text()).append(" or ");
            }
        }
        String text = finish(out, mask == 0 || mask >> 3 != 0, mask);
        boolean classic = mask == 1 || mask == 3 || mask == 5 || mask == 7;
        return classic || mask >> 3 != 0 ? text : text + " (IBA extension)";
    }

    /** dump.c {@code dump_linkspeedext}: 0 prints as "0". */
    private static String linkSpeedsExt(int mask) {
        if (mask == 0) {
            return "0";
        }
        StringBuilder out = new StringBuilder();
        for (LinkSpeedExt speed : LinkSpeedExt.values()) {
            if ((mask & speed.value()) != 0) {
                out.append(speed.text()).append(" or ");
            }
        }
        return finish(out, mask >> 4 != 0, mask);
    }

    /** Appends "undefined (N)" after the last " or ", or drops that last " or ". */
    private static String finish(StringBuilder out, boolean undefined, int mask) {
        if (undefined) {
            return out.append("undefined (").append(mask).append(')').toString();
        }
        out.setLength(out.length() - " or ".length());
        return out.toString();
    }

    static String zeroPad(String digits, int width) {
        return leftPad(digits, width, '0');
    }

    static String leftPad(String text, int width, char pad) {
        return text.length() >= width ? text : String.valueOf(pad).repeat(width - text.length()) + text;
    }
}
