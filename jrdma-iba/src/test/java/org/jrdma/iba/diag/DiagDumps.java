package org.jrdma.iba.diag;

import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.io.ByteArrayOutputStream;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.regex.Pattern;
import org.jrdma.testkit.fabric.Fabric;
import org.jrdma.testkit.fabric.ToolResult;

/**
 * Raw bytes from the C tools on a simulated fabric: {@code smpdump}'s hex dump of an SMP
 * attribute, and the MADs that perfquery and saquery dump with {@code -d -d} (libibmad's
 * {@code xdump}: lines of up to eight groups of four hex digits).
 */
final class DiagDumps {
    private static final Pattern HEX_LINE = Pattern.compile("^(?:[0-9a-f]{2,4} ?){1,8}$");

    private DiagDumps() {
    }

    /**
     * {@code smpdump [-D] <dest> <attr> <modifier>}: the 64 bytes of attribute data.
     *
     * @param dest a LID, or a directed route such as {@code 0,1} when {@code directed}
     */
    static byte[] smpdump(Fabric fabric, boolean directed, String dest, int attribute, int modifier) {
        List<String> command = new ArrayList<>(List.of("smpdump"));
        if (directed) {
            command.add("-D");
        }
        command.addAll(List.of(dest, "0x" + Integer.toHexString(attribute), "0x" + Integer.toHexString(modifier)));
        ToolResult r = fabric.run(command.toArray(String[]::new)).orThrow();
        List<String> hex = new ArrayList<>();
        for (String line : r.stdout().lines().toList()) {
            if (HEX_LINE.matcher(line).matches()) {
                hex.add(line);
            } else if (line.startsWith("SMP status: ")) {
                // Directed-route answers carry the D bit (0x8000) in their status; anything else is an error.
                int status = Integer.parseInt(line.substring("SMP status: 0x".length()), 16);
                if ((status & 0x7fff) != 0) {
                    fail(command + " answered with status 0x" + Integer.toHexString(status) + "\n" + r.stdout());
                }
            } else if (!line.isEmpty()) {
                fail("unexpected smpdump line: " + line);
            }
        }
        byte[] data = hexBytes(hex);
        assertTrue(data.length == 64, () -> command + " printed " + data.length + " bytes, not 64:\n" + r.stdout());
        return data;
    }

    /** The hex dumps that follow each line equal to {@code marker}, in order. */
    static List<byte[]> blocksAfter(String text, String marker) {
        List<byte[]> blocks = new ArrayList<>();
        List<String> lines = text.lines().toList();
        for (int i = 0; i < lines.size(); i++) {
            if (lines.get(i).equals(marker)) {
                List<String> hex = new ArrayList<>();
                for (int j = i + 1; j < lines.size() && HEX_LINE.matcher(lines.get(j)).matches(); j++) {
                    hex.add(lines.get(j));
                }
                blocks.add(hexBytes(hex));
            }
        }
        return blocks;
    }

    /**
     * The text of {@code stdout} without the {@code marker} lines and the hex dumps following
     * them (saquery writes its {@code -d -d} dumps to standard output, before its records).
     */
    static String withoutBlocks(String stdout, String... markers) {
        StringBuilder out = new StringBuilder();
        boolean inBlock = false;
        for (String line : stdout.split("\n", -1)) {
            if (List.of(markers).contains(line)) {
                inBlock = true;
                continue;
            }
            if (inBlock && HEX_LINE.matcher(line).matches()) {
                continue;
            }
            inBlock = false;
            out.append(line).append('\n');
        }
        out.setLength(out.length() - 1);
        return out.toString();
    }

    static byte[] hexBytes(List<String> lines) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        for (String line : lines) {
            out.writeBytes(HexFormat.of().parseHex(line.replace(" ", "")));
        }
        return out.toByteArray();
    }
}
