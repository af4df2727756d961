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
 *     libibmad's debug output has no stable form to reproduce;</li>
 * <li>python-rdma's {@code --smkey N}, {@code --sa-path PATH} and {@code --int-names}
 *     ({@link PythonRdmaOptions}), on every command that sends MADs (saquery keeps its own
 *     {@code --smkey}, the C tool's, of the same meaning);</li>
 * <li>python-rdma's {@code --discovery LID|DR|SA}, {@code --cache FILE} and {@code --refresh-cache}
 *     ({@link DiscoveryOptions}), on every command that discovers the subnet ({@link DiscoversSubnet};
 *     ibnetdiscover keeps its own {@code --cache}, the C tool's).</li>
 * </ul>
 * The infiniband-diags scripts, which read their own command lines, take python-rdma's options
 * as {@link ForwardedOptions} and hand them to the tools they run.
 */
final class CommonOptions {
    /** The commands whose C tools take {@code -o/--outstanding_smps}. */
    private static final Set<String> SCANNERS = Set.of("ibnetdiscover", "iblinkinfo", "ibqueryerrors");

    private CommonOptions() {
    }

    /**
     * Adds the common options to {@code command} if it has {@link FabricOptions}, under its free
     * names; to a script with {@link ForwardedOptions} that discovers the subnet, the discovery options.
     */
    static void addTo(CommandLine command) {
        CommandSpec spec = command.getCommandSpec();
        boolean discovers = command.getCommand() instanceof DiscoversSubnet;
        ForwardedOptions forwarded = mixin(spec, ForwardedOptions.class);
        if (forwarded != null && discovers) {
            addDiscovery(spec, forwarded.discovery);
        }
        FabricOptions fabric = mixin(spec, FabricOptions.class);
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
        PythonRdmaOptions python = fabric.python;
        add(spec, Long.class, text -> FabricOptions.MKeyConverter.key(text, "SM_Key"), "N",
                "the SM_Key of the SA MADs, decimal or 0x-hex (python-rdma's SAFormat.SMKey; default 0, untrusted)",
                setter(value -> python.smKey = (Long) value), "--smkey");
        add(spec, String.class, "PATH", "the path of the SA MADs, a path string (a LID, a GID, IBPath(...)); implies --sa where the "
                + "command has it, and --discovery SA", setter(value -> python.saPath = (String) value), "--sa-path");
        add(spec, Boolean.class, null, "print IBA structures' fields by their IBA names (python-rdma's internal names) where the "
                + "command prints a decoded structure; taken without effect elsewhere", setter(value -> python.intNames |= (Boolean) value),
                "--int-names");
        if (discovers) {
            addDiscovery(spec, fabric.discovery);
        }
    }

    /** The user object of {@code spec}'s mixin of {@code type}, or null. */
    private static <T> T mixin(CommandSpec spec, Class<T> type) {
        return spec.mixins().values().stream().map(CommandSpec::userObject).filter(type::isInstance).map(type::cast).findFirst().orElse(null);
    }

    /** Adds python-rdma's discovery options, under the names the command leaves free, setting {@code discovery}. */
    private static void addDiscovery(CommandSpec spec, DiscoveryOptions discovery) {
        add(spec, String.class, "{LID|DR|SA}", "how to discover the whole subnet: DR by directed-route SMPs (the default), LID each node "
                + "read by LID-routed SMPs once a directed-route hop found it, SA from the subnet administrator's records (a scan the "
                + "C tool's options narrow stays the C tool's)",
                setter(value -> discovery.mode = (String) value), "--discovery");
        add(spec, java.nio.file.Path.class, "FILE", "read the subnet from FILE (a libibnetdisc cache) if it exists instead of "
                + "discovering it, else write the discovered subnet there", setter(value -> discovery.cache = (java.nio.file.Path) value),
                "--cache");
        add(spec, Boolean.class, null, "discover the subnet even if the --cache file exists, and rewrite it",
                setter(value -> discovery.refresh |= (Boolean) value), "--refresh-cache");
    }

    private static void add(CommandSpec spec, Class<?> type, String label, String description, ISetter setter, String... names) {
        add(spec, type, null, label, description, setter, names);
    }

    private static void add(CommandSpec spec, Class<?> type, CommandLine.ITypeConverter<?> converter, String label, String description,
            ISetter setter, String... names) {
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
        if (converter != null) {
            option.converters(converter);
        }
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
