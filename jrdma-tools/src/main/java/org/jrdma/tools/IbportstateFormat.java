package org.jrdma.tools;

import static org.jrdma.iba.diag.Row.line;

import org.jrdma.iba.diag.DiagOptions;
import org.jrdma.iba.diag.Formats;
import org.jrdma.iba.diag.Table;
import org.jrdma.iba.smp.SmpMlnxExtendedPortInfo;
import org.jrdma.iba.smp.SmpPortInfo;

/**
 * What infiniband-diags' ibportstate (44) prints of a port: {@code show_port_info}, the port's
 * states, LIDs, widths and speeds (the extended speeds when the port, or a switch's port 0, has
 * CapabilityMask.IsExtendedSpeedsSupported; the M_Key fields on a CA or a switch's port 0), and
 * {@code show_mlnx_ext_port_info}, the Mellanox MlnxExtendedPortInfo that carries FDR10.
 */
final class IbportstateFormat {
    /** The lines every port shows (libibmad's {@code mad_dump_portstates}, then the LIDs, widths and speeds). */
    private static final Table PORT = Table.ibmad("ibportstate PortInfo",
            line("LinkState", "portState", Formats.PORT_STATE),
            line("PhysLinkState", "portPhysicalState", Formats.PHYS_PORT_STATE),
            line("Lid", "lid", Formats.UINT),
            line("SMLid", "masterSmLid", Formats.UINT),
            line("LMC", "lmc", Formats.UINT),
            line("LinkWidthSupported", "linkWidthSupported", Formats.LINK_WIDTH_SUPPORTED),
            line("LinkWidthEnabled", "linkWidthEnabled", Formats.LINK_WIDTH_ENABLED),
            line("LinkWidthActive", "linkWidthActive", Formats.LINK_WIDTH),
            line("LinkSpeedSupported", "linkSpeedSupported", Formats.LINK_SPEED_SUPPORTED),
            line("LinkSpeedEnabled", "linkSpeedEnabled", Formats.LINK_SPEED_ENABLED),
            line("LinkSpeedActive", "linkSpeedActive", Formats.LINK_SPEED));
    /** The extended speeds, shown when the port supports them. */
    private static final Table EXTENDED_SPEEDS = Table.ibmad("ibportstate extended speeds",
            line("LinkSpeedExtSupported", "linkSpeedExtSupported", Formats.LINK_SPEED_EXT_SUPPORTED),
            line("LinkSpeedExtEnabled", "linkSpeedExtEnabled", Formats.LINK_SPEED_EXT_ENABLED),
            line("LinkSpeedExtActive", "linkSpeedExtActive", Formats.LINK_SPEED_EXT));
    /** The M_Key fields, shown for a CA port or a switch's port 0. */
    private static final Table KEYS = Table.ibmad("ibportstate M_Key",
            line("Mkey", "mKey", Formats.secret(Formats.HEX)),
            line("MkeyLeasePeriod", "mKeyLeasePeriod", Formats.UINT),
            line("ProtectBits", "mKeyProtectBits", Formats.UINT));
    /** libibmad's {@code mad_dump_mlnx_ext_port_info}. */
    private static final Table MLNX_EXT = Table.ibmad("MlnxExtendedPortInfo",
            line("StateChangeEnable", "stateChangeEnable", Formats.HEX),
            line("LinkSpeedSupported", "linkSpeedSupported", Formats.HEX),
            line("LinkSpeedEnabled", "linkSpeedEnabled", Formats.HEX),
            line("LinkSpeedActive", "linkSpeedActive", Formats.HEX));

    private IbportstateFormat() {
    }

    /**
     * {@code show_port_info}: {@code # Port info: <dest> port <n>}, then the port's lines.
     *
     * @param extendedSpeeds whether the extended speed lines are shown
     * @param keys           whether the M_Key lines are shown (a CA port, a switch's port 0)
     * @param options        {@code -K}: the M_Key shown or {@code <not displayed>}
     */
    static String port(String dest, int port, SmpPortInfo info, boolean extendedSpeeds, boolean keys, DiagOptions options) {
        StringBuilder out = new StringBuilder("# Port info: ").append(dest).append(" port ").append(port).append('\n');
        out.append(PORT.print(info, options));
        if (extendedSpeeds) {
            out.append(EXTENDED_SPEEDS.print(info, options));
        }
        if (keys) {
            out.append(KEYS.print(info, options));
        }
        return out.toString();
    }

    /** {@code show_mlnx_ext_port_info}: {@code # MLNX ext Port info: <dest> port <n>}, then its four fields. */
    static String mlnxExtended(String dest, int port, SmpMlnxExtendedPortInfo info) {
        return "# MLNX ext Port info: " + dest + " port " + port + "\n" + MLNX_EXT.print(info);
    }
}
