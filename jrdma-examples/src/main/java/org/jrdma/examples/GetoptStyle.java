package org.jrdma.examples;

import java.util.List;
import picocli.CommandLine.Model.OptionSpec;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.ParseResult;
import picocli.CommandLine.TypeConversionException;
import picocli.CommandLine;

/**
 * picocli set to read a C tool's command line as {@code getopt_long} reads it: short options
 * clustered ({@code -ec}) or with their argument attached ({@code -s64}) or following
 * ({@code -s 64}); long options as {@code --size=64} or {@code --size 64}; operands anywhere; an
 * option given twice keeps its last value; no {@code @file} expansion. Numbers ({@code long}
 * options) are read as {@code strtol(arg, NULL, 0)} reads them: decimal, {@code 0x} hexadecimal
 * or {@code 0} octal.
 *
 * <p>An option the C tool has but the Java one does not implement is declared
 * {@linkplain Unsupported unsupported}: giving it is an error that says so, rather than an
 * unknown option or a silently ignored one.
 */
public final class GetoptStyle {
    private GetoptStyle() {
    }

    /**
     * An option of the C tool that the Java tool refuses.
     *
     * @param longName  the name after {@code --}
     * @param shortName the letter after {@code -}, or 0 for a long option only
     * @param hasArg    whether it takes an argument
     */
    public record Unsupported(String longName, char shortName, boolean hasArg) {
    }

    /**
     * Reads {@code args} into {@code options}, a picocli {@code @Command} object whose fields are
     * the tool's options and operands.
     *
     * @throws UsageException for an unknown or unsupported option, a missing argument or a bad number
     */
    public static void parse(Object options, String[] args, List<Unsupported> unsupported) throws UsageException {
        parse(options, args, unsupported, false);
    }

    /**
     * Reads {@code args} into {@code options} as a C tool reads them whose {@code getopt} loop
     * ends at the first unknown option (rping's): the options before it are read, their setters
     * called in order, and none after it.
     *
     * @throws UsageException for an unknown option, a missing argument or a bad number
     */
    public static void parseUpToUnknown(Object options, String[] args) throws UsageException {
        parse(options, args, List.of(), true);
    }

    private static void parse(Object options, String[] args, List<Unsupported> unsupported, boolean stopAtUnknown) throws UsageException {
        CommandLine line = new CommandLine(options).setOverwrittenOptionsAllowed(true).setExpandAtFiles(false)
                .setStopAtUnmatched(stopAtUnknown)
                .registerConverter(Long.class, GetoptStyle::strtol).registerConverter(long.class, GetoptStyle::strtol);
        for (Unsupported option : unsupported) {
            String longName = "--" + option.longName();
            String[] names = option.shortName() == 0 ? new String[] {longName}
                    : new String[] {"-" + option.shortName(), longName};
            line.getCommandSpec().addOption(OptionSpec.builder(names).arity(option.hasArg() ? "1" : "0")
                    .type(option.hasArg() ? String.class : boolean.class).hidden(true).build());
        }
        try {
            ParseResult result = line.parseArgs(args);
            if (!result.unmatched().isEmpty()) {
                throw new UsageException("Unknown option: '" + result.unmatched().getFirst() + "'");
            }
            for (Unsupported option : unsupported) {
                if (result.hasMatchedOption("--" + option.longName())) {
                    throw new UsageException("option --" + option.longName() + " is not supported by the Java version");
                }
            }
        } catch (ParameterException e) {
            throw new UsageException(e.getMessage());
        }
    }

    /** {@code strtol(text, NULL, 0)}, the whole text being the number. */
    static long strtol(String text) {
        String digits = text.startsWith("-") || text.startsWith("+") ? text.substring(1) : text;
        int radix = 10;
        if (digits.startsWith("0x") || digits.startsWith("0X")) {
            radix = 16;
            digits = digits.substring(2);
        } else if (digits.length() > 1 && digits.startsWith("0")) {
            radix = 8;
        }
        try {
            long value = Long.parseLong(digits, radix);
            return text.startsWith("-") ? -value : value;
        } catch (NumberFormatException e) {
            throw new TypeConversionException("not a number: " + text);
        }
    }
}
