package org.jrdma.monitor;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.EnumMap;
import java.util.Map;

/**
 * The error thresholds of infiniband-diags' ibqueryerrors, read from the same file
 * ({@code /etc/infiniband-diags/error_thresholds}: lines {@code Name=value}, the name a PortCounters
 * error counter's libibmad name, the value decimal, {@code 0x} hex or {@code 0} octal; {@code #}
 * comments): a port's error counter is reported when it is beyond its threshold, 0 unless the file
 * says otherwise, as ibqueryerrors reports it.
 */
public final class ErrorThresholds {
    /** ibqueryerrors' default thresholds file. */
    public static final Path DEFAULT_FILE = Path.of("/etc/infiniband-diags/error_thresholds");
    /** Every error counter at 0: any error is reported. */
    public static final ErrorThresholds NONE = new ErrorThresholds(Map.of());

    private final Map<PortCounter, Long> values;

    private ErrorThresholds(Map<PortCounter, Long> values) {
        this.values = values;
    }

    /** Reads {@code path}; a file that does not exist gives {@link #NONE}. */
    public static ErrorThresholds read(Path path) {
        String text;
        try {
            text = Files.readString(path, StandardCharsets.ISO_8859_1);
        } catch (NoSuchFileException e) {
            return NONE;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        Map<PortCounter, Long> values = new EnumMap<>(PortCounter.class);
        for (String line : text.split("\n")) {
            String trimmed = line.strip();
            int eq = trimmed.indexOf('=');
            if (trimmed.isEmpty() || trimmed.startsWith("#") || eq < 0) {
                continue;
            }
            String name = trimmed.substring(0, eq).strip();
            for (PortCounter counter : PortCounter.values()) {
                if (counter.kind() == PortCounter.Kind.ERROR && counter.ibmadName().equals(name)) {
                    values.put(counter, parse(trimmed.substring(eq + 1).strip(), path));
                }
            }
        }
        return new ErrorThresholds(Map.copyOf(values));
    }

    private static long parse(String text, Path path) {
        try {
            if (text.startsWith("0x") || text.startsWith("0X")) {
                return Long.parseUnsignedLong(text.substring(2), 16);
            }
            return text.length() > 1 && text.startsWith("0") ? Long.parseUnsignedLong(text.substring(1), 8) : Long.parseUnsignedLong(text);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(path + ": not a threshold: " + text, e);
        }
    }

    /** The threshold of an error counter (0 if the file sets none). */
    long threshold(PortCounter counter) {
        return values.getOrDefault(counter, 0L);
    }

    /** Whether {@code value} of an error counter is beyond its threshold; never for data and traffic counters. */
    boolean exceeded(PortCounter counter, long value) {
        return counter.kind() == PortCounter.Kind.ERROR && Long.compareUnsigned(value, threshold(counter)) > 0;
    }
}
