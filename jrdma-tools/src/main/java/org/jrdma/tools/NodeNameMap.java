package org.jrdma.tools;

import java.io.IOException;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.jrdma.iba.Guid;

/**
 * An infiniband-diags node name map: names to print instead of the NodeDescription of nodes,
 * keyed by node GUID (rdma-core's {@code util/node_name_map.c}). One entry a line: a GUID as C's
 * {@code strtoull} reads it ({@code 0x} hex, a leading {@code 0} octal, else decimal), blanks, and
 * the name, normally in double quotes; the name ends at the next {@code "} or {@code #}, so a
 * comment may follow. Blank lines and lines starting with {@code #} are skipped; the first entry
 * of a GUID wins; a GUID without a name adds nothing.
 *
 * <p>Where the C tools warn about a line they cannot read and go on without any map, this one
 * refuses the file and says which line is wrong.
 */
public final class NodeNameMap {
    /** The map the C tools read when given none ({@code IBDIAG_NODENAME_MAP_PATH}), if it exists. */
    static final Path DEFAULT = Path.of("/etc/rdma/ib-node-name-map");
    /** The map without entries. */
    static final NodeNameMap EMPTY = new NodeNameMap(Map.of());

    private final Map<Long, String> names;

    private NodeNameMap(Map<Long, String> names) {
        this.names = Map.copyOf(names);
    }

    /**
     * The map in {@code file}, or with {@code file} null the {@link #DEFAULT} one if it exists,
     * else the empty map.
     *
     * @throws UsageException if the file cannot be read or holds a line that is not an entry,
     *                        naming the file and line
     */
    static NodeNameMap open(Path file) {
        if (file == null) {
            return Files.isReadable(DEFAULT) ? read(DEFAULT) : EMPTY;
        }
        return read(file);
    }

    /** The map in {@code file}; see {@link #open}. */
    static NodeNameMap read(Path file) {
        List<String> lines;
        try {
            lines = Files.readAllLines(file, StandardCharsets.ISO_8859_1);
        } catch (IOException e) {
            throw new UsageException("cannot read node name map " + file + ": " + e.getMessage());
        }
        Map<Long, String> names = new HashMap<>();
        for (int i = 0; i < lines.size(); i++) {
            String line = lines.get(i).stripLeading();
            if (line.isEmpty() || line.charAt(0) == '#') {
                continue;
            }
            int end = 0;
            while (end < line.length() && !Character.isWhitespace(line.charAt(end)) && line.charAt(end) != '#') {
                end++;
            }
            long guid = guid(line.substring(0, end), file, i + 1);
            String name = name(line.substring(end));
            if (name != null) {
                names.putIfAbsent(guid, name);
            }
        }
        return new NodeNameMap(names);
    }

    /** The name for the node with GUID {@code nodeGuid}: the map's, else {@code description}. */
    public String name(Guid nodeGuid, String description) {
        return names.getOrDefault(nodeGuid.value(), description);
    }

    /** Whether the map has no entries. */
    boolean isEmpty() {
        return names.isEmpty();
    }

    private static long guid(String text, Path file, int line) {
        try {
            BigInteger value;
            if (text.startsWith("0x") || text.startsWith("0X")) {
                value = new BigInteger(text.substring(2), 16);
            } else if (text.length() > 1 && text.startsWith("0")) {
                value = new BigInteger(text.substring(1), 8);
            } else {
                value = new BigInteger(text);
            }
            if (value.signum() < 0 || value.bitLength() > 64) {
                throw new NumberFormatException("more than 64 bits");
            }
            return value.longValue();
        } catch (NumberFormatException e) {
            throw new UsageException("node name map " + file + ":" + line + ": \"" + text
                    + "\" is not a GUID (expected a GUID, then the node's name in double quotes)");
        }
    }

    /** The name of the rest of an entry line: skip blanks, {@code "} and {@code #}, then up to the next {@code "} or {@code #}. */
    private static String name(String rest) {
        String text = rest.stripLeading();
        int start = 0;
        while (start < text.length() && (text.charAt(start) == '"' || text.charAt(start) == '#')) {
            start++;
        }
        int end = start;
        while (end < text.length() && text.charAt(end) != '"' && text.charAt(end) != '#') {
            end++;
        }
        return end > start ? text.substring(start, end) : null;
    }
}
