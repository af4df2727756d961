package org.jrdma.tools;

import java.util.ArrayList;
import java.util.List;
import picocli.CommandLine.Model.CommandSpec;

/**
 * The name a command was called by, as a script's {@code basename $0} gives it: its name or the
 * alias (a legacy name such as {@code ibprintca.pl}) that stands on ibtool's command line.
 */
public final class CalledName {
    private CalledName() {
    }

    /** The name or alias of {@code spec} that ibtool's command line holds, else its name. */
    public static String of(CommandSpec spec) {
        List<String> names = new ArrayList<>(List.of(spec.aliases()));
        names.add(spec.name());
        CommandSpec ibtool = spec.parent();
        if (ibtool != null && ibtool.commandLine().getParseResult() != null) {
            for (String arg : ibtool.commandLine().getParseResult().originalArgs()) {
                if (names.contains(arg)) {
                    return arg;
                }
            }
        }
        return spec.name();
    }
}
