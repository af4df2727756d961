package org.jrdma.devices;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.URISyntaxException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.jrdma.iba.Gid;
import org.jrdma.testkit.junit.Peers;
import org.jrdma.testkit.vm.SoftRoceVm;
import org.jrdma.testkit.vm.VmResult;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * {@link org.jrdma.Rdma} on a real kernel's sysfs: the soft-RoCE VM's {@code rxe0}, read by
 * {@link DevicesFromVm} and compared with what {@code ibv_devinfo -v} prints in the same boot.
 */
class SoftRoceDevicesTest {
    private static final String COMMAND = """
            '%s' -cp '%s' %s
            echo "java-exit=$?"
            echo '=== ibv_devinfo'
            ibv_devinfo -d rxe0 -v
            echo '=== mad'
            for d in /sys/class/infiniband_mad/umad* /sys/class/infiniband_mad/issm*; do
                [ -e "$d/ibdev" ] && echo "mad $(basename "$d") $(cat "$d/ibdev") $(cat "$d/port")"
            done
            """;

    private static VmResult run;
    private static Map<String, String> seen;
    private static String devinfo;

    @BeforeAll
    static void boot() throws URISyntaxException {
        Peers.require(SoftRoceVm.isAvailable(), SoftRoceVm.unavailabilityCause());
        String classPath = String.join(":", location(DevicesFromVm.class), location(RdmaDevice.class),
                location(Gid.class));
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        run = SoftRoceVm.create().run(COMMAND.formatted(java, classPath, DevicesFromVm.class.getName()),
                Duration.ofMinutes(3));
        System.out.println("devices VM run took " + run.elapsed().toMillis() + " ms:\n" + run.output());
        seen = new HashMap<>();
        String output = run.output();
        int devinfoStart = output.indexOf("=== ibv_devinfo");
        assertTrue(devinfoStart > 0, output);
        for (String line : output.substring(0, devinfoStart).lines().toList()) {
            int eq = line.indexOf('=');
            if (eq > 0) {
                seen.putIfAbsent(line.substring(0, eq), line.substring(eq + 1));
            }
        }
        devinfo = output.substring(devinfoStart, output.indexOf("=== mad"));
    }

    private static String location(Class<?> type) throws URISyntaxException {
        return Path.of(type.getProtectionDomain().getCodeSource().getLocation().toURI()).toString();
    }

    /** What {@link DevicesFromVm} printed for {@code key}. */
    private static String seen(String key) {
        String value = seen.get(key);
        if (value == null) {
            throw new AssertionError("DevicesFromVm printed no " + key + "=:\n" + run.output());
        }
        return value;
    }

    /** The first group of {@code regex} in the ibv_devinfo output. */
    private static String devinfo(String regex) {
        Matcher m = Pattern.compile(regex, Pattern.MULTILINE).matcher(devinfo);
        assertTrue(m.find(), "no " + regex + " in:\n" + devinfo);
        return m.group(1);
    }

    @Test
    void findsRxe0PortOneActiveOnEthernet() {
        assertEquals("0", seen("java-exit"), run.output());
        assertEquals("rxe0", seen("device"));
        assertEquals("CA", seen("rxe0.nodeType"));
        assertEquals("4", seen("rxe0/1.state"), "ACTIVE");
        assertEquals("5", seen("rxe0/1.physState"), "LinkUp");
        assertEquals("Ethernet", seen("rxe0/1.linkLayer"));
        assertEquals("rxe0/1", seen("default"));
        assertEquals("rxe0/1", seen("byDevice"));
        assertEquals("rxe0/1", seen("byPort"));
        assertEquals("rxe0/1", seen("byGuid"));
        assertEquals("rxe0/1", seen("byGid"));
        assertEquals("rxe0", seen("deviceByName"));
        assertEquals("IBPath(end_port='rxe0/1', DGID=GID('fe80::1'))", seen("scopedPath"));
        assertEquals("true pkeyIndex=0 sgidIndex=0", seen("localPath.complete"));
    }

