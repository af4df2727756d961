package org.jrdma.cm.ffi;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_BYTE;
import static java.lang.foreign.ValueLayout.JAVA_INT;

import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.VarHandle;
import java.util.ArrayList;
import java.util.List;
import org.jrdma.RdmaException;
import org.jrdma.ffi.Errors;

/**
 * {@code rdma_getaddrinfo} and {@code rdma_freeaddrinfo}: librdmacm's getaddrinfo(3), which
 * turns a node and service into the addresses, port space and QP type to make an identifier with
 * (and, with ibacm, a route). Its answers are copied and freed at once.
 */
@SuppressWarnings("restricted")
public final class CmAddrInfo {
    /** {@code RAI_PASSIVE}: the answer is for a listener (a source address). */
    public static final int RAI_PASSIVE = 0x1;
    /** {@code RAI_NUMERICHOST}: the node is a numeric address, no name lookup. */
    public static final int RAI_NUMERICHOST = 0x2;
    /** {@code RAI_NOROUTE}: no route resolution. */
    public static final int RAI_NOROUTE = 0x4;
    /** {@code RAI_FAMILY}: {@code ai_family} of the hints says how to read the node ({@code AF_IB}: an IPv6-form GID). */
    public static final int RAI_FAMILY = 0x8;

    private static final MethodHandle GETADDRINFO = Rdmacm.function("rdma_getaddrinfo",
            FunctionDescriptor.of(JAVA_INT, ADDRESS, ADDRESS, ADDRESS, ADDRESS), true);
    private static final MethodHandle FREEADDRINFO = Rdmacm.function("rdma_freeaddrinfo",
            FunctionDescriptor.ofVoid(ADDRESS), false);
    private static final MethodHandle GAI_STRERROR = Linker.nativeLinker().downcallHandle(
            Linker.nativeLinker().defaultLookup().find("gai_strerror").orElseThrow(),
            FunctionDescriptor.of(ADDRESS, JAVA_INT));

    private static final VarHandle FLAGS = CmStructs.handle(CmStructs.RDMA_ADDRINFO, "ai_flags");
    private static final VarHandle FAMILY = CmStructs.handle(CmStructs.RDMA_ADDRINFO, "ai_family");
    private static final VarHandle QP_TYPE = CmStructs.handle(CmStructs.RDMA_ADDRINFO, "ai_qp_type");
    private static final VarHandle PORT_SPACE = CmStructs.handle(CmStructs.RDMA_ADDRINFO, "ai_port_space");
    private static final VarHandle SRC_LEN = CmStructs.handle(CmStructs.RDMA_ADDRINFO, "ai_src_len");
    private static final VarHandle DST_LEN = CmStructs.handle(CmStructs.RDMA_ADDRINFO, "ai_dst_len");
    private static final VarHandle SRC_ADDR = CmStructs.handle(CmStructs.RDMA_ADDRINFO, "ai_src_addr");
    private static final VarHandle DST_ADDR = CmStructs.handle(CmStructs.RDMA_ADDRINFO, "ai_dst_addr");
    private static final VarHandle SRC_CANON = CmStructs.handle(CmStructs.RDMA_ADDRINFO, "ai_src_canonname");
    private static final VarHandle DST_CANON = CmStructs.handle(CmStructs.RDMA_ADDRINFO, "ai_dst_canonname");
    private static final VarHandle ROUTE_LEN = CmStructs.handle(CmStructs.RDMA_ADDRINFO, "ai_route_len");
    private static final VarHandle ROUTE = CmStructs.handle(CmStructs.RDMA_ADDRINFO, "ai_route");
    private static final VarHandle CONNECT_LEN = CmStructs.handle(CmStructs.RDMA_ADDRINFO, "ai_connect_len");
    private static final VarHandle CONNECT = CmStructs.handle(CmStructs.RDMA_ADDRINFO, "ai_connect");
    private static final VarHandle NEXT = CmStructs.handle(CmStructs.RDMA_ADDRINFO, "ai_next");

    private CmAddrInfo() {
    }

    /**
     * A failure of {@code rdma_getaddrinfo} reported by getaddrinfo(3)'s own code ({@code EAI_*},
     * negative), not by {@code errno}.
     */
    public static final class GaiException extends RdmaException {
        private static final long serialVersionUID = 1L;
        private final int code;

        GaiException(int code, String detail) {
            super("rdma_getaddrinfo " + detail + ": " + gaiStrerror(code) + " (EAI code " + code + ")");
            this.code = code;
        }

