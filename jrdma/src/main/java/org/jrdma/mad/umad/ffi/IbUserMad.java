package org.jrdma.mad.umad.ffi;

import static java.lang.foreign.MemoryLayout.PathElement.groupElement;
import static java.lang.foreign.ValueLayout.JAVA_BYTE;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;
import static java.lang.foreign.ValueLayout.JAVA_SHORT;

import java.lang.foreign.MemoryLayout;
import java.lang.foreign.StructLayout;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;

/**
 * The structures and ioctl numbers of the kernel's user MAD interface, ABI version 5, as
 * {@code <rdma/ib_user_mad.h>} and libibumad's {@code <infiniband/umad.h>} declare them for
 * x86-64. Fields the kernel keeps in network byte order ({@code __be16}/{@code __be32}) are laid
 * out big-endian, so their handles read and write host values.
 *
 * <p>Every {@code read(2)} and {@code write(2)} on {@code /dev/infiniband/umadN} starts with the
 * 64-byte header {@code ib_user_mad_t} ({@code struct ib_user_mad_hdr} once
 * {@link #ENABLE_PKEY} is on), followed by the MAD:
 *
 * <pre>
 *  0 agent_id   4 status   8 timeout_ms   12 retries   16 length
 * 20 addr (struct ib_mad_addr, 44 bytes):
 *    20 qpn (be32)   24 qkey (be32)   28 lid (be16)   30 sl   31 path_bits
 *    32 grh_present  33 gid_index     34 hop_limit    35 traffic_class
 *    36 gid[16]      52 flow_label (be32)             56 pkey_index   58 reserved[6]
 * 64 the MAD
 * </pre>
 *
 * A layout test compares every size and offset here with the C headers, compiled by gcc.
 */
final class IbUserMad {
    private static final ValueLayout.OfInt BE32 = JAVA_INT.withOrder(ByteOrder.BIG_ENDIAN);
    private static final ValueLayout.OfShort BE16 = JAVA_SHORT.withOrder(ByteOrder.BIG_ENDIAN);

    /** {@code struct ib_mad_addr} ({@code ib_mad_addr_t}): where a MAD goes or came from. */
    static final StructLayout MAD_ADDR = MemoryLayout.structLayout(
            BE32.withName("qpn"),
            BE32.withName("qkey"),
            BE16.withName("lid"),
            JAVA_BYTE.withName("sl"),
            JAVA_BYTE.withName("path_bits"),
            JAVA_BYTE.withName("grh_present"),
            JAVA_BYTE.withName("gid_index"),
            JAVA_BYTE.withName("hop_limit"),
            JAVA_BYTE.withName("traffic_class"),
            MemoryLayout.sequenceLayout(16, JAVA_BYTE).withName("gid"),
            BE32.withName("flow_label"),
            JAVA_SHORT.withName("pkey_index"),
            MemoryLayout.sequenceLayout(6, JAVA_BYTE).withName("reserved"))
            .withName("ib_mad_addr");

    /** {@code ib_user_mad_t}, the header before every MAD read or written. */
    static final StructLayout USER_MAD = MemoryLayout.structLayout(
            JAVA_INT.withName("agent_id"),
            JAVA_INT.withName("status"),
            JAVA_INT.withName("timeout_ms"),
            JAVA_INT.withName("retries"),
            JAVA_INT.withName("length"),
            MAD_ADDR.withName("addr"))
            .withName("ib_user_mad");

    /**
     * {@code struct ib_user_mad_reg_req}: the agent to register. {@code method_mask} is 128 bits
     * as two {@code unsigned long} aligned to 4 bytes, bit N for method N.
     */
    static final StructLayout REG_REQ = MemoryLayout.structLayout(
            JAVA_INT.withName("id"),
            MemoryLayout.sequenceLayout(2, JAVA_LONG.withByteAlignment(4)).withName("method_mask"),
            JAVA_BYTE.withName("qpn"),
            JAVA_BYTE.withName("mgmt_class"),
            JAVA_BYTE.withName("mgmt_class_version"),
            MemoryLayout.sequenceLayout(3, JAVA_BYTE).withName("oui"),
            JAVA_BYTE.withName("rmpp_version"),
            MemoryLayout.paddingLayout(1))
            .withName("ib_user_mad_reg_req");

