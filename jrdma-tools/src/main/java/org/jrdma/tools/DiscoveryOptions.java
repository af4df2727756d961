package org.jrdma.tools;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Supplier;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.jrdma.devices.EndPort;
import org.jrdma.mad.MadTransactor;
import org.jrdma.mad.SmpClient;
import org.jrdma.subnet.Subnet;
import org.jrdma.subnet.SubnetCache;
import org.jrdma.subnet.SubnetCacheException;
import org.jrdma.subnet.SubnetDiscovery;

/**
 * python-rdma's discovery options ({@code LibIBOpts.setup(discovery=True)}): how a command that
 * needs the whole subnet gets it. Every command that discovers the subnet has them ({@link CommonOptions}
 * adds them, held by its {@link FabricOptions}, under the names the command leaves free):
 * {@code --discovery DR} walks it by directed-route SMPs (the default, the C tools' way),
 * {@code --discovery LID} finds each node by a directed-route hop and reads it by LID-routed SMPs,
 * {@code --discovery SA} reads it from the subnet administrator's records (implied by {@code --sa}
 * and {@code --sa-path}); {@code --cache FILE} keeps it between runs: a FILE that exists is read
 * instead of discovering (unless {@code --refresh-cache}), and a discovery is written there. The
 * file is libibnetdisc's cache ({@link SubnetCache}, what {@code ibnetdiscover --cache} writes),
 * where python-rdma pickles its own objects; its name may hold python-rdma's templates
 * ({@code $C}/{@code ${CA}} the device, {@code $P}/{@code ${PORT}} the port number, {@code $A} both).
 *
 * <p>Where the C tool has an option of one of these names, the C tool's wins: ibnetdiscover's
 * {@code --cache FILE} writes the cache after every discovery and never reads it (its
 * {@code --load-cache} reads one). A scan the C tool's options narrow to part of the subnet
 * ({@code -S}, {@code -G}, {@code -D}, {@code -n}) is the C tool's directed-route scan whatever these
 * options say. Failures are python-rdma's ({@link CmdError}: {@code E: ...}, status 100).
 */
public final class DiscoveryOptions {
    /** python-rdma's {@code --discovery} choices. */
    private static final List<String> MODES = List.of("LID", "DR", "SA");
    private static final Pattern TEMPLATE = Pattern.compile("\\$(?:(\\$)|([_a-z][_a-z0-9]*)|\\{([_a-z][_a-z0-9]*)})", Pattern.CASE_INSENSITIVE);

    /** {@code --discovery} as given, or null. */
    String mode;

    /** {@code --cache FILE} (python-rdma's, not ibnetdiscover's), or null. */
    Path cache;

    /** {@code --refresh-cache}. */
    boolean refresh;

    /** A subnet as a command gets it, and what went wrong while discovering it (nothing when read from a cache). */
    public record Result(Subnet subnet, List<String> problems) {
        public Result {
            problems = List.copyOf(problems);
        }

        /** A discovery's subnet and problems. */
        public static Result of(SubnetDiscovery discovery) {
            return new Result(discovery.subnet(), discovery.problems());
        }
    }

    /** The ways a command reaches the subnet, opened only when the options choose them. */
    public interface Sources {
        /** SMPs from the local port, for {@code --discovery LID}. */
        SmpClient smp();

        /** A transactor to the SA on {@code --sa-path} with {@code --smkey}, for {@code --discovery SA}. */
        MadTransactor sa();

        /** The local end port, for the templates of a {@code --cache} name. */
        Optional<EndPort> endPort();
    }

    /**
     * Whether any of the options was given: a command that reads what it needs of the subnet
     * piecemeal, as the C tool does, then takes it from {@link #subnet} instead (python-rdma's
     * {@code ibroute}).
     */
    public boolean given() {
        return mode != null || cache != null || refresh;
    }

