package org.jrdma.tools;

import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

/**
 * {@code ibtool}: the jrdma command line, one subcommand per infiniband-diags style tool. Without a
 * subcommand it prints the list of subcommands.
 */
@Command(name = "ibtool", mixinStandardHelpOptions = true, version = "jrdma ibtool 0.1.0",
        description = "InfiniBand diagnostics and fabric tools built on jrdma.")
public final class Ibtool implements Callable<Integer> {
    @Spec
    private CommandSpec spec;

    @Override
    public Integer call() {
        spec.commandLine().usage(spec.commandLine().getOut());
        return 0;
    }

    public static void main(String[] args) {
        System.exit(new CommandLine(new Ibtool()).execute(args));
    }
}