    static final VarHandle AGENT_ID = handle(USER_MAD, "agent_id");
    static final VarHandle STATUS = handle(USER_MAD, "status");
    static final VarHandle TIMEOUT_MS = handle(USER_MAD, "timeout_ms");
    static final VarHandle LENGTH = handle(USER_MAD, "length");
    static final VarHandle QPN = addr("qpn");
    static final VarHandle QKEY = addr("qkey");
    static final VarHandle LID = addr("lid");
    static final VarHandle SL = addr("sl");
    static final VarHandle GRH_PRESENT = addr("grh_present");
    static final VarHandle HOP_LIMIT = addr("hop_limit");
    static final VarHandle PKEY_INDEX = addr("pkey_index");
    /** Where {@code pkey_index} starts: the size of the legacy header, which ends before it. */
    static final long PKEY_INDEX_OFFSET = USER_MAD.byteOffset(groupElement("addr"), groupElement("pkey_index"));
    /** Where the 16 GID bytes of {@code addr.gid} start in the header. */
    static final long GID_OFFSET = USER_MAD.byteOffset(groupElement("addr"), groupElement("gid"));

    static final VarHandle REG_ID = handle(REG_REQ, "id");
    static final VarHandle REG_METHOD_MASK = REG_REQ.varHandle(groupElement("method_mask"),
            MemoryLayout.PathElement.sequenceElement()).withInvokeExactBehavior();
    static final VarHandle REG_QPN = handle(REG_REQ, "qpn");
    static final VarHandle REG_MGMT_CLASS = handle(REG_REQ, "mgmt_class");
    static final VarHandle REG_MGMT_CLASS_VERSION = handle(REG_REQ, "mgmt_class_version");
    static final VarHandle REG_RMPP_VERSION = handle(REG_REQ, "rmpp_version");
    /** Where the 3 OUI bytes (most significant first) start in {@code ib_user_mad_reg_req}. */
    static final long REG_OUI_OFFSET = REG_REQ.byteOffset(groupElement("oui"));

    // <asm-generic/ioctl.h>: number in bits 0-7, type in 8-15, size in 16-29, direction in 30-31.
    private static final int IOC_NONE = 0;
    private static final int IOC_WRITE = 1;
    private static final int IOC_READ = 2;
    /** {@code IB_IOCTL_MAGIC}, the ioctl type of the umad devices. */
    private static final int IOCTL_MAGIC = 0x1b;

    /** {@code IB_USER_MAD_REGISTER_AGENT = _IOWR(0x1b, 1, struct ib_user_mad_reg_req)}. */
    static final long REGISTER_AGENT = ioc(IOC_READ | IOC_WRITE, 1, REG_REQ.byteSize());
    /** {@code IB_USER_MAD_UNREGISTER_AGENT = _IOW(0x1b, 2, __u32)}. */
    static final long UNREGISTER_AGENT = ioc(IOC_WRITE, 2, JAVA_INT.byteSize());
    /** {@code IB_USER_MAD_ENABLE_PKEY = _IO(0x1b, 3)}: the header then carries {@code pkey_index}. */
    static final long ENABLE_PKEY = ioc(IOC_NONE, 3, 0);

    private IbUserMad() {
    }

    /** {@code _IOC(direction, IB_IOCTL_MAGIC, number, size)}. */
    private static long ioc(int direction, int number, long size) {
        return (long) direction << 30 | size << 16 | (long) IOCTL_MAGIC << 8 | number;
    }

    private static VarHandle handle(StructLayout layout, String name) {
        return layout.varHandle(groupElement(name)).withInvokeExactBehavior();
    }

    private static VarHandle addr(String name) {
        return USER_MAD.varHandle(groupElement("addr"), groupElement(name)).withInvokeExactBehavior();
    }
}
