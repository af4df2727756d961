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

/**
 * Java socket addresses as C {@code struct sockaddr_in} and {@code struct sockaddr_in6}, the
 * addresses librdmacm resolves, binds to and reports.
 */
final class Sockaddrs {
    private static final VarHandle IN_FAMILY = CmStructs.handle(CmStructs.SOCKADDR_IN, "sin_family");
    private static final VarHandle IN_PORT = CmStructs.handle(CmStructs.SOCKADDR_IN, "sin_port");
    private static final long IN_ADDR = CmStructs.offset(CmStructs.SOCKADDR_IN, "sin_addr");
    private static final VarHandle IN6_PORT = CmStructs.handle(CmStructs.SOCKADDR_IN6, "sin6_port");
    private static final VarHandle IN6_SCOPE = CmStructs.handle(CmStructs.SOCKADDR_IN6, "sin6_scope_id");
    private static final long IN6_ADDR = CmStructs.offset(CmStructs.SOCKADDR_IN6, "sin6_addr");
    private static final int IN6_ADDR_BYTES = 16;
    private static final int IN_ADDR_BYTES = 4;

    private Sockaddrs() {
    }

    /** {@code address} as a {@code sockaddr_storage}-sized C socket address, or {@code NULL} for null. */
    static MemorySegment of(InetSocketAddress address, SegmentAllocator allocator) {
        if (address == null) {
            return MemorySegment.NULL;
        }
        if (address.isUnresolved()) {
            throw new IllegalArgumentException("unresolved address " + address);
        }
        MemorySegment s = allocator.allocate(CmStructs.SOCKADDR_STORAGE_SIZE, 8);
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
        return s;
    }

    /** The IPv4 or IPv6 address at offset {@code offset} of {@code s}, or null for another family (none yet). */
    static InetSocketAddress read(MemorySegment s, long offset) {
        MemorySegment a = s.asSlice(offset, CmStructs.SOCKADDR_STORAGE_SIZE);
        int family = Short.toUnsignedInt((short) IN_FAMILY.get(a, 0L));
        try {
            if (family == CmStructs.AF_INET) {
                byte[] ip = a.asSlice(IN_ADDR, IN_ADDR_BYTES).toArray(ValueLayout.JAVA_BYTE);
                return new InetSocketAddress(InetAddress.getByAddress(ip), Short.toUnsignedInt((short) IN_PORT.get(a, 0L)));
            }
            if (family == CmStructs.AF_INET6) {
                byte[] ip = a.asSlice(IN6_ADDR, IN6_ADDR_BYTES).toArray(ValueLayout.JAVA_BYTE);
                int scope = (int) IN6_SCOPE.get(a, 0L);
                InetAddress address = scope == 0 ? InetAddress.getByAddress(ip) : Inet6Address.getByAddress(null, ip, scope);
                return new InetSocketAddress(address, Short.toUnsignedInt((short) IN6_PORT.get(a, 0L)));
            }
            return null;
        } catch (UnknownHostException e) {
            throw new IllegalStateException("4 or 16 address bytes refused", e);
        }
    }
}