    /**
     * Checks the options before any MAD is sent: a known {@code --discovery} mode, and none but
     * SA when {@code toTheSa} ({@code --sa} or {@code --sa-path}, which imply it, as in python-rdma).
     *
     * @throws CmdError {@code --discovery: invalid choice: 'X' (choose from 'LID', 'DR', 'SA')}, or
     *                  {@code Can't combine --sa with discovery mode 'DR'}
     */
    public void check(boolean toTheSa) {
        if (mode != null && !MODES.contains(mode)) {
            throw new CmdError("--discovery: invalid choice: '" + mode + "' (choose from 'LID', 'DR', 'SA')");
        }
        if (toTheSa && mode != null && !mode.equals("SA")) {
            throw new CmdError("Can't combine --sa with discovery mode '" + mode + "'");
        }
    }

    /**
     * The subnet: read from the cache file, or discovered as the mode says (and then written to
     * the cache file when one is named).
     *
     * @param byDirectedRoute the command's own directed-route discovery of the whole subnet (the C tool's)
     * @param toTheSa         whether the command's options imply discovery from the SA ({@code --sa}, {@code --sa-path})
     * @throws CmdError if the options do not {@link #check}, or the cache file cannot be read or written
     */
    public Result subnet(Supplier<SubnetDiscovery> byDirectedRoute, Sources sources, boolean toTheSa) {
        check(toTheSa);
        Path file = cacheFile(sources);
        if (file != null && !refresh && Files.exists(file)) {
            return new Result(read(file), List.of());
        }
        String chosen = toTheSa ? "SA" : mode == null ? "DR" : mode;
        Result result = Result.of(switch (chosen) {
            case "LID" -> SubnetDiscovery.byLid(sources.smp());
            case "SA" -> SubnetDiscovery.fromSa(sources.sa());
            default -> byDirectedRoute.get();
        });
        if (file != null) {
            try {
                SubnetCache.write(result.subnet(), file);
            } catch (SubnetCacheException e) {
                throw new CmdError("Could not write the cache file '" + file + "' - " + e.getMessage());
            }
        }
        return result;
    }

    /** {@code --cache}'s file, its name {@link #expand expanded}, or null without the option. */
    public Path cacheFile(Sources sources) {
        return cache == null ? null : expand(cache, sources);
    }

    /**
     * A cache file's name with python-rdma's templates ({@code compute_cache_fn}) replaced as
     * Python's {@code string.Template.safe_substitute} replaces them: {@code $C} and {@code ${CA}}
     * by the local device's name, {@code $P} and {@code ${PORT}} by the port number, {@code $A} by
     * both ({@code C-P}), {@code $$} by {@code $}; any other {@code $} stays.
     *
     * @throws CmdError if the name has a template and the transport cannot say which end port it is on
     */
    public static Path expand(Path file, Sources sources) {
        String name = file.toString();
        if (name.indexOf('$') < 0) {
            return file;
        }
        EndPort port = sources.endPort().orElseThrow(() -> new CmdError("the cache file name " + name
                + " names the end port, which the transport does not say"));
        String device = port.deviceName();
        String number = Integer.toString(port.portNumber());
        Map<String, String> values = Map.of("C", device, "CA", device, "P", number, "PORT", number, "A", device + "-" + number);
        Matcher m = TEMPLATE.matcher(name);
        StringBuilder expanded = new StringBuilder();
        while (m.find()) {
            String id = m.group(2) != null ? m.group(2) : m.group(3);
            String value = m.group(1) != null ? "$" : values.get(id);
            m.appendReplacement(expanded, Matcher.quoteReplacement(value != null ? value : m.group()));
        }
        m.appendTail(expanded);
        return Path.of(expanded.toString());
    }

    /** A subnet cache file; one that cannot be read is python-rdma's {@code load_cache} failure. */
    public static Subnet read(Path file) {
        try {
            return SubnetCache.read(file);
        } catch (SubnetCacheException e) {
            throw new CmdError("The file '" + file + "' is not a valid cache file - " + e.getMessage());
        }
    }
}
