package org.jrdma.tools;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import picocli.CommandLine;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.ISetter;
import picocli.CommandLine.Model.OptionSpec;

/**
 * The infiniband-diags common options a command's own options may take the letters of
 * ({@code ibdiag_common.c}'s table, which each tool narrows with its exclusion string): added to
 * every command with {@link FabricOptions}, each under the names of it the command leaves free, so
 * that iblinkinfo keeps {@code -d} for {@code --down} and gets {@code --debug}:
 * <ul>
 * <li>{@code -s/--sm_port LID}: the SM port the SA queries resolving a GUID destination go to
 *     (default: the SM LID of the local port);</li>
 * <li>{@code -o/--outstanding_smps N}: {@code --max-outstanding} under infiniband-diags' name, on the
 *     commands whose C tools scan the fabric through libibnetdisc and have it ({@link #SCANNERS});</li>
 * <li>{@code -d/--debug}: the MADs sent and received, decoded on standard error ({@code --trace});
 *     libibmad's debug output has no stable form to reproduce.</li>
 * </ul>
 */
final class CommonOptions {
    /** The commands whose C tools take {@code -o/--outstanding_smps}. */
    private static final Set<String> SCANNERS = Set.of("ibnetdiscover", "iblinkinfo", "ibqueryerrors");

    private CommonOptions() {
    }

    /** Adds the common options to {@code command} if it has {@link FabricOptions}, under its free names. */
    static void addTo(CommandLine command) {
        CommandSpec spec = command.getCommandSpec();
        FabricOptions fabric = spec.mixins().values().stream().map(CommandSpec::userObject)
                .filter(FabricOptions.class::isInstance).map(FabricOptions.class::cast).findFirst().orElse(null);
        if (fabric == null) {
            return;
        }
        add(spec, String.class, "<lid>", "SM port lid", setter(value -> fabric.smPortText = (String) value), "-s", "--sm_port");
        if (SCANNERS.contains(spec.name())) {
            add(spec, Integer.class, "<val>", "max outstanding SMPs, as --max-outstanding",
                    setter(value -> fabric.outstandingSmps = (Integer) value), "-o", "--outstanding_smps");
        }
        add(spec, Boolean.class, null, "raise debug level: print every MAD sent and received, decoded, on standard error (as --trace)",
                setter(value -> fabric.trace |= (Boolean) value), "-d", "--debug");
    }

    private static void add(CommandSpec spec, Class<?> type, String label, String description, ISetter setter, String... names) {
        List<String> free = new ArrayList<>();
        for (String name : names) {
            if (!spec.optionsMap().containsKey(name)) {
                free.add(name);
            }
        }
        if (free.isEmpty()) {
            return;
        }
        OptionSpec.Builder option = OptionSpec.builder(free.toArray(String[]::new)).type(type).description(description).setter(setter);
        if (label == null) {
            option.arity("0");
        } else {
            option.paramLabel(label);
        }
        spec.addOption(option.build());
    }

    /** A setter that hands non-null values to {@code target}. */
    private static ISetter setter(java.util.function.Consumer<Object> target) {
        return new ISetter() {
            @Override
            public <T> T set(T value) {
                if (value != null) {
                    target.accept(value);
                }
                return null;
            }
        };
    }
}
