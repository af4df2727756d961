package org.jrdma.mad.umad.ffi;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.lang.foreign.GroupLayout;
import java.lang.foreign.MemoryLayout;
import java.lang.foreign.PaddingLayout;
import java.lang.foreign.StructLayout;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.jrdma.testkit.junit.NativeCommand;
import org.jrdma.testkit.junit.Peers;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The hand-written umad layouts and ioctl numbers against the C headers: a small program compiled
 * by gcc prints {@code sizeof} and {@code offsetof} of every member of libibumad's
 * {@code ib_user_mad_t}/{@code ib_mad_addr_t} ({@code <infiniband/umad.h>}) and of the kernel's
 * {@code struct ib_user_mad_hdr}, {@code struct ib_user_mad} and {@code struct ib_user_mad_reg_req}
 * ({@code <rdma/ib_user_mad.h>}), the ioctl numbers, and the libc constants used.
 */
class IbUserMadLayoutTest {
    private static final List<String> HEADERS = List.of("/usr/include/infiniband/umad.h", "/usr/include/rdma/ib_user_mad.h");

    /**
     * {@code ib_user_mad_t} and {@code ib_mad_addr_t} from libibumad: a separate unit, as its
     * {@code struct ib_user_mad} clashes with the kernel's. The ioctl numbers come from the kernel
     * header only: umad.h's copies need the kernel's {@code struct ib_user_mad_reg_req}.
     */
    private static final String LIBIBUMAD_C = """
            #include <stdio.h>
            #include <stddef.h>
            #include <infiniband/umad.h>
            #define M(T, m) printf(#T "." #m " %zu %zu\\n", offsetof(T, m), sizeof(((T *) 0)->m))
            #define S(T) printf(#T ".sizeof %zu\\n", sizeof(T))
            void print_libibumad(void) {
                S(ib_user_mad_t);
                M(ib_user_mad_t, agent_id); M(ib_user_mad_t, status); M(ib_user_mad_t, timeout_ms);
                M(ib_user_mad_t, retries); M(ib_user_mad_t, length); M(ib_user_mad_t, addr);
                S(ib_mad_addr_t);
                M(ib_mad_addr_t, qpn); M(ib_mad_addr_t, qkey); M(ib_mad_addr_t, lid); M(ib_mad_addr_t, sl);
                M(ib_mad_addr_t, path_bits); M(ib_mad_addr_t, grh_present); M(ib_mad_addr_t, gid_index);
                M(ib_mad_addr_t, hop_limit); M(ib_mad_addr_t, traffic_class); M(ib_mad_addr_t, gid);
                M(ib_mad_addr_t, flow_label); M(ib_mad_addr_t, pkey_index); M(ib_mad_addr_t, reserved);
                printf("umad.h.IB_UMAD_ABI_VERSION %d\\n", IB_UMAD_ABI_VERSION);
            }
            """;

    private static final String KERNEL_C = """
            #include <stdio.h>
            #include <stddef.h>
            #include <errno.h>
            #include <fcntl.h>
            #include <rdma/ib_user_mad.h>
            #define M(T, m) printf(#T "." #m " %zu %zu\\n", offsetof(struct T, m), sizeof(((struct T *) 0)->m))
            #define S(T) printf(#T ".sizeof %zu\\n", sizeof(struct T))
            void print_libibumad(void);
            int main(void) {
                S(ib_user_mad_hdr);
                M(ib_user_mad_hdr, id); M(ib_user_mad_hdr, status); M(ib_user_mad_hdr, timeout_ms);
                M(ib_user_mad_hdr, retries); M(ib_user_mad_hdr, length); M(ib_user_mad_hdr, qpn);
                M(ib_user_mad_hdr, qkey); M(ib_user_mad_hdr, lid); M(ib_user_mad_hdr, sl);
                M(ib_user_mad_hdr, path_bits); M(ib_user_mad_hdr, grh_present); M(ib_user_mad_hdr, gid_index);
                M(ib_user_mad_hdr, hop_limit); M(ib_user_mad_hdr, traffic_class); M(ib_user_mad_hdr, gid);
                M(ib_user_mad_hdr, flow_label); M(ib_user_mad_hdr, pkey_index); M(ib_user_mad_hdr, reserved);
                S(ib_user_mad);
                printf("ib_user_mad.data %zu\\n", offsetof(struct ib_user_mad, data));
                S(ib_user_mad_reg_req);
                M(ib_user_mad_reg_req, id); M(ib_user_mad_reg_req, method_mask); M(ib_user_mad_reg_req, qpn);
                M(ib_user_mad_reg_req, mgmt_class); M(ib_user_mad_reg_req, mgmt_class_version);
                M(ib_user_mad_reg_req, oui); M(ib_user_mad_reg_req, rmpp_version);
                printf("IB_USER_MAD_REGISTER_AGENT %lu\\n", (unsigned long) IB_USER_MAD_REGISTER_AGENT);
                printf("IB_USER_MAD_UNREGISTER_AGENT %lu\\n", (unsigned long) IB_USER_MAD_UNREGISTER_AGENT);
                printf("IB_USER_MAD_ENABLE_PKEY %lu\\n", (unsigned long) IB_USER_MAD_ENABLE_PKEY);
                printf("IB_USER_MAD_ABI_VERSION %d\\n", IB_USER_MAD_ABI_VERSION);
                printf("open_flags %d\\n", O_RDWR | O_NONBLOCK | O_CLOEXEC);
                printf("ENOSPC %d\\n", ENOSPC);
                printf("ETIMEDOUT %d\\n", ETIMEDOUT);
                print_libibumad();
                return 0;
            }
            """;

