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
 */
@Command(name = "ibstatus", description = "Show the status of the local InfiniBand ports, from sysfs.")
public final class IbstatusCommand extends ScriptCommand {
    private static final String DEFAULT_DEVICE = "mthca0";

    @Option(names = "--sysfs", paramLabel = "DIR", defaultValue = "/sys",
            description = "read the sysfs tree under DIR instead of /sys (a copy of another machine's, or libumad2sim's)")
    Path sysfs;

    @Override
    int run() {
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
        StringBuilder text = new StringBuilder("Infiniband device '" + device + "' port " + port + " status:\n");
        text.append(line("\tdefault gid:\t", dir.resolve("gids/0"), "unknown"));
        text.append(line("\tbase lid:\t", dir.resolve("lid"), "unknown"));
        text.append(line("\tsm lid:\t\t", dir.resolve("sm_lid"), "unknown"));
        text.append(line("\tstate:\t\t", dir.resolve("state"), "unknown"));
        text.append(line("\tphys state:\t", dir.resolve("phys_state"), "unknown"));
        text.append(line("\trate:\t\t", dir.resolve("rate"), "unknown"));
        text.append(line("\tlink_layer:\t", dir.resolve("link_layer"), "IB"));
        text.append('\n');
        out().print(text);
    }

    /**
     * {@code echo "<label>" `[ -r file ] && cat file || echo <otherwise>`}: the label, then the
     * file's words (or {@code otherwise} when it cannot be read), each after one blank.
     */
    private String line(String label, Path file, String otherwise) {
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
        StringBuilder line = new StringBuilder(label);
        words.forEach(w -> line.append(' ').append(w));
        return line.append('\n').toString();
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
