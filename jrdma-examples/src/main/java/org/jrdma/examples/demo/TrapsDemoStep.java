package org.jrdma.examples.demo;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.jrdma.testkit.fabric.Fabric;
import org.jrdma.testkit.fabric.Topology;

/**
 * The demo's step for infiniband-diags' two test programs (issue 12), which Debian does not package,
 * so that the peers show what they did: {@code ibtool ibsendtrap} sends a trap 144 (node
 * description changed) and OpenSM's log shows it received, acted on and repressed it (ibsim's log
 * the TrapRepress it dropped); {@code ibtool mcm_rereg_test} re-registers two other HCAs in the
 * IPoIB broadcast group by proxy, and C {@code saquery -m} lists them as members.
 */
final class TrapsDemoStep {
    private static final Duration LOG_WAIT = Duration.ofSeconds(10);

    private TrapsDemoStep() {
    }

    static void run(Fabric fabric, String node) {
        System.out.println("infiniband-diags' test programs: ibsendtrap and mcm_rereg_test, seen from OpenSM and the SA");
        List<String> at = List.of("--sim", fabric.socketName(), "--sim-node", node);
        Path smLog = fabric.workDir().resolve("opensm.log");
        Path simLog = fabric.workDir().resolve("ibsim.log");
        int smFrom = read(smLog).length();
        int simFrom = read(simLog).length();
        InProcessIbtool.run(with(List.of("ibsendtrap", "node_desc_change"), at));
        System.out.println("(OpenSM's log, then ibsim's, after it:)");
        System.out.print(linesAdded(smLog, smFrom, "log_trap_info|Node description update|log_notice"));
        System.out.print(linesAdded(simLog, simFrom, "trap repress"));
        System.out.println();

        List<Topology.Node> cas = fabric.topology().nodes(Topology.NodeType.CA);
        List<String> guids = cas.subList(cas.size() - 2, cas.size()).stream()
                .map(ca -> String.format("0x%016x", ca.links().getFirst().portGuid())).toList();
        try {
            Path file = Files.createTempFile("jrdma-demo-", ".guids");
            try {
                Files.writeString(file, String.join("\n", guids) + "\n");
                System.out.println("(a port GUID file of " + String.join(", ", guids) + ")");
                InProcessIbtool.run(with(List.of("mcm_rereg_test", file.toString()), at));
            } finally {
                Files.deleteIfExists(file);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        String members = fabric.runAt(node, "saquery", "-m", "--smkey", "1").stdout();
        System.out.println("(C saquery -m --smkey 1: the members of the IPoIB broadcast group)");
        System.out.print(members.lines().filter(line -> line.contains("PortGid") || line.contains("ProxyJoin"))
                .map(line -> line.strip() + "\n").collect(Collectors.joining()));
        System.out.println();
    }

    /** The lines of {@code log} past {@code from} that match {@code pattern}, once there is one (within 10 s). */
    private static String linesAdded(Path log, int from, String pattern) {
        Pattern wanted = Pattern.compile(pattern);
        long deadline = System.nanoTime() + LOG_WAIT.toNanos();
        String lines;
        do {
            String text = read(log);
            lines = text.substring(Math.min(from, text.length())).lines().filter(line -> wanted.matcher(line).find())
                    .map(line -> line + "\n").collect(Collectors.joining());
            if (!lines.isEmpty()) {
                return lines;
            }
            try {
                Thread.sleep(100);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return "";
            }
        } while (System.nanoTime() < deadline);
        return "(no such line in " + log.getFileName() + ")\n";
    }

    private static String read(Path log) {
        try {
            return Files.exists(log) ? Files.readString(log, StandardCharsets.ISO_8859_1) : "";
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static String[] with(List<String> command, List<String> at) {
        return Stream.concat(command.stream(), at.stream()).toArray(String[]::new);
    }
}
