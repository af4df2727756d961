package org.jrdma.tools;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.ZonedDateTime;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import java.util.function.Function;
import org.jrdma.RdmaException;
import org.jrdma.subnet.Node;
import org.jrdma.subnet.Subnet;
import org.jrdma.subnet.SubnetCache;
import org.jrdma.subnet.SubnetCacheException;
import org.jrdma.subnet.SubnetDiff;
import org.jrdma.subnet.SubnetDiscovery;
import org.jrdma.subnet.TopologyWriter;
import org.jrdma.tools.json.JsonSubnet;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * {@code ibtool ibnetdiscover}: discovers the subnet by directed route (or reads it from a
 * libibnetdisc cache) and prints its topology file, or its differences from a cached state;
 * optionally caches what it found, in the format infiniband-diags' ibnetdiscover reads.
 */
@Command(name = "ibnetdiscover", mixinStandardHelpOptions = true,
        description = "Discover the InfiniBand subnet by directed-route SMPs (or read it from a libibnetdisc cache) and print it as "
                + "a topology file (ibnetdiscover format), or its differences from a cached state (--diff).")
final class IbnetdiscoverCommand extends FabricCommand implements DiscoversSubnet {
    @Mixin
    SaOption viaSa;

    @Mixin
    NodeNameMapOption names;

    @Option(names = "--cache", paramLabel = "FILE", description = "also write the fabric to FILE in libibnetdisc's cache format")
    Path cache;

    @Option(names = "--load-cache", paramLabel = "FILE",
            description = "read the fabric from FILE, a libibnetdisc cache, instead of discovering it")
    Path loadCache;

    @Option(names = "--diff", paramLabel = "FILE",
            description = "print the differences between the fabric cached in FILE and the current one (or --load-cache's)")
    Path diff;

    @Option(names = "--diffcheck", paramLabel = "KEYS",
            description = "what --diff compares, comma separated: sw, ca, router, port, lid, nodedesc (default: sw,ca,router,port)")
    String diffcheck;

    @Option(names = "--dot", paramLabel = "FILE",
            description = "also write the fabric as a Graphviz DOT graph to FILE (- for standard output, instead of the topology file)")
    String dot;

    @Option(names = "--svg", paramLabel = "FILE",
            description = "also write the fabric as an SVG drawing to FILE (- for standard output, instead of the topology file)")
    String svg;

    /** Its MADs go to the whole fabric: a user at a terminal sees their progress. */
    @Override
    boolean fabricWide() {
        return true;
    }

    @Override
    int run() {
        Set<SubnetDiff.Check> checks = diffChecks();
        if ("-".equals(dot) && "-".equals(svg)) {
            throw new UsageException("--dot and --svg cannot both write to standard output");
        }
        NodeNameMap map = names.map();
        Subnet before = diff == null ? null : load(diff, "loading cached fabric for diff failed");
        Subnet subnet;
        List<String> problems = List.of();
        if (loadCache != null) {
            subnet = load(loadCache, "loading cached fabric failed");
        } else {
            DiscoveryOptions.Result discovery;
            try {
                discovery = discover(() -> SubnetDiscovery.run(smp()), viaSa.on(fabric));
            } catch (RdmaException e) {
                throw DiagError.exit("discover failed\n", e);
            }
            subnet = discovery.subnet();
            problems = discovery.problems();
            progressDone();
        }
        Function<Node, String> displayName = node -> map.name(node.guid(), node.description());
        FabricDrawing drawing = dot == null && svg == null ? null : FabricDrawing.of(subnet, displayName);
        PrintWriter out = out();
        if (json()) {
            if ("-".equals(dot) || "-".equals(svg) || before != null) {
                throw new UsageException("--json writes the subnet on standard output: not with --diff, --dot - or --svg -");
            }
            json(JsonSubnet.of(subnet, _ -> true, displayName, problems), ExitCodes.OK);
        } else if (!"-".equals(dot) && !"-".equals(svg)) {
            out.print(before == null ? TopologyWriter.write(subnet, ZonedDateTime.now(), displayName)
                    : SubnetDiff.write(before, subnet, checks, displayName));
        }
        if (dot != null) {
            write(dot, drawing.dot(), out);
        }
        if (svg != null) {
            write(svg, drawing.svg(), out);
        }
        out.flush();
        if (cache != null) {
            try {
                SubnetCache.write(subnet, cache);
            } catch (SubnetCacheException e) {
                throw DiagError.exit("caching ibnetdiscover data failed\n", e);
            }
        }
        return reportProblems(problems);
    }

    /** Writes {@code text} to {@code file}, or to {@code out} if {@code file} is {@code -}. */
    private static void write(String file, String text, PrintWriter out) {
        if (file.equals("-")) {
            out.print(text);
            return;
        }
        try {
            Files.writeString(Path.of(file), text);
        } catch (IOException e) {
            throw DiagError.exit("cannot write " + file + ": " + e.getMessage());
        }
    }

    /** {@code --diffcheck}'s checks, or the default ones. */
    private Set<SubnetDiff.Check> diffChecks() {
        try {
            return diffcheck == null ? SubnetDiff.DEFAULT : SubnetDiff.parseChecks(diffcheck);
        } catch (IllegalArgumentException e) {
            String bad = Arrays.stream(diffcheck.split(",")).filter(key -> !isCheck(key)).findFirst().orElse(diffcheck);
            throw new UsageException("invalid diff check key: " + bad, e.getMessage());
        }
    }

    private static boolean isCheck(String key) {
        try {
            SubnetDiff.parseChecks(key);
            return true;
        } catch (IllegalArgumentException e) {
            return false;
        }
    }

    /** The subnet cached in {@code file}; a bad cache fails with the C tool's message ({@code failure}, with its stray newline) and why. */
    private static Subnet load(Path file, String failure) {
        try {
            return SubnetCache.read(file);
        } catch (SubnetCacheException e) {
            throw DiagError.exit(failure + "\n", e);
        }
    }
}