    @Test
    void layoutsAndIoctlNumbersMatchTheCHeaders(@TempDir Path dir) throws IOException, InterruptedException {
        Peers.require(HEADERS.stream().allMatch(h -> Files.exists(Path.of(h))),
                "the umad headers " + HEADERS + " (apt-get install libibumad-dev)");
        Map<String, String> c = parse(compileAndRun(dir));
        Map<String, String> java = javaSide();
        assertEquals(format(java), format(c), "Java layouts (expected) vs C headers (actual)");
    }

    @Test
    void ioctlNumbersAreTheKnownValues() {
        assertEquals(0xC01C1B01L, IbUserMad.REGISTER_AGENT);
        assertEquals(0x40041B02L, IbUserMad.UNREGISTER_AGENT);
        assertEquals(0x1B03L, IbUserMad.ENABLE_PKEY);
        assertEquals(64, UmadFile.HEADER_SIZE);
    }

    /** What the C program must print if the Java layouts are right. */
    private static Map<String, String> javaSide() {
        Map<String, String> m = new TreeMap<>();
        StructLayout mad = IbUserMad.USER_MAD;
        StructLayout addr = IbUserMad.MAD_ADDR;
        long addrOffset = mad.byteOffset(MemoryLayout.PathElement.groupElement("addr"));
        members(m, "ib_user_mad_t", mad, 0, Map.of());
        members(m, "ib_mad_addr_t", addr, 0, Map.of());
        // The kernel's header is the same 64 bytes, with the address members inline and agent_id named id.
        members(m, "ib_user_mad_hdr", addr, addrOffset, Map.of());
        members(m, "ib_user_mad_hdr", mad, 0, Map.of("agent_id", "id"));
        m.remove("ib_user_mad_hdr.addr");
        m.put("ib_user_mad.sizeof", Long.toString(mad.byteSize()));
        m.put("ib_user_mad.data", Long.toString(mad.byteSize()));
        members(m, "ib_user_mad_reg_req", IbUserMad.REG_REQ, 0, Map.of());
        m.put("IB_USER_MAD_REGISTER_AGENT", Long.toString(IbUserMad.REGISTER_AGENT));
        m.put("IB_USER_MAD_UNREGISTER_AGENT", Long.toString(IbUserMad.UNREGISTER_AGENT));
        m.put("IB_USER_MAD_ENABLE_PKEY", Long.toString(IbUserMad.ENABLE_PKEY));
        m.put("IB_USER_MAD_ABI_VERSION", Integer.toString(UmadFile.ABI_VERSION));
        m.put("umad.h.IB_UMAD_ABI_VERSION", Integer.toString(UmadFile.ABI_VERSION));
        m.put("open_flags", Integer.toString(UmadFile.OPEN_FLAGS));
        m.put("ENOSPC", Integer.toString(UmadFile.ENOSPC));
        m.put("ETIMEDOUT", Integer.toString(UmadFile.ETIMEDOUT));
        return m;
    }

    /** {@code struct.member -> "offset size"} for every named member, and {@code struct.sizeof}. */
    private static void members(Map<String, String> m, String struct, GroupLayout layout, long base, Map<String, String> renames) {
        m.put(struct + ".sizeof", Long.toString(layout.byteSize()));
        long offset = 0;
        for (MemoryLayout member : layout.memberLayouts()) {
            if (!(member instanceof PaddingLayout)) {
                String name = member.name().orElseThrow();
                m.put(struct + "." + renames.getOrDefault(name, name), (base + offset) + " " + member.byteSize());
            }
            offset += member.byteSize();
        }
    }

    private static List<String> compileAndRun(Path dir) throws IOException, InterruptedException {
        Files.writeString(dir.resolve("kernel.c"), KERNEL_C);
        Files.writeString(dir.resolve("libibumad.c"), LIBIBUMAD_C);
        Path exe = NativeCommand.gcc(dir, "oracle", List.of("-Werror", "kernel.c", "libibumad.c"), "libibumad-dev");
        return NativeCommand.run(dir, List.of(exe.toString()), null).requireSuccess().lines();
    }

    private static Map<String, String> parse(List<String> lines) {
        Map<String, String> m = new TreeMap<>();
        for (String line : lines) {
            int space = line.indexOf(' ');
            m.put(line.substring(0, space), line.substring(space + 1));
        }
        return m;
    }

    private static String format(Map<String, String> m) {
        List<String> lines = new ArrayList<>();
        m.forEach((k, v) -> lines.add(k + " " + v));
        return String.join("\n", lines);
    }
}