        /** The {@code EAI_*} code, negative. */
        public int code() {
            return code;
        }
    }

    /**
     * {@code rdma_getaddrinfo(node, service, hints, &res)}, every answer of the list, then
     * {@code rdma_freeaddrinfo}.
     *
     * @param node    a host name or numeric address, or null
     * @param service a port number or service name, or null
     * @param hints   the hints, or null
     * @throws GaiException              when getaddrinfo(3) failed
     * @throws org.jrdma.SysException    when librdmacm failed with {@code errno}
     */
    public static List<RawAddrInfo> get(String node, String service, RawAddrInfo hints) {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment state = Errors.callState(arena);
            MemorySegment out = arena.allocate(ADDRESS);
            MemorySegment h = hints == null ? MemorySegment.NULL : hints(hints, arena);
            int ret = (int) GETADDRINFO.invokeExact(state, string(node, arena), string(service, arena), h, out);
            String detail = "of node " + node + " service " + service;
            if (ret == -1) {
                Errors.notMinusOne("rdma_getaddrinfo", ret, state, detail);
            } else if (ret != 0) {
                throw new GaiException(ret, detail);
            }
            MemorySegment first = out.get(ADDRESS, 0);
            try {
                List<RawAddrInfo> all = new ArrayList<>();
                for (MemorySegment ai = first; ai.address() != 0; ai = (MemorySegment) NEXT.get(ai, 0L)) {
                    ai = ai.reinterpret(CmStructs.RDMA_ADDRINFO.byteSize());
                    all.add(read(ai));
                }
                return List.copyOf(all);
            } finally {
                FREEADDRINFO.invokeExact(first);
            }
        } catch (Throwable t) {
            throw Errors.rethrow(t);
        }
    }

    private static MemorySegment hints(RawAddrInfo hints, Arena arena) {
        MemorySegment h = arena.allocate(CmStructs.RDMA_ADDRINFO);
        FLAGS.set(h, 0L, hints.flags());
        FAMILY.set(h, 0L, hints.family());
        QP_TYPE.set(h, 0L, hints.qpType());
        PORT_SPACE.set(h, 0L, hints.portSpace());
        if (hints.src() != null) {
            SRC_ADDR.set(h, 0L, Sockaddrs.of(hints.src(), arena));
            SRC_LEN.set(h, 0L, (int) Sockaddrs.length(hints.src()));
        }
        if (hints.dst() != null) {
            DST_ADDR.set(h, 0L, Sockaddrs.of(hints.dst(), arena));
            DST_LEN.set(h, 0L, (int) Sockaddrs.length(hints.dst()));
        }
        return h;
    }

    private static RawAddrInfo read(MemorySegment ai) {
        return new RawAddrInfo((int) FLAGS.get(ai, 0L), (int) FAMILY.get(ai, 0L), (int) QP_TYPE.get(ai, 0L),
                (int) PORT_SPACE.get(ai, 0L), address((MemorySegment) SRC_ADDR.get(ai, 0L), (int) SRC_LEN.get(ai, 0L)),
                address((MemorySegment) DST_ADDR.get(ai, 0L), (int) DST_LEN.get(ai, 0L)),
                text((MemorySegment) SRC_CANON.get(ai, 0L)), text((MemorySegment) DST_CANON.get(ai, 0L)),
                bytes((MemorySegment) ROUTE.get(ai, 0L), (long) ROUTE_LEN.get(ai, 0L)),
                bytes((MemorySegment) CONNECT.get(ai, 0L), (long) CONNECT_LEN.get(ai, 0L)));
    }

    private static Sockaddr address(MemorySegment p, int length) {
        return p.address() == 0 || length == 0 ? null : Sockaddrs.read(p.reinterpret(length), 0);
    }

    private static String text(MemorySegment p) {
        return p.address() == 0 ? null : p.reinterpret(Long.MAX_VALUE).getString(0);
    }

    private static byte[] bytes(MemorySegment p, long length) {
        return p.address() == 0 || length == 0 ? new byte[0] : p.reinterpret(length).toArray(JAVA_BYTE);
    }

    private static MemorySegment string(String s, Arena arena) {
        return s == null ? MemorySegment.NULL : arena.allocateFrom(s);
    }

    private static String gaiStrerror(int code) {
        try {
            return ((MemorySegment) GAI_STRERROR.invokeExact(code)).reinterpret(Long.MAX_VALUE).getString(0);
        } catch (Throwable t) {
            throw Errors.rethrow(t);
        }
    }
}
