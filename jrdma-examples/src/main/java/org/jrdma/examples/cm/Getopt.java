package org.jrdma.examples.cm;

/**
 * POSIX {@code getopt} over {@code args} with {@code opterr} 0, in GNU's order: operands are
 * skipped, {@code --} ends the options; an unknown option or a missing argument is {@code '?'}.
 */
final class Getopt {
    private final String[] args;
    private final String spec;
    private int index;
    private int at = 1;
    String optarg;

    Getopt(String[] args, String spec) {
        this.args = args;
        this.spec = spec;
    }

    int next() {
        optarg = null;
        while (index < args.length && (at == 1 && (!args[index].startsWith("-") || args[index].equals("-")))) {
            index++;
        }
        if (index >= args.length || (at == 1 && args[index].equals("--"))) {
            return -1;
        }
        String arg = args[index];
        char c = arg.charAt(at++);
        int found = c == ':' ? -1 : spec.indexOf(c);
        boolean needsArg = found >= 0 && found + 1 < spec.length() && spec.charAt(found + 1) == ':';
        if (needsArg) {
            if (at < arg.length()) {
                optarg = arg.substring(at);
            } else if (index + 1 < args.length) {
                optarg = args[++index];
            } else {
                advance();
                return '?';
            }
            advance();
            return c;
        }
        if (at >= arg.length()) {
            advance();
        }
        return found < 0 ? '?' : c;
    }

    private void advance() {
        index++;
        at = 1;
    }
}
