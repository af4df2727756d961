package org.jrdma.tools.scripts;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Stream;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * infiniband-diags' {@code ibstatus}: the status of the local RDMA ports as the kernel's sysfs tree
 * ({@code /sys/class/infiniband/<device>/ports/<n>/}) has it, each file's text as the script's
 * {@code echo `cat file`} prints it (words joined by one blank; {@code unknown} for a file it cannot
 * read, {@code IB} for a missing {@code link_layer}). Arguments {@code device} or
 * {@code device:port}; none for every port of every device; {@code -h} (as the first argument
 * only) prints the usage. A device without a {@code ports} folder, or no devices at all, is the
 * script's {@code Fatal error:} on standard output, status 255.
 *
 * <p>With {@code --json}: {@link Document}, the ports in the text's order.
 */
@Command(name = "ibstatus", description = "Show the status of the local InfiniBand ports, from sysfs.")
public final class IbstatusCommand extends ScriptCommand {
    private static final String DEFAULT_DEVICE = "mthca0";

    @Option(names = "--sysfs", paramLabel = "DIR", defaultValue = "/sys",
            description = "read the sysfs tree under DIR instead of /sys (a copy of another machine's, or libumad2sim's)")
    Path sysfs;

    /** With {@code --json}: the ports shown, in order. */
    private final List<PortStatus> ports = new ArrayList<>();

    /**
     * ibstatus' JSON document.
     *
     * @param ports every port shown, in the text's order
     */
    public record Document(List<PortStatus> ports) {
    }

    /**
     * One port's status: each value the text of its sysfs file (words joined by one blank), or what
     * the text shows when the file cannot be read ({@code unknown}, {@code IB} for the link layer).
     *
     * @param device        the RDMA device ({@code mlx5_0})
     * @param portNum       the port number, as the folder is named
     * @param defaultGid    {@code gids/0}, GID index 0
     * @param baseLid       {@code lid}, the port's base LID ({@code 0x1})
     * @param smLid         {@code sm_lid}, the master SM's LID
     * @param state         {@code state}, PortState ({@code 4: ACTIVE})
     * @param physState     {@code phys_state}, PortPhysicalState ({@code 5: LinkUp})
     * @param rate          {@code rate} ({@code 40 Gb/sec (4X QDR)})
     * @param linkLayer     {@code link_layer} ({@code InfiniBand}, {@code Ethernet})
     */
    public record PortStatus(String device, String portNum, String defaultGid, String baseLid, String smLid, String state, String physState,
            String rate, String linkLayer) {
    }

    @Override
    protected int run() {
        Path base = sysfs.resolve("class/infiniband");
        if (!args.isEmpty() && args.getFirst().equals("-h")) {
            String prog = prog();
            out().print("Usage:  " + prog + "  [-h] [devname[:portnum]]\n"
                    + "\t-h:\tthis help screen\n"
                    + "\tExamples:\n"
                    + "\t\t" + prog + " mthca1\t\t# shows status of all ports of 'mthca1'\n"
                    + "\t\t" + prog + " mthca0:2\t# shows status port number 2 of 'mthca0'\n"
                    + "\t\t" + prog + "\t\t# default: shows status of all '" + DEFAULT_DEVICE + "' ports\n");
            return 255;
        }
        try {
            if (args.isEmpty() || args.getFirst().isEmpty()) {
                if (!Files.isDirectory(base)) {
                    return fatal("No devices");
                }
                for (String device : glob(base)) {
                    deviceStatus(base, device, null);
                }
                document(new Document(ports));
                return 0;
            }
            for (String arg : args) {
                if (arg.isEmpty()) {
                    break;
                }
                int first = arg.indexOf(':');
                String device = first < 0 ? arg : arg.substring(0, first);
                String port = first < 0 ? null : arg.substring(arg.lastIndexOf(':') + 1);
                deviceStatus(base, device, port);
            }
            document(new Document(ports));
            return 0;
        } catch (Fatal e) {
            return fatal(e.getMessage());
        }
    }

    /** The status of {@code port} of {@code device}, or of all its ports when null ({@code ib_status}). */
    private void deviceStatus(Path base, String device, String port) {
        Path ports = base.resolve(device).resolve("ports");
        if (!Files.isDirectory(ports)) {
            throw new Fatal("device '" + device + "': sys files not found (" + ports + ")");
        }
        for (String number : port == null ? glob(ports) : List.of(port)) {
            portStatus(base, device, number);
        }
    }

    private void portStatus(Path base, String device, String port) {
        Path dir = base.resolve(device).resolve("ports").resolve(port);
        String gid = value(dir.resolve("gids/0"), "unknown");
        String lid = value(dir.resolve("lid"), "unknown");
        String smLid = value(dir.resolve("sm_lid"), "unknown");
        String state = value(dir.resolve("state"), "unknown");
        String physState = value(dir.resolve("phys_state"), "unknown");
        String rate = value(dir.resolve("rate"), "unknown");
        String linkLayer = value(dir.resolve("link_layer"), "IB");
        ports.add(new PortStatus(device, port, gid, lid, smLid, state, physState, rate, linkLayer));
        out().print("Infiniband device '" + device + "' port " + port + " status:\n"
                + line("\tdefault gid:\t", gid) + line("\tbase lid:\t", lid) + line("\tsm lid:\t\t", smLid)
                + line("\tstate:\t\t", state) + line("\tphys state:\t", physState) + line("\trate:\t\t", rate)
                + line("\tlink_layer:\t", linkLayer) + "\n");
    }

    /**
     * {@code `[ -r file ] && cat file || echo <otherwise>`} as {@code echo "<label>"} prints it after
     * its label and a blank: the file's words joined by one blank (or {@code otherwise} when it
     * cannot be read).
     */
    private String value(Path file, String otherwise) {
        List<String> words = new ArrayList<>();
        if (Files.isReadable(file)) {
            try {
                words.addAll(words(Files.readString(file)));
            } catch (IOException e) {
                err().print("cat: " + file + ": " + e.getMessage() + "\n");
                words.add(otherwise);
            }
        } else {
            words.add(otherwise);
        }
        return String.join(" ", words);
    }

    /** {@code echo "<label>" <value>}: the label, then the value's words after one blank (none for an empty value). */
    private static String line(String label, String value) {
        return (value.isEmpty() ? label : label + " " + value) + "\n";
    }

    private static List<String> words(String text) {
        return Arrays.stream(text.split("[ \t\n]+")).filter(w -> !w.isEmpty()).toList();
    }

    /** The shell's {@code *} in {@code dir}: the names not starting with a dot, sorted; {@code *} itself when there are none. */
    private static List<String> glob(Path dir) {
        try (Stream<Path> entries = Files.list(dir)) {
            List<String> names = entries.map(p -> p.getFileName().toString()).filter(n -> !n.startsWith(".")).sorted().toList();
            return names.isEmpty() ? List.of("*") : names;
        } catch (IOException e) {
            return List.of("*");
        }
    }

    /** The script's {@code fatal}: {@code echo "Fatal error: " $*}, status 255. */
    private int fatal(String message) {
        out().print("Fatal error:  " + String.join(" ", words(message)) + "\n");
        return 255;
    }

    /** The script's {@code fatal} from inside a loop. */
    private static final class Fatal extends RuntimeException {
        private static final long serialVersionUID = 1L;

        Fatal(String message) {
            super(message);
        }
    }
}
