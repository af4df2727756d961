package org.jrdma.devices;

import com.code_intelligence.jazzer.api.FuzzedDataProvider;
import com.code_intelligence.jazzer.junit.FuzzTest;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.jrdma.RdmaException;

/**
 * Coverage-guided fuzz target (Jazzer) for sysfs files: a fake tree of one device with one port
 * (two GIDs, two P_Keys, a umad entry) whose every file holds bytes the fuzzer chose, read by
 * {@link SysfsDevices}. The only exception allowed out is {@link RdmaException}.
 */
class SysfsFuzzTest {
    private static final Path ROOT;
    private static final List<Path> FILES;

    static {
        try {
            ROOT = Files.createTempDirectory("jrdma-sysfs-fuzz");
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
        FakeSysfs sys = new FakeSysfs(ROOT);
        Path dev = sys.device("mlx4_0");
        Path port = sys.port("mlx4_0", 1);
        Path mad = ROOT.resolve("class/infiniband_mad/umad0");
        FILES = List.of(dev.resolve("node_type"), dev.resolve("node_guid"), dev.resolve("sys_image_guid"),
                dev.resolve("node_desc"), dev.resolve("fw_ver"), port.resolve("lid"), port.resolve("lid_mask_count"),
                port.resolve("sm_lid"), port.resolve("sm_sl"), port.resolve("state"), port.resolve("phys_state"),
                port.resolve("rate"), port.resolve("cap_mask"), port.resolve("link_layer"),
                port.resolve("gids/0"), port.resolve("gids/1"), port.resolve("pkeys/0"), port.resolve("pkeys/1"),
                mad.resolve("ibdev"), mad.resolve("port"));
        for (Path file : FILES) {
            sys.write(file, "");
        }
    }

    @FuzzTest(maxDuration = "10s")
    void sysfsTree(FuzzedDataProvider data) throws IOException {
        for (Path file : FILES) {
            Files.write(file, data.consumeBytes(data.consumeInt(0, 64)));
        }
        try {
            new SysfsDevices(ROOT, Path.of("/dev")).read();
        } catch (RdmaException expected) {
            // a missing or malformed file, named
        }
    }
}