    @Test
    void deviceAttributesMatchIbvDevinfo() {
        assertEquals(devinfo("^\\s*node_guid:\\s+(\\S+)$"), seen("rxe0.nodeGuid"));
        assertEquals(devinfo("^\\s*sys_image_guid:\\s+(\\S+)$"), seen("rxe0.sysImageGuid"));
        // rxe has no firmware: its sysfs fw_ver is empty, which libibverbs reports as 0.0.0.
        String fw = seen("rxe0.fwVersion");
        assertEquals(devinfo("^\\s*fw_ver:\\s+(\\S*)$"), fw.isEmpty() ? "0.0.0" : fw);
    }

    @Test
    void portAttributesMatchIbvDevinfo() {
        assertEquals(devinfo("^\\s*state:\\s+PORT_\\w+ \\((\\d+)\\)$"), seen("rxe0/1.state"));
        assertEquals(devinfo("^\\s*phys_state:\\s+\\w+ \\((\\d+)\\)$"), seen("rxe0/1.physState"));
        assertEquals(devinfo("^\\s*port_lid:\\s+(\\d+)$"), seen("rxe0/1.lid"));
        assertEquals(Integer.parseInt(devinfo("^\\s*port_lmc:\\s+0x(\\p{XDigit}+)$"), 16),
                Integer.parseInt(seen("rxe0/1.lmc")));
        assertEquals(devinfo("^\\s*sm_lid:\\s+(\\d+)$"), seen("rxe0/1.smLid"));
        assertEquals(devinfo("^\\s*sm_sl:\\s+(\\d+)$"), seen("rxe0/1.smSl"));
        assertEquals(Long.parseLong(devinfo("^\\s*port_cap_flags:\\s+0x(\\p{XDigit}+)$"), 16),
                Long.parseLong(seen("rxe0/1.capabilityMask"), 16));
        assertEquals(devinfo("^\\s*link_layer:\\s+(\\w+)$"), seen("rxe0/1.linkLayer"));
        assertEquals(devinfo("^\\s*pkey_tbl_len:\\s+(\\d+)$"), seen("rxe0/1.pkeyCount"));
        assertEquals(devinfo("^\\s*gid_tbl_len:\\s+(\\d+)$"), seen("rxe0/1.gidCount"));
        assertEquals("ffff", seen("rxe0/1.pkey.0"));
    }

    @Test
    void rateIsTheActiveWidthTimesTheActiveSpeed() {
        int lanes = Integer.parseInt(devinfo("^\\s*active_width:\\s+(\\d+)X"));
        double speed = Double.parseDouble(devinfo("^\\s*active_speed:\\s+([0-9.]+) Gbps"));
        assertEquals(lanes * speed, Double.parseDouble(seen("rxe0/1.rate")), 0.5, devinfo);
    }

    @Test
    void gidTableMatchesIbvDevinfo() {
        Matcher m = Pattern.compile("^\\s*GID\\[\\s*(\\d+)\\]:\\s+([0-9a-fA-F:.]+)", Pattern.MULTILINE).matcher(devinfo);
        int printed = 0;
        while (m.find()) {
            printed++;
            assertEquals(Gid.parse(m.group(2)).toString(), seen("rxe0/1.gid." + m.group(1)), m.group());
        }
        assertTrue(printed > 0, "ibv_devinfo printed no GIDs:\n" + devinfo);
        long ours = seen.keySet().stream().filter(k -> k.startsWith("rxe0/1.gid.")).count();
        assertEquals(printed, ours, "non-empty GIDs: ibv_devinfo printed " + printed + "\n" + run.output());
        Gid first = Gid.parse(seen("rxe0/1.gid.0"));
        assertTrue(first.isLinkLocal(), "GID 0 of a RoCE port is link-local: " + first);
        assertNotEquals(0, first.interfaceId());
    }

    @Test
    void umadDevicesMatchTheKernelMadClass() {
        Matcher m = Pattern.compile("^mad (umad\\d+|issm\\d+) rxe0 1$", Pattern.MULTILINE).matcher(run.output());
        Map<String, String> expected = new HashMap<>(Map.of("umad", "none", "issm", "none"));
        while (m.find()) {
            expected.put(m.group(1).substring(0, 4), "/dev/infiniband/" + m.group(1));
        }
        assertEquals(expected.get("umad"), seen("rxe0/1.umad"), run.output());
        assertEquals(expected.get("issm"), seen("rxe0/1.issm"), run.output());
        assertFalse(expected.get("umad").equals("none"), "ib_umad gives rxe0 a umad device:\n" + run.output());
    }
}
