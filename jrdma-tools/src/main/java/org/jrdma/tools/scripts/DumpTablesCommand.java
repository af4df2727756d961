package org.jrdma.tools.scripts;

import java.util.ArrayList;
import java.util.List;
import org.jrdma.tools.DiscoversSubnet;
import org.jrdma.tools.json.JsonOutput;
import picocli.CommandLine.Command;

/**
 * infiniband-diags' {@code dump_lfts} and {@code dump_mfts}: shell scripts that run {@code dump_fts}
 * (with {@code -M} for the multicast tables) with their arguments, then print that they have been
 * replaced by it. As the scripts, each passes dump_fts' output and errors through and exits 0
 * whatever dump_fts' status, the warning being their last command.
 *
 * <p>With {@code --json}: {@link Document}, dump_fts' own document (README, "JSON output") inside.
 */
public abstract sealed class DumpTablesCommand extends ScriptCommand implements DiscoversSubnet permits DumpTablesCommand.Lfts, DumpTablesCommand.Mfts {

    /**
     * dump_lfts' and dump_mfts' JSON document.
     *
     * @param replacedBy the command that replaced the script ({@code dump_fts}, {@code dump_fts -M})
     * @param dumpFts    that command's JSON document for the same arguments (its error document if it failed; absent
     *                   when it wrote none: {@code -h})
     */
    public record Document(String replacedBy, Object dumpFts) {
    }

    /** The options dump_fts runs with before the script's arguments. */
    abstract List<String> options();

    @Override
    protected final int run() {
        List<String> dumpArgs = new ArrayList<>(options());
        dumpArgs.addAll(args);
        String replacement = String.join(" ", dumpArgs.subList(0, options().size()));
        if (json()) {
            dumpArgs.addFirst("--json");
            String dumped = backticks("dump_fts", dumpArgs).text();
            document(new Document("dump_fts" + (replacement.isEmpty() ? "" : " " + replacement),
                    dumped.isBlank() ? null : JsonOutput.document(dumped)));
            return 0;
        }
        out().print(backticks("dump_fts", dumpArgs).text());
        out().print("\n*** WARNING ***: this command has been replaced by dump_fts" + (replacement.isEmpty() ? "" : " " + replacement) + "\n\n\n");
        return 0;
    }

    /** {@code dump_lfts}: every switch's LinearForwardingTable. */
    @Command(name = "dump_lfts", aliases = "dump_lfts.sh", description = "Dump the unicast forwarding tables of every switch (replaced by dump_fts).")
    public static final class Lfts extends DumpTablesCommand {
        @Override
        List<String> options() {
            return List.of();
        }
    }

    /** {@code dump_mfts}: every switch's MulticastForwardingTable. */
    @Command(name = "dump_mfts", aliases = "dump_mfts.sh", description = "Dump the multicast forwarding tables of every switch (replaced by dump_fts -M).")
    public static final class Mfts extends DumpTablesCommand {
        @Override
        List<String> options() {
            return List.of("-M");
        }
    }
}
