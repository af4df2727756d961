package org.jrdma.devices;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Writes fake sysfs trees in the layout of the kernel's {@code /sys/class/infiniband} and
 * {@code /sys/class/infiniband_mad}, for {@link SysfsDevices} to read. Every file gets a trailing
 * newline, as sysfs attributes have.
 */
final class FakeSysfs {
    private final Path root;

    FakeSysfs(Path root) {
        this.root = root;
    }

    Path root() {
        return root;
    }

    /** The folder of device {@code name}. */
    Path device(String name) {
        return root.resolve("class/infiniband").resolve(name);
    }

    /** The folder of port {@code port} of device {@code name}. */
    Path port(String name, int port) {
        return device(name).resolve("ports").resolve(Integer.toString(port));
    }

    /** Writes {@code text} and a newline to {@code file}, making its folders. */
    FakeSysfs write(Path file, String text) {
        try {
            Files.createDirectories(file.getParent());
            Files.writeString(file, text + "\n");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return this;
    }

    /** Writes the device files of a device as mlx4 has them. */
    FakeSysfs device(String name, String nodeType, String nodeGuid, String description) {
        Path dir = device(name);
        return write(dir.resolve("node_type"), nodeType)
                .write(dir.resolve("node_guid"), nodeGuid)
                .write(dir.resolve("sys_image_guid"), nodeGuid)
                .write(dir.resolve("node_desc"), description)
                .write(dir.resolve("fw_ver"), "2.9.1000")
                .write(dir.resolve("hw_rev"), "b0")
                .write(dir.resolve("board_id"), "MT_0D90110009")
                .write(dir.resolve("hca_type"), "MT26428");
    }

    /** Writes the files of a port: LIDs in sysfs hex, states as {@code N: TEXT}. */
    FakeSysfs port(String name, int port, String lid, String lmc, String smLid, String state, String physState,
            String rate, String linkLayer) {
        Path dir = port(name, port);
        return write(dir.resolve("lid"), lid)
                .write(dir.resolve("lid_mask_count"), lmc)
                .write(dir.resolve("sm_lid"), smLid)
                .write(dir.resolve("sm_sl"), "0")
                .write(dir.resolve("state"), state)
                .write(dir.resolve("phys_state"), physState)
                .write(dir.resolve("rate"), rate)
                .write(dir.resolve("cap_mask"), "0x02510868")
                .write(dir.resolve("link_layer"), linkLayer);
    }

    /** Writes GID table entries 0, 1, ... in the kernel's {@code %pI6} form. */
    FakeSysfs gids(String name, int port, String... gids) {
        for (int i = 0; i < gids.length; i++) {
            write(port(name, port).resolve("gids").resolve(Integer.toString(i)), gids[i]);
        }
        return this;
    }

    /** Writes P_Key table entries 0, 1, ... */
    FakeSysfs pkeys(String name, int port, String... pkeys) {
        for (int i = 0; i < pkeys.length; i++) {
            write(port(name, port).resolve("pkeys").resolve(Integer.toString(i)), pkeys[i]);
        }
        return this;
    }

    /** Writes a {@code class/infiniband_mad/<entry>} with its {@code ibdev} and {@code port}. */
    FakeSysfs mad(String entry, String ibdev, int port) {
        Path dir = root.resolve("class/infiniband_mad").resolve(entry);
        return write(dir.resolve("ibdev"), ibdev).write(dir.resolve("port"), Integer.toString(port));
    }
}
