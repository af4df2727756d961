package org.jrdma.tools;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;

/**
 * The error thresholds of ibqueryerrors: for each PortCounters error counter (by its libibmad name,
 * {@code SymbolErrorCounter}, ..., {@code PortXmitWait}) the value a port's counter must exceed to be
 * reported; 0 (report any error) unless the thresholds file says otherwise. The file has lines
 * {@code Name=value} (value read as C's {@code strtoul} with base 0 reads it: decimal, 0x-hex or
 * 0-octal, up to the first character that is not a digit); blank lines, lines starting with
 * {@code #} and unknown names are ignored. A line without {@code =} sets its name to 0 (the C tool
 * crashes there).
 *
 * @param file        whether the thresholds file could be read; the C tool's summary then says
 *                    {@code Thresholds: } and the settings, otherwise {@code (null)}
 * @param values      the threshold of each named counter; absent means 0
 * @param description the settings as the summary prints them, {@code [Name = value]} in file order
 */
public record ErrorThresholds(boolean file, Map<String, Long> values, String description) {
    /** The C tool's default thresholds file. */
    static final Path DEFAULT_FILE = Path.of("/etc/infiniband-diags/error_thresholds");

    /** Reads {@code path}; a file that does not exist (or cannot be read) gives no thresholds. */
    public static ErrorThresholds read(Path path, Iterable<String> counterNames) {
        String text;
        try {
            text = Files.readString(path, StandardCharsets.ISO_8859_1);
        } catch (NoSuchFileException e) {
            return new ErrorThresholds(false, Map.of(), "");
        } catch (IOException e) {
            if (!Files.isReadable(path)) {
                return new ErrorThresholds(false, Map.of(), "");
            }
            throw new UncheckedIOException(e);
        }
        Map<String, Long> values = new HashMap<>();
        StringBuilder description = new StringBuilder();
        for (String line : text.split("\n")) {
            if (line.isEmpty() || line.startsWith("#")) {
                continue;
            }
            int eq = line.indexOf('=');
            String name = eq < 0 ? line : line.substring(0, eq);
            long value = eq < 0 ? 0 : CNumbers.strtoul(line.substring(eq + 1));
            for (String counter : counterNames) {
                if (counter.equals(name)) {
                    values.put(name, value);
                    description.append('[').append(name).append(" = ").append(Long.toUnsignedString(value)).append(']');
                }
            }
        }
        return new ErrorThresholds(true, Map.copyOf(values), description.toString());
    }

    /** Whether {@code value} of counter {@code name} is beyond its threshold (unsigned, as the C tool compares). */
    boolean exceeded(String name, long value) {
        return Long.compareUnsigned(value, values.getOrDefault(name, 0L)) > 0;
    }

    /** The summary's threshold line after {@code ## }. */
    String summary() {
        return file ? "Thresholds: " + description : "(null)";
    }
}
