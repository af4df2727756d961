package org.jrdma.tools;

import java.util.Arrays;
import java.util.List;
import java.util.function.Supplier;
import org.jrdma.iba.sa.SaNodeRecord;

/**
 * How saquery reads the LID part of its arguments ({@code get_lid}): a word starting with a letter
 * is a node's description, looked up in the SA's NodeRecords (none: {@code Failed to find lid for
 * "<name>": Machine is not on the network}, status ENONET); anything else a number as C's
 * {@code strtol} reads it, 1..65535 (else {@code Invalid lid specified: "<text>"}, status EINVAL).
 * Then {@code parse_lid_and_ports}: {@code lid[/n1[/n2]]}, a number that is absent or not one being -1.
 */
final class SaqueryLids {
    /** errno EINVAL, saquery's status for a bad LID or GID argument. */
    static final int EINVAL = 22;
    /** errno ENONET, saquery's status for a node name no NodeRecord has. */
    static final int ENONET = 64;
    /** The size of NodeDescription, the most saquery's {@code strncmp} compares. */
    private static final int DESCRIPTION_BYTES = 64;

    private final Supplier<List<SaNodeRecord>> nodes;
    private long lid;
    private final long[] parts = {-1, -1, -1};

    /** @param nodes the SA's NodeRecords, asked for when a name is to be looked up */
    SaqueryLids(Supplier<List<SaNodeRecord>> nodes) {
        this.nodes = nodes;
    }

    /** {@code get_lid}: the LID a name or number argument stands for. */
    int lid(String name) {
        if (!name.isEmpty() && Character.isLetter(name.charAt(0)) && name.charAt(0) < 0x80) {
            List<SaNodeRecord> records;
            try {
                records = nodes.get();
            } catch (DiagError e) {
                throw e.stderrLine("Failed to find lid for \"" + name + "\": " + strerror(e.status()));
            }
            for (SaNodeRecord record : records) {
                if (sameName(name, record.nodeDescription().nodeString())) {
                    return record.lid();
                }
            }
            throw DiagError.stderr("Failed to find lid for \"" + name + "\": Machine is not on the network", ENONET, null);
        }
        long value = CNumbers.strtoul(name);
        if (value <= 0 || value > 0xffff) {
            throw DiagError.stderr("Invalid lid specified: \"" + name + "\"", EINVAL, null);
        }
        return (int) value;
    }

    /** glibc's {@code strerror} of the statuses an SA query ends with. */
    private static String strerror(int errno) {
        return switch (errno) {
            case SaHandle.EIO -> "Input/output error";
            case SaHandle.ETIMEDOUT -> "Connection timed out";
            default -> "Unknown error " + errno;
        };
    }

    /** saquery's {@code strncmp(name, description, 64) == 0}. */
    static boolean sameName(String name, String description) {
        return cut(name).equals(cut(description));
    }

    private static String cut(String s) {
        return s.length() > DESCRIPTION_BYTES ? s.substring(0, DESCRIPTION_BYTES) : s;
    }

    /** {@code parse_lid_and_ports} of {@code args.get(index)}, or LID 0 and no numbers if there is no such argument. */
    void parse(List<String> args, int index) {
        lid = 0;
        Arrays.fill(parts, -1);
        if (index >= args.size()) {
            return;
        }
        String[] fields = args.get(index).split("/", 3);
        lid = lid(fields[0]);
        for (int i = 1; i < fields.length; i++) {
            parts[i] = SaqueryParams.strtoulOrNone(fields[i]);
        }
    }

    /** The LID of the last {@link #parse}. */
    long lid() {
        return lid;
    }

    /** The {@code n}th number (1 or 2) after the LID of the last {@link #parse}, -1 if none. */
    long part(int n) {
        return parts[n];
    }
}
