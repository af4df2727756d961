package org.jrdma.examples;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The command line of a C tool as {@code getopt_long} reads it: short options, clustered
 * ({@code -ec}) or with their argument attached ({@code -s64}) or following ({@code -s 64});
 * long options as {@code --size=64} or {@code --size 64}; operands anywhere. Numbers are read as
 * {@code strtol(arg, NULL, 0)} reads them: decimal, {@code 0x} hexadecimal or {@code 0} octal.
 *
 * <p>An option the C tool has but the Java one does not implement is declared
 * {@linkplain Option#unsupported unsupported}: giving it is an error that says so, rather than
 * an unknown option or a silently ignored one.
 */
final class CommandLine {
    /**
     * One option.
     *
     * @param longName  the name after {@code --}
     * @param shortName the letter after {@code -}, or 0 for a long option only
     * @param hasArg    whether it takes an argument
     * @param supported whether the Java tool implements it
     */
    record Option(String longName, char shortName, boolean hasArg, boolean supported) {
        /** An implemented option. */
        static Option of(String longName, char shortName, boolean hasArg) {
            return new Option(longName, shortName, hasArg, true);
        }

        /** An option of the C tool that the Java tool refuses. */
        static Option unsupported(String longName, char shortName, boolean hasArg) {
            return new Option(longName, shortName, hasArg, false);
        }
    }

    /** A command line that cannot be used; the message says why. */
    static final class UsageException extends Exception {
        private static final long serialVersionUID = 1L;

        UsageException(String message) {
            super(message);
        }
    }

    private final Map<String, String> values;
    private final List<String> operands;

    private CommandLine(Map<String, String> values, List<String> operands) {
        this.values = values;
        this.operands = operands;
    }

    /**
     * Reads {@code args} against {@code options}.
     *
     * @throws UsageException for an unknown or unsupported option or a missing argument
     */
    static CommandLine parse(String[] args, List<Option> options) throws UsageException {
        Map<String, Option> byLong = new HashMap<>();
        Map<Character, Option> byShort = new HashMap<>();
        for (Option option : options) {
            byLong.put(option.longName(), option);
            if (option.shortName() != 0) {
                byShort.put(option.shortName(), option);
            }
        }
        Map<String, String> values = new HashMap<>();
        List<String> operands = new ArrayList<>();
        for (int i = 0; i < args.length; i++) {
            String arg = args[i];
            if (arg.equals("--")) {
                operands.addAll(List.of(args).subList(i + 1, args.length));
                break;
            } else if (arg.startsWith("--")) {
                int eq = arg.indexOf('=');
                String name = eq < 0 ? arg.substring(2) : arg.substring(2, eq);
                Option option = known(byLong.get(name), arg);
                String value = null;
                if (option.hasArg()) {
                    value = eq >= 0 ? arg.substring(eq + 1) : argument(args, ++i, arg);
                } else if (eq >= 0) {
                    throw new UsageException("option '--" + name + "' doesn't allow an argument");
                }
                values.put(name, value);
            } else if (arg.length() > 1 && arg.charAt(0) == '-') {
                for (int j = 1; j < arg.length(); j++) {
                    Option option = known(byShort.get(arg.charAt(j)), "-" + arg.charAt(j));
                    String value = null;
                    if (option.hasArg()) {
                        value = j + 1 < arg.length() ? arg.substring(j + 1) : argument(args, ++i, arg);
                        j = arg.length();
                    }
                    values.put(option.longName(), value);
                }
            } else {
                operands.add(arg);
            }
        }
        return new CommandLine(values, List.copyOf(operands));
    }

    private static Option known(Option option, String given) throws UsageException {
        if (option == null) {
            throw new UsageException("unrecognized option '" + given + "'");
        }
        if (!option.supported()) {
            throw new UsageException("option --" + option.longName() + " is not supported by the Java version");
        }
        return option;
    }

    private static String argument(String[] args, int index, String option) throws UsageException {
        if (index >= args.length) {
            throw new UsageException("option '" + option + "' requires an argument");
        }
        return args[index];
    }

    /** Whether option {@code longName} was given. */
    boolean has(String longName) {
        return values.containsKey(longName);
    }

    /** The argument of option {@code longName}, or {@code otherwise} when it was not given. */
    String string(String longName, String otherwise) {
        return values.getOrDefault(longName, otherwise);
    }

    /**
     * The argument of option {@code longName} as {@code strtol(arg, NULL, 0)} reads it, or
     * {@code otherwise} when it was not given.
     *
     * @throws UsageException if the argument is not a number
     */
    long number(String longName, long otherwise) throws UsageException {
        String text = values.get(longName);
        if (text == null) {
            return otherwise;
        }
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
            throw new UsageException("option --" + longName + ": not a number: " + text);
        }
    }

    /** The operands: what is not an option or an option's argument. */
    List<String> operands() {
        return operands;
    }
}
