package org.jrdma.path;

import org.jrdma.iba.UntrustedText;
import java.util.List;
import java.util.Objects;
import java.util.function.Supplier;
import org.jrdma.RdmaException;
import org.jrdma.devices.EndPort;
import org.jrdma.devices.RdmaDevice;
import org.jrdma.devices.SysfsDevices;
import org.jrdma.iba.Gid;
import org.jrdma.iba.Guid;
import org.jrdma.iba.Lid;

/**
 * Reads paths from text, python-rdma's {@code rdma.path.from_string} and
 * {@code from_spec_string} with their {@code default_end_port}, {@code require_dev} and
 * {@code require_ep} options. Immutable; the {@code with...} methods return new parsers. The
 * devices are only listed when the text needs them (a scoped GID, an {@code end_port} name, a GID
 * outside the link-local prefix).
 *
 * <p>Every method is safe on untrusted text (see {@link Path}) and reports bad text with an
 * {@link IllegalArgumentException} that quotes it and says what is wrong.
 */
public final class PathParser {
    private final Supplier<List<RdmaDevice>> devices;
    private final EndPort defaultEndPort;
    private final RdmaDevice requiredDevice;
    private final EndPort requiredEndPort;

    private PathParser(Supplier<List<RdmaDevice>> devices, EndPort defaultEndPort, RdmaDevice requiredDevice,
            EndPort requiredEndPort) {
        this.devices = devices;
        this.defaultEndPort = defaultEndPort;
        this.requiredDevice = requiredDevice;
        this.requiredEndPort = requiredEndPort;
    }

    /** A parser that looks end ports up among this machine's devices, read afresh from sysfs each time. */
    public static PathParser system() {
        return new PathParser(() -> SysfsDevices.system().read(), null, null, null);
    }

    /** A parser that looks end ports up among {@code devices}. */
    public static PathParser of(List<RdmaDevice> devices) {
        List<RdmaDevice> copy = List.copyOf(devices);
        return new PathParser(() -> copy, null, null, null);
    }

    /** This parser, giving {@code endPort} (null for none) to paths the text does not tie to an end port. */
    public PathParser withDefaultEndPort(EndPort endPort) {
        return new PathParser(devices, endPort, requiredDevice, requiredEndPort);
    }

    /**
     * This parser, accepting only paths from an end port of {@code device} (null for any): a
     * scoped GID or {@code end_port} of another device is refused. For text parsed for a resource
     * already bound to a device, such as a verbs context.
     */
    public PathParser withRequiredDevice(RdmaDevice device) {
        return new PathParser(devices, defaultEndPort, device, requiredEndPort);
    }

    /**
     * This parser, accepting only paths from {@code endPort} (null for any), which also becomes
     * the default end port. For text parsed for a resource bound to one port, such as a MAD
     * transport.
     */
    public PathParser withRequiredEndPort(EndPort endPort) {
        return new PathParser(devices, endPort != null ? endPort : defaultEndPort, requiredDevice, endPort);
    }

    /**
     * The path {@code text} describes, in one of these forms:
     * <table>
     *   <caption>Path text forms</caption>
     *   <tr><th>form</th><th>example</th><th>gives</th></tr>
     *   <tr><td>port GID</td><td>{@code fe80::2:c903:0:1491}</td><td>an IBPath with that DGID</td></tr>
     *   <tr><td>scoped GID</td><td>{@code fe80::2:c903:0:1491%mlx4_0/1}</td><td>an IBPath with that DGID
     *       from the end port after {@code %} (any {@link EndPort#select} selector)</td></tr>
     *   <tr><td>port GUID</td><td>{@code 0002:c903:0000:1491}</td><td>an IBPath with DGID
     *       {@code fe80::} + GUID</td></tr>
     *   <tr><td>LID</td><td>{@code 12}</td><td>an IBPath with that DLID</td></tr>
     *   <tr><td>hex LID</td><td>{@code 0xc}</td><td>an IBPath with that DLID</td></tr>
     *   <tr><td>directed route</td><td>{@code 0,1,}</td><td>an IBDRPath with that drPath</td></tr>
     *   <tr><td>path specification</td><td>{@code IBPath(DLID=2,SL=2)}</td><td>that path
     *       ({@link #fromSpecString})</td></tr>
     * </table>
     * The path's end port is the one the text names (a scope, an {@code end_port}, or the end
     * port holding a GID of the same non-link-local subnet prefix), else the default end port.
     * A directed route has 1 to 64 decimal port numbers 0 to 254, the first 0, separated (and
     * optionally ended) by commas; a LID is decimal without leading zeros or {@code 0x} hex, up
     * to 0xFFFF. No blanks anywhere.
     *
     * @throws IllegalArgumentException if the text is none of these forms, is longer than
     *                                  {@link Path#MAX_TEXT_LENGTH}, names an end port that does
     *                                  not exist, or breaks a required device or end port
     */
    public IBPath fromString(String text) {
        checkLength(text);
        if (text.indexOf('(') >= 0) {
            return fromSpecString(text);
        }
        if (text.indexOf(',') >= 0) {
            return IBDRPath.builder(defaultEndPort).drPath(directedRoute(text)).build();
        }
        int percent = text.indexOf('%');
        if (percent >= 0) {
            Gid dgid = parseGid(text, text.substring(0, percent));
            EndPort endPort = lookUp(text, text.substring(percent + 1));
            return IBPath.builder(endPort).dgid(dgid).build();
        }
        if (text.indexOf(':') < 0) {
            try {
                return IBPath.builder(defaultEndPort).dlid(Lid.parse(text)).build();
            } catch (IllegalArgumentException e) {
                throw invalid(text, "not a LID, GID, port GUID, directed route or path specification ("
                        + e.getMessage() + ")");
            }
        }
        if (text.length() == 19 && text.chars().filter(c -> c == ':').count() == 3) {
            try {
                return IBPath.builder(defaultEndPort).dgid(Gid.of(Guid.parse(text))).build();
            } catch (IllegalArgumentException notAGuid) {
                // four colon groups that are not a GUID: try it as a GID below
            }
        }
        Gid dgid = parseGid(text, text);
        return IBPath.builder(endPortForPrefix(dgid)).dgid(dgid).build();
    }

