package org.jrdma.tools;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code ibtool set_nodedesc} (rdma-core's deprecated set_nodedesc.sh, not installed) on a sysfs
 * tree written here: the name is appended to each device's {@code node_desc} as the script's
 * {@code echo -n >>} does (the kernel's file takes it as the new description), {@code -v} shows
 * them, a device without the file is reported, {@code -h} prints the usage with status 2, and this
 * machine, which has no RDMA devices, gets ls's complaint and status 0.
 */
class SetNodedescCommandTest {
    private static final String WARNING = "\n*** WARNING ***: this command is deprecated.\n\n";

    @Test
    void writesAndShowsTheNodeDescriptions(@TempDir Path dir) throws IOException {
        Path ib = dir.resolve("sys/class/infiniband");
        Files.createDirectories(ib.resolve("mlx5_0"));
        Files.createDirectories(ib.resolve("rxe0"));
        Files.writeString(ib.resolve("mlx5_0/node_desc"), "");
        String sysfs = dir.resolve("sys").toString();

        IbtoolRun set = IbtoolRun.of("set_nodedesc", "--sysfs", sysfs, "node01 HCA-1");
        assertEquals(WARNING, set.out());
        assertEquals(0, set.exitCode());
        assertEquals("node01 HCA-1", Files.readString(ib.resolve("mlx5_0/node_desc")));
        assertEquals(System.getProperty("user.name") + ": Failed to set node_desc for : rxe0\n", set.err());

        Files.writeString(ib.resolve("mlx5_0/node_desc"), "node01 HCA-1\n");
        IbtoolRun view = IbtoolRun.of("set_nodedesc.sh", "--sysfs", sysfs, "-v");
        assertEquals(WARNING + "mlx5_0: node01 HCA-1\n", view.out());
        assertEquals(0, view.exitCode());

        IbtoolRun help = IbtoolRun.of("set_nodedesc", "--sysfs", sysfs, "-x", "-h");
        assertTrue(help.out().startsWith(WARNING + "Usage: set_nodedesc [-hv] [<name>]\n   set the node_desc field of all hca's found in \""
                + ib + "\"\n"), help.out());
        assertEquals("set_nodedesc: illegal option -- x\n", help.err());
        assertEquals(2, help.exitCode());
    }

    /** {@code --json}: the name written and each device, or with {@code -v} each device's description; {@code -h} the error document. */
    @Test
    void jsonHasTheDevicesAndTheirDescriptions(@TempDir Path dir) throws IOException {
        Path ib = dir.resolve("sys/class/infiniband");
        Files.createDirectories(ib.resolve("mlx5_0"));
        Files.createDirectories(ib.resolve("rxe0"));
        Files.writeString(ib.resolve("mlx5_0/node_desc"), "");
        String sysfs = dir.resolve("sys").toString();

        IbtoolRun set = IbtoolRun.of("set_nodedesc", "--json", "--sysfs", sysfs, "node01 HCA-1");
        assertEquals(0, set.exitCode());
        JsonNode written = TextAndJson.parse(set);
        assertEquals("node01 HCA-1", written.get("nodeDescription").asText());
        assertEquals("node01 HCA-1", Files.readString(ib.resolve("mlx5_0/node_desc")));
        assertEquals("mlx5_0", written.at("/devices/0/device").asText());
        assertTrue(written.at("/devices/0/ok").asBoolean());
        assertEquals("rxe0", written.at("/devices/1/device").asText());
        assertFalse(written.at("/devices/1/ok").asBoolean());

        Files.writeString(ib.resolve("mlx5_0/node_desc"), "node01 HCA-1\n");
        TextAndJson view = TextAndJson.of("set_nodedesc", "--sysfs", sysfs, "-v");
        assertEquals(view.find("^mlx5_0: (.*)$"), view.document().at("/devices/0/nodeDescription").asText());
        assertFalse(view.document().has("nodeDescription"));

        TextAndJson help = TextAndJson.of("set_nodedesc", "--sysfs", sysfs, "-h");
        assertEquals(2, help.error().get("status").asInt());
        assertEquals(help.text().out().strip(), help.error().get("message").asText());
    }

    @Test
    void aMachineWithoutDevicesHasNothingToSet() {
        IbtoolRun run = IbtoolRun.of("set_nodedesc", "-v");
        assertEquals(WARNING, run.out());
        assertEquals("ls: cannot access '/sys/class/infiniband': No such file or directory\n", run.err());
        assertEquals(0, run.exitCode());
    }
}
