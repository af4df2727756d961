package org.jrdma.cm.ffi;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.SegmentAllocator;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.VarHandle;
import java.net.Inet4Address;
import java.net.Inet6Address;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.UnknownHostException;
import org.jrdma.iba.Gid;

/**
 * {@link Sockaddr}s as C {@code struct sockaddr_in}, {@code sockaddr_in6} and
 * {@code sockaddr_ib}, the addresses librdmacm resolves, binds to and reports.
 */
final class Sockaddrs {
    private static final VarHandle IN_FAMILY = CmStructs.handle(CmStructs.SOCKADDR_IN, "sin_family");
    private static final VarHandle IN_PORT = CmStructs.handle(CmStructs.SOCKADDR_IN, "sin_port");
    private static final long IN_ADDR = CmStructs.offset(CmStructs.SOCKADDR_IN, "sin_addr");
    private static final VarHandle IN6_PORT = CmStructs.handle(CmStructs.SOCKADDR_IN6, "sin6_port");
    private static final VarHandle IN6_SCOPE = CmStructs.handle(CmStructs.SOCKADDR_IN6, "sin6_scope_id");
    private static final long IN6_ADDR = CmStructs.offset(CmStructs.SOCKADDR_IN6, "sin6_addr");
    private static final VarHandle IB_PKEY = CmStructs.handle(CmStructs.SOCKADDR_IB, "sib_pkey");
    private static final VarHandle IB_FLOWINFO = CmStructs.handle(CmStructs.SOCKADDR_IB, "sib_flowinfo");
    private static final long IB_ADDR = CmStructs.offset(CmStructs.SOCKADDR_IB, "sib_addr");
    private static final VarHandle IB_SID = CmStructs.handle(CmStructs.SOCKADDR_IB, "sib_sid");
    private static final VarHandle IB_SID_MASK = CmStructs.handle(CmStructs.SOCKADDR_IB, "sib_sid_mask");
    private static final VarHandle IB_SCOPE = CmStructs.handle(CmStructs.SOCKADDR_IB, "sib_scope_id");
    private static final int IN6_ADDR_BYTES = 16;
    private static final int IN_ADDR_BYTES = 4;

    private Sockaddrs() {
    }

    /** {@code address} as a {@code sockaddr_storage}-sized C socket address, or {@code NULL} for null. */
    static MemorySegment of(Sockaddr address, SegmentAllocator allocator) {
        if (address == null) {
            return MemorySegment.NULL;
        }
        MemorySegment s = allocator.allocate(CmStructs.SOCKADDR_STORAGE_SIZE, 8);
        write(address, s);
        return s;
    }

    /** Writes {@code address} at the start of {@code s}, which holds a {@code sockaddr_storage}. */
    static void write(Sockaddr address, MemorySegment s) {
        switch (address) {
            case Sockaddr.Ip(InetSocketAddress ip) -> writeIp(ip, s);
            case Sockaddr.Ib ib -> {
                IN_FAMILY.set(s, 0L, (short) CmStructs.AF_IB);
                IB_PKEY.set(s, 0L, (short) ib.pkey());
                IB_FLOWINFO.set(s, 0L, ib.flowInfo());
                ib.gid().writeTo(s, IB_ADDR);
                IB_SID.set(s, 0L, ib.serviceId());
                IB_SID_MASK.set(s, 0L, ib.serviceIdMask());
                IB_SCOPE.set(s, 0L, ib.scopeId());
            }
        }
    }

    private static void writeIp(InetSocketAddress address, MemorySegment s) {
        InetAddress ip = address.getAddress();
        if (ip instanceof Inet4Address) {
            IN_FAMILY.set(s, 0L, (short) CmStructs.AF_INET);
            IN_PORT.set(s, 0L, (short) address.getPort());
            MemorySegment.copy(ip.getAddress(), 0, s, ValueLayout.JAVA_BYTE, IN_ADDR, IN_ADDR_BYTES);
        } else {
            IN_FAMILY.set(s, 0L, (short) CmStructs.AF_INET6);
            IN6_PORT.set(s, 0L, (short) address.getPort());
            MemorySegment.copy(ip.getAddress(), 0, s, ValueLayout.JAVA_BYTE, IN6_ADDR, IN6_ADDR_BYTES);
            IN6_SCOPE.set(s, 0L, ((Inet6Address) ip).getScopeId());
        }
    }

    /** The size of {@code address}'s C structure, its {@code socklen_t}. */
    static long length(Sockaddr address) {
        return switch (address) {
            case Sockaddr.Ip(InetSocketAddress ip) -> ip.getAddress() instanceof Inet4Address
                    ? CmStructs.SOCKADDR_IN.byteSize() : CmStructs.SOCKADDR_IN6.byteSize();
            case Sockaddr.Ib ib -> CmStructs.SOCKADDR_IB.byteSize();
        };
    }

    /** The address family ({@code sa_family}) at offset {@code offset} of {@code s}. */
    static int family(MemorySegment s, long offset) {
        return Short.toUnsignedInt((short) IN_FAMILY.get(s, offset));
    }

    /** The IPv4, IPv6 or IB address at offset {@code offset} of {@code s}, or null for another family (0 included). */
    static Sockaddr read(MemorySegment s, long offset) {
        int family = family(s, offset);
        MemorySegment a = s.asSlice(offset, family == CmStructs.AF_INET ? CmStructs.SOCKADDR_IN.byteSize()
                : family == CmStructs.AF_INET6 ? CmStructs.SOCKADDR_IN6.byteSize() : CmStructs.SOCKADDR_IB.byteSize());
        try {
            if (family == CmStructs.AF_INET) {
                byte[] ip = a.asSlice(IN_ADDR, IN_ADDR_BYTES).toArray(ValueLayout.JAVA_BYTE);
                return new Sockaddr.Ip(new InetSocketAddress(InetAddress.getByAddress(ip),
                        Short.toUnsignedInt((short) IN_PORT.get(a, 0L))));
            }
            if (family == CmStructs.AF_INET6) {
                byte[] ip = a.asSlice(IN6_ADDR, IN6_ADDR_BYTES).toArray(ValueLayout.JAVA_BYTE);
                int scope = (int) IN6_SCOPE.get(a, 0L);
                InetAddress address = scope == 0 ? InetAddress.getByAddress(ip) : Inet6Address.getByAddress(null, ip, scope);
                return new Sockaddr.Ip(new InetSocketAddress(address, Short.toUnsignedInt((short) IN6_PORT.get(a, 0L))));
            }
            if (family == CmStructs.AF_IB) {
                return new Sockaddr.Ib(Short.toUnsignedInt((short) IB_PKEY.get(a, 0L)), (int) IB_FLOWINFO.get(a, 0L),
                        Gid.fromSegment(a, IB_ADDR), (long) IB_SID.get(a, 0L), (long) IB_SID_MASK.get(a, 0L),
                        (long) IB_SCOPE.get(a, 0L));
            }
            return null;
        } catch (UnknownHostException e) {
            throw new IllegalStateException("4 or 16 address bytes refused", e);
        }
    }
}
