package org.jrdma.tools;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.JsonNode;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * {@code ibtool ibstatus} against infiniband-diags' ibstatus script: on this machine's sysfs (no RDMA
 * devices: {@code Fatal error:  No devices}, 255), and on a sysfs tree of two devices written here
 * (an active HCA port and a down one with files missing), which the script reads once its
 * {@code /sys/class/infiniband} is replaced by the tree's and ibtool with {@code --sysfs}: identical
 * standard output, standard error and exit status.
 */
class IbstatusCommandTest {

    @ParameterizedTest
    @ValueSource(strings = {"", "-h", "mlx5_0", "mlx5_0:1", "-x", "a:b:c"})
    void onThisMachinePrintsWhatTheScriptPrints(String args) throws Exception {
        String[] split = args.isEmpty() ? new String[0] : args.split(" ");
        assertSame(script(Path.of("/usr/sbin/ibstatus"), split), ibtool(null, split));
    }

    @ParameterizedTest
    @ValueSource(strings = {"", "mlx5_0", "mlx5_0:1", "mlx5_0:2", "mlx5_1", "mlx5_0:9", "mlx5_1:1 mlx5_0:2", "nodev", "mlx5_0:1 nodev",
        "mlx5_0:x:1", "-h"})
    void onASysfsTreePrintsWhatTheScriptPrints(String args, @TempDir Path dir) throws Exception {
        Path sysfs = dir.resolve("sys");
        Path ib = sysfs.resolve("class/infiniband");
        port(ib.resolve("mlx5_0/ports/1"), Map.of("gids/0", "fe80:0000:0000:0000:0002:c903:0000:1011\n", "lid", "0x4\n",
                "sm_lid", "0x1\n", "state", "4: ACTIVE\n", "phys_state", "5: LinkUp\n", "rate", "40 Gb/sec (4X QDR)\n",
                "link_layer", "InfiniBand\n"));
        port(ib.resolve("mlx5_0/ports/2"), Map.of("lid", "0x0\n", "state", "1: DOWN\n", "phys_state", "3: Disabled\n"));
        port(ib.resolve("mlx5_1/ports/1"), Map.of("gids/0", "fe80:0000:0000:0000:5054:00ff:fe12:3456\n", "lid", "0x0\n",
                "sm_lid", "0x0\n", "state", "4: ACTIVE\n", "phys_state", "5: LinkUp\n", "rate", "10 Gb/sec (1X QDR)\n",
                "link_layer", "Ethernet\n"));
        Path copy = dir.resolve("ibstatus");
        Files.writeString(copy, Files.readString(Path.of("/usr/sbin/ibstatus")).replace("\"/sys/class/infiniband\"", "\"" + ib + "\""));
        String[] split = args.isEmpty() ? new String[0] : args.split(" ");
        assertSame(script(copy, split), ibtool(sysfs, split));
    }

    /** {@code --json}: each port the text shows, its values as the text has them; a fatal error is the error document. */
    @Test
    void jsonHasThePortsTheTextShows(@TempDir Path dir) throws Exception {
        Path sysfs = dir.resolve("sys");
        Path ib = sysfs.resolve("class/infiniband");
        port(ib.resolve("mlx5_0/ports/1"), Map.of("gids/0", "fe80:0000:0000:0000:0002:c903:0000:1011\n", "lid", "0x4\n",
                "sm_lid", "0x1\n", "state", "4: ACTIVE\n", "phys_state", "5: LinkUp\n", "rate", "40 Gb/sec (4X QDR)\n",
                "link_layer", "InfiniBand\n"));
        port(ib.resolve("mlx5_0/ports/2"), Map.of("lid", "0x0\n", "state", "1: DOWN\n", "phys_state", "3: Disabled\n"));
        TextAndJson runs = TextAndJson.of("ibstatus", "--sysfs", sysfs.toString());
        JsonNode ports = runs.document().get("ports");
        assertEquals(runs.count("^Infiniband device "), ports.size());
        assertEquals(runs.findAll("^Infiniband device '(\\S+)'"), ports.findValuesAsText("device"));
        assertEquals(runs.findAll("port (\\d+) status:$"), ports.findValuesAsText("portNum"));
        assertEquals(runs.findAll("^\tstate:\t\t (.*)$"), ports.findValuesAsText("state"));
        assertEquals(runs.findAll("^\tbase lid:\t (.*)$"), ports.findValuesAsText("baseLid"));
        assertEquals(runs.findAll("^\trate:\t\t (.*)$"), ports.findValuesAsText("rate"));
        assertEquals(runs.findAll("^\tlink_layer:\t (.*)$"), ports.findValuesAsText("linkLayer"));
        assertEquals("fe80:0000:0000:0000:0002:c903:0000:1011", ports.get(0).get("defaultGid").asText());

        TextAndJson missing = TextAndJson.of("ibstatus", "--sysfs", sysfs.toString(), "nodev");
        assertEquals(255, missing.error().get("status").asInt());
        assertEquals(missing.text().out().strip(), missing.error().get("message").asText());
    }

    private static void port(Path dir, Map<String, String> files) throws IOException {
        for (Map.Entry<String, String> file : files.entrySet()) {
            Files.createDirectories(dir.resolve(file.getKey()).getParent());
            Files.writeString(dir.resolve(file.getKey()), file.getValue());
        }
        Files.createDirectories(dir);
    }

    private record Result(int status, String out, String err) {
    }

    private static Result script(Path script, String... args) throws Exception {
        List<String> command = new ArrayList<>(List.of("sh", script.toString()));
        command.addAll(List.of(args));
        Process p = new ProcessBuilder(command).start();
        String out = new String(p.getInputStream().readAllBytes());
        String err = new String(p.getErrorStream().readAllBytes());
        return new Result(p.waitFor(), out, err);
    }

    private static Result ibtool(Path sysfs, String... args) {
        List<String> command = new ArrayList<>(List.of("ibstatus"));
        if (sysfs != null) {
            command.addAll(List.of("--sysfs", sysfs.toString()));
        }
        command.addAll(List.of(args));
        IbtoolRun run = IbtoolRun.of(command.toArray(String[]::new));
        return new Result(run.exitCode(), run.out(), run.err());
    }

    private static void assertSame(Result c, Result ours) {
        assertEquals(c.out, ours.out);
        assertEquals(c.err, ours.err);
        assertEquals(c.status, ours.status);
    }
}
