package org.jrdma.tools;

import java.io.IOException;
import java.lang.reflect.Field;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import picocli.CommandLine.IDefaultValueProvider;
import picocli.CommandLine.Model.ArgSpec;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;

/**
 * infiniband-diags' configuration file, {@code /etc/infiniband-diags/ibdiag.conf} by default and
 * {@code -z/--config FILE} on the command line: lines {@code NAME=VALUE} giving the tools' defaults
 * for the port ({@code CA}, {@code Port}), the MAD timeout in ms ({@code timeout}), the M_Key
 * ({@code m_key}) and the SA's SM_Key ({@code sa_key}). Read as {@code ibdiag_common.c} reads it:
 * lines starting with {@code #} and empty ones are skipped, a name counts when it starts with the key
 * ({@code CAx=} sets the CA), the value is the rest of the line as it is (spaces included), numbers
 * are read as C's {@code strtoul(value, NULL, 0)} reads them (decimal, 0x-hex or 0-octal, up to the
 * first character that is not a digit, 0 when there is none), and a missing or unreadable file is
 * no file. A line with nothing after its name (no {@code =}, or nothing after it) is skipped: the C
 * tools crash on it. {@code MLX_EPI} and {@code nd_format} are ibnetdiscover's and are not read here.
 *
 * @param ca      the CA's name, or null
 * @param port    the port number, or null
 * @param timeout the timeout in ms, or null
 * @param mKey    the M_Key, or null
 * @param saKey   the SM_Key for SA requests, or null
 */
record DiagConfig(String ca, Long port, Long timeout, Long mKey, Long saKey) {
    /** Where the C tools read their defaults from. */
    static final Path DEFAULT = Path.of("/etc/infiniband-diags/ibdiag.conf");
    private static final DiagConfig NONE = new DiagConfig(null, null, null, null, null);

    /** The configuration in {@code file}, empty if it cannot be read. */
    static DiagConfig read(Path file) {
        String text;
        try {
            text = Files.readString(file, StandardCharsets.ISO_8859_1);
        } catch (IOException e) {
            return NONE;
        }
        DiagConfig config = NONE;
        for (String line : text.split("\n")) {
            int start = 0;
            while (start < line.length() && line.charAt(start) == '=') {
                start++; // strtok skips the delimiters before the name
            }
            if (line.isEmpty() || line.charAt(0) == '#') {
                continue;
            }
            int equals = line.indexOf('=', start);
            if (equals < 0 || equals + 1 >= line.length()) {
                continue;
            }
            String name = line.substring(start, equals);
            String value = line.substring(equals + 1);
            if (name.startsWith("CA")) {
                config = new DiagConfig(value, config.port, config.timeout, config.mKey, config.saKey);
            } else if (name.startsWith("Port")) {
                config = new DiagConfig(config.ca, CNumbers.strtoul(value) & 0xffff_ffffL, config.timeout, config.mKey, config.saKey);
            } else if (name.startsWith("timeout")) {
                config = new DiagConfig(config.ca, config.port, CNumbers.strtoul(value) & 0xffff_ffffL, config.mKey, config.saKey);
            } else if (name.startsWith("m_key")) {
                config = new DiagConfig(config.ca, config.port, config.timeout, CNumbers.strtoul(value), config.saKey);
            } else if (name.startsWith("sa_key")) {
                config = new DiagConfig(config.ca, config.port, config.timeout, config.mKey, CNumbers.strtoul(value));
            }
        }
        return config;
    }

    /** This configuration with the values {@code over} gives in place of its own, as a second file read after this one. */
    DiagConfig with(DiagConfig over) {
        return new DiagConfig(over.ca != null ? over.ca : ca, over.port != null ? over.port : port,
                over.timeout != null ? over.timeout : timeout, over.mKey != null ? over.mKey : mKey,
                over.saKey != null ? over.saKey : saKey);
    }

    /**
     * picocli's defaults for the {@link FabricOptions} of every command: {@code --Ca}, {@code --Port},
     * {@code --timeout} (a positive one) and {@code --m_key} from the {@link #DEFAULT} file (read
     * once), overridden by the command's {@code -z} file (read once a command line, kept by its
     * {@link FabricOptions#configuration}, where saquery's {@code sa_key} is read too), as the C tools read the default file
     * before their options and {@code -z}'s while reading them. picocli asks for defaults after
     * the options are parsed, for the options not given, so a value given on the command line wins
     * over both files wherever it stands (the C tools let a {@code -z} after {@code -C} replace the CA).
     */
    static IDefaultValueProvider defaults() {
        return new IDefaultValueProvider() {
            private DiagConfig defaults;

            @Override
            public String defaultValue(ArgSpec arg) {
                if (!(arg instanceof OptionSpec option) || !(option.userObject() instanceof Field field)
                        || field.getDeclaringClass() != FabricOptions.class) {
                    return null;
                }
                DiagConfig config = defaultFile();
                for (CommandSpec mixin : arg.command().mixins().values()) {
                    if (mixin.userObject() instanceof FabricOptions fabric) {
                        config = fabric.configuration(this::defaultFile);
                    }
                }
                return switch (option.longestName()) {
                    case "--Ca" -> config.ca;
                    case "--Port" -> config.port == null ? null : Integer.toString(config.port.intValue());
                    case "--timeout" -> config.timeout == null || config.timeout < 1 || config.timeout > Integer.MAX_VALUE
                            ? null : config.timeout.toString();
                    case "--m_key" -> config.mKey == null ? null : Long.toUnsignedString(config.mKey);
                    default -> null;
                };
            }

            private DiagConfig defaultFile() {
                if (defaults == null) {
                    defaults = read(DEFAULT);
                }
                return defaults;
            }
        };
    }
}