    /**
     * The path of the specification {@code text}, the form {@link IBPath#toString()} writes, for
     * example {@code IBPath(end_port='mlx4_0/1', DLID=2, SL=2)}; python-rdma's
     * {@code from_spec_string}. Without {@code end_port} (or with {@code end_port=None}) the path
     * gets the default end port.
     *
     * @throws IllegalArgumentException if the text is not a valid specification (see
     *                                  {@link Path}), names an end port that does not exist, or
     *                                  breaks a required device or end port
     */
    public IBPath fromSpecString(String text) {
        checkLength(text);
        IBPath path = PathSpec.parse(text, name -> EndPort.select(devices.get(), name));
        if (path.endPort().isEmpty()) {
            return defaultEndPort == null ? path : path.copy(b -> b.endPort(defaultEndPort));
        }
        check(text, path.endPort().get());
        return path;
    }

    /** The ports of a {@code 0,1,} directed route. */
    private static int[] directedRoute(String text) {
        String body = text.endsWith(",") ? text.substring(0, text.length() - 1) : text;
        String[] parts = body.split(",", -1);
        if (parts.length > IBDRPath.MAX_HOPS + 1) {
            throw invalid(text, "a directed route has at most " + (IBDRPath.MAX_HOPS + 1) + " entries");
        }
        int[] ports = new int[parts.length];
        for (int i = 0; i < parts.length; i++) {
            String part = parts[i];
            if (part.isEmpty() || part.length() > 3 || !part.chars().allMatch(c -> c >= '0' && c <= '9')
                    || Integer.parseInt(part) > EndPort.MAX_PORT_NUMBER) {
                throw invalid(text, "directed route entry " + i + " " + UntrustedText.quote(part)
                        + " is not a port number 0 to " + EndPort.MAX_PORT_NUMBER);
            }
            ports[i] = Integer.parseInt(part);
        }
        if (ports[0] != 0) {
            throw invalid(text, "a directed route starts with 0, the local node");
        }
        return ports;
    }

    private static Gid parseGid(String text, String gid) {
        try {
            return Gid.parse(gid);
        } catch (IllegalArgumentException e) {
            throw invalid(text, e.getMessage());
        }
    }

    /** The end port a scope names, checked against the required device and end port. */
    private EndPort lookUp(String text, String selector) {
        EndPort endPort;
        try {
            endPort = EndPort.select(devices.get(), selector);
        } catch (RdmaException | IllegalArgumentException e) {
            throw invalid(text, "could not find end port " + UntrustedText.quote(selector) + ": " + e.getMessage());
        }
        check(text, endPort);
        return endPort;
    }

    /**
     * For a GID outside the link-local prefix: the first end port with a GID of the same subnet
     * prefix (a stand-in for a host routing table, as python-rdma has it); else the default.
     */
    private EndPort endPortForPrefix(Gid dgid) {
        if (dgid.prefix() == Gid.DEFAULT_PREFIX || requiredEndPort != null) {
            return defaultEndPort;
        }
        for (RdmaDevice device : devices.get()) {
            if (requiredDevice != null && !device.name().equals(requiredDevice.name())) {
                continue;
            }
            for (EndPort port : device.endPorts()) {
                for (Gid gid : port.gids()) {
                    if (gid.prefix() == dgid.prefix()) {
                        return port;
                    }
                }
            }
        }
        return defaultEndPort;
    }

    private void check(String text, EndPort endPort) {
        if (requiredDevice != null && !endPort.deviceName().equals(requiredDevice.name())) {
            throw invalid(text, "the path requires device " + requiredDevice.name() + ", got " + endPort);
        }
        if (requiredEndPort != null && !endPort.isSamePort(requiredEndPort)) {
            throw invalid(text, "the path requires end port " + requiredEndPort + ", got " + endPort);
        }
    }

    private static void checkLength(String text) {
        Objects.requireNonNull(text, "text");
        if (text.length() > Path.MAX_TEXT_LENGTH) {
            throw invalid(text, "longer than " + Path.MAX_TEXT_LENGTH + " characters");
        }
    }

    private static IllegalArgumentException invalid(String text, String detail) {
        return new IllegalArgumentException("Invalid path " + UntrustedText.quote(text) + ": " + detail);
    }
}
