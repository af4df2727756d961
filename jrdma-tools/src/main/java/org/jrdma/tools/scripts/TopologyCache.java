package org.jrdma.tools.scripts;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The ibnetdiscover topology file the perl scripts share through IBswcountlimits.pm:
 * {@code /var/cache/infiniband-diags/ibnetdiscover-<CA>-<PORT>.topology} (CA and PORT those of
 * {@code -C}/{@code -P}, empty when not given), written by running ibnetdiscover, and the switch
 * links read from it ({@code get_link_ends}).
 */
final class TopologyCache {
    /** Where IBswcountlimits keeps its files. */
    static final Path DIR = Path.of("/var/cache/infiniband-diags");

    private static final Pattern SWITCH = Pattern.compile("^Switch.*\"S-(.*)\"\\s+#.*\"(.*)\".* lid (\\d+).*");
    /** A switch port's line: local port, optional local ext port, remote GUID, port, optional ext port, port GUID, description, LID. */
    private static final Pattern LINK = Pattern.compile(
            "^\\[(\\d+)\\](?:\\[ext (\\d+)\\])?\\s+\"[HSR]-(.+)\"\\[(\\d+)\\](?:\\[ext (\\d+)\\])?(\\(.+\\))?\\s+#.*\"(.*)\"\\.* lid (\\d+).*");

    private TopologyCache() {
    }

    /** The cache file of {@code ca} and {@code port} (each empty when not given); creates the folder ({@code ensure_cache_dir}). */
    static Path file(String ca, String port) throws IOException {
        if (!Files.isDirectory(DIR)) {
            Files.createDirectory(DIR, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
        }
        return DIR.resolve("ibnetdiscover-" + ca + "-" + port + ".topology");
    }

    /** Writes the cache file anew from a discovery ({@code generate_ibnetdiscover_topology}). */
    static void generate(ScriptCommand command, String ca, String port) throws IOException {
        Path file = file(ca, port);
        Files.writeString(file, command.backticks("ibnetdiscover", ScriptCommand.caPortArgs(ca, port)).text());
    }

    /** The cache file, written first if {@code regenerate} or if it does not exist yet. */
    static Path ensure(ScriptCommand command, boolean regenerate, String ca, String port) throws IOException {
        Path file = file(ca, port);
        if (regenerate || !Files.isRegularFile(file)) {
            generate(command, ca, port);
        }
        return file;
    }

    /**
     * The links of every switch in the cache file, by switch GUID ({@code 0x} and 16 digits) and
     * local port number as written ({@code get_link_ends}).
     */
    static Map<String, Map<String, LinkEnd>> linkEnds(Path file) throws IOException {
        Map<String, Map<String, LinkEnd>> ends = new HashMap<>();
        String guid = "";
        boolean inSwitch = false;
        for (String line : Files.readAllLines(file)) {
            Matcher sw = SWITCH.matcher(line);
            if (sw.find()) {
                guid = sw.group(1);
                inSwitch = true;
            }
            if (inSwitch) {
                Matcher link = LINK.matcher(line);
                if (link.find()) {
                    String portGuid = link.group(6) == null ? null : link.group(6).replaceFirst("\\((.*)\\)", "$1");
                    ends.computeIfAbsent("0x" + guid, _ -> new HashMap<>()).put(link.group(1),
                            new LinkEnd("0x" + link.group(3), link.group(4), link.group(7), link.group(8), portGuid));
                }
            }
            if (line.startsWith("Ca") || line.startsWith("Rt")) {
                inSwitch = false;
            }
        }
        return ends;
    }

    /**
     * The far end of a switch port's link.
     *
     * @param guid        the remote node's GUID, {@code 0x...}
     * @param port        the remote port number
     * @param description the remote node's description
     * @param lid         the remote port's LID
     * @param portGuid    the remote port GUID, or null when the line has none
     */
    record LinkEnd(String guid, String port, String description, String lid, String portGuid) {
    }

    /** The lines of a file, for the scripts that read one line by line. */
    static List<String> lines(Path file) throws IOException {
        return Files.readAllLines(file);
    }
}
