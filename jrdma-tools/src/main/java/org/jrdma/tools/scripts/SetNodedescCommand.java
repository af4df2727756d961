package org.jrdma.tools.scripts;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * rdma-core's deprecated {@code set_nodedesc.sh}: writes a name (by default the host name, or
 * {@code HOSTNAME} of {@code /etc/sysconfig/network}) to the {@code node_desc} file of every RDMA
 * device in sysfs, which the kernel then answers NodeDescription SMPs with; {@code -v} prints each
 * device's node description instead. It warns first that it is deprecated; a device without the
 * file is reported on standard error (the script's {@code logger -s}). {@code -h}: the usage on
 * standard output, status 2.
 *
 * <p>With {@code --json}: {@link Document}.
 */
@Command(name = "set_nodedesc", aliases = {"set_nodedesc.sh"},
        description = "Set (or with -v show) the node description of every local RDMA device (deprecated).")
public final class SetNodedescCommand extends ScriptCommand {
    private static final Path NETWORK = Path.of("/etc/sysconfig/network");

    @Option(names = "--sysfs", paramLabel = "DIR", defaultValue = "/sys", description = "the sysfs tree to use instead of /sys")
    Path sysfs;

    /**
     * set_nodedesc's JSON document.
     *
     * @param nodeDescription the name written (absent with {@code -v})
     * @param devices         every RDMA device, in name order
     */
    public record Document(String nodeDescription, List<Device> devices) {
    }

    /**
     * A device's node description.
     *
     * @param device          the RDMA device ({@code mlx5_0})
     * @param nodeDescription with {@code -v}, its {@code node_desc} file's text; absent if it has none
     * @param ok              whether it has a {@code node_desc} file (the name was written, or read)
     */
    public record Device(String device, String nodeDescription, boolean ok) {
    }

    @Override
    protected int run() throws IOException {
        Path ib = sysfs.resolve("class/infiniband");
        String hostName = hostName();
        out().print("\n*** WARNING ***: this command is deprecated.\n\n");
        int i = 0;
        for (; i < args.size() && args.get(i).startsWith("-") && args.get(i).length() > 1 && !args.get(i).equals("--"); i++) {
            for (char flag : args.get(i).substring(1).toCharArray()) {
                switch (flag) {
                    case 'h' -> {
                        return usage(ib, hostName);
                    }
                    case 'v' -> {
                        return viewAll(ib);
                    }
                    default -> err().print(prog() + ": illegal option -- " + flag + "\n");
                }
            }
        }
        if (i < args.size() && args.get(i).equals("--")) {
            i++;
        }
        String name = i < args.size() && !args.get(i).isEmpty() ? args.get(i) : hostName;
        List<Device> written = new ArrayList<>();
        for (String device : devices(ib)) {
            Path file = ib.resolve(device).resolve("node_desc");
            if (Files.isRegularFile(file)) {
                Files.writeString(file, name, StandardCharsets.UTF_8, StandardOpenOption.APPEND);
                written.add(new Device(device, null, true));
            } else {
                err().print(user() + ": Failed to set node_desc for : " + device + "\n");
                written.add(new Device(device, null, false));
            }
        }
        document(new Document(name, written));
        return 0;
    }

    private int usage(Path ib, String hostName) {
        out().print("Usage: " + prog() + " [-hv] [<name>]\n"
                + "   set the node_desc field of all hca's found in \"" + ib + "\"\n"
                + "   -h this help\n"
                + "   -v view all node descriptors\n"
                + "   [<name>] set name to name specified.\n"
                + "      Default is to use the hostname: \"" + hostName + "\"\n");
        return 2;
    }

    private int viewAll(Path ib) throws IOException {
        List<Device> read = new ArrayList<>();
        for (String device : devices(ib)) {
            Path file = ib.resolve(device).resolve("node_desc");
            if (Files.isRegularFile(file)) {
                String description = Files.readString(file);
                out().print(device + ": " + description);
                read.add(new Device(device, description.replaceFirst("\n$", ""), true));
            } else {
                err().print(user() + ": Failed to set node_desc for : " + device + "\n");
                read.add(new Device(device, null, false));
            }
        }
        document(new Document(null, read));
        return 0;
    }

    /** {@code ls DIR}: the devices, sorted; none (and ls's complaint) when the folder is missing. */
    private List<String> devices(Path ib) throws IOException {
        if (!Files.isDirectory(ib)) {
            err().print("ls: cannot access '" + ib + "': No such file or directory\n");
            return List.of();
        }
        try (Stream<Path> entries = Files.list(ib)) {
            return entries.map(p -> p.getFileName().toString()).filter(n -> !n.startsWith(".")).sorted().toList();
        }
    }

    /** bash's {@code $HOSTNAME}, or the one {@code /etc/sysconfig/network} sets. */
    private static String hostName() throws IOException {
        if (Files.isRegularFile(NETWORK)) {
            for (String line : Files.readAllLines(NETWORK)) {
                if (line.startsWith("HOSTNAME=")) {
                    return line.substring("HOSTNAME=".length()).replaceAll("^[\"']|[\"']$", "");
                }
            }
        }
        return Files.readString(Path.of("/proc/sys/kernel/hostname")).strip();
    }

    /** The tag {@code logger -s} puts before its message: the user's login name. */
    private static String user() {
        return System.getProperty("user.name");
    }
}
