package org.jrdma.verbs;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.TreeMap;

/**
 * The kernel's count of RDMA objects on a device ({@code rdma resource show}, iproute2): the
 * protection domains, CQs, QPs, MRs, contexts and CM identifiers it holds for user space. The
 * in-VM checks compare it before and after to show that closing left nothing behind.
 */
final class RdmaResources {
    private RdmaResources() {
    }

    /** The sum of every object count {@code rdma resource show} prints on {@code device}'s line. */
    static int count(String device) throws IOException, InterruptedException {
        return counts(device).values().stream().mapToInt(Integer::intValue).sum();
    }

    /** Each object count {@code rdma resource show} prints on {@code device}'s line, by kind ({@code pd}, {@code qp}...). */
    static Map<String, Integer> counts(String device) throws IOException, InterruptedException {
        Process process = new ProcessBuilder("rdma", "resource", "show").redirectErrorStream(true).start();
        String out = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        process.waitFor();
        Map<String, Integer> counts = new TreeMap<>();
        for (String line : out.lines().toList()) {
            if (line.contains(device + ":")) {
                String[] words = line.trim().split("\\s+");
                for (int i = 2; i + 1 < words.length; i += 2) {
                    counts.merge(words[i], Integer.parseInt(words[i + 1]), Integer::sum);
                }
            }
        }
        return counts;
    }
}
