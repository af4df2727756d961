package org.jrdma.cm.ffi;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.ByteOrder;
import org.jrdma.iba.Gid;
import org.junit.jupiter.api.Test;

/**
 * The C forms jrdma writes for librdmacm without calling it: socket addresses of the three
 * families read back as written, {@code struct sockaddr_ib}'s members in network order where
 * {@code <infiniband/ib.h>} has them, and a path record packed into {@code struct
 * ibv_path_record}'s shared bit fields (IBA 15.2.5.16).
 */
class SockaddrsTest {
    private static final ValueLayout.OfShort BE16 = ValueLayout.JAVA_SHORT_UNALIGNED.withOrder(ByteOrder.BIG_ENDIAN);
    private static final ValueLayout.OfInt BE32 = ValueLayout.JAVA_INT_UNALIGNED.withOrder(ByteOrder.BIG_ENDIAN);
    private static final ValueLayout.OfLong BE64 = ValueLayout.JAVA_LONG_UNALIGNED.withOrder(ByteOrder.BIG_ENDIAN);
    private static final Gid GID = Gid.parse("fe80::98b3:d4ff:fe81:d591");

    @Test
    void everyFamilyReadsBackAsWritten() throws Exception {
        try (Arena arena = Arena.ofConfined()) {
            for (Sockaddr address : new Sockaddr[] {
                    new Sockaddr.Ip(new InetSocketAddress(InetAddress.getByName("10.0.0.1"), 7471)),
                    new Sockaddr.Ip(new InetSocketAddress(InetAddress.getByName("fd00::1"), 7472)),
                    new Sockaddr.Ib(0xFFFF, 5, GID, 0x1061D2FL, -1L, 3)}) {
                assertEquals(address, Sockaddrs.read(Sockaddrs.of(address, arena), 0));
            }
        }
    }

    @Test
    void sockaddrIbIsInNetworkOrder() {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment s = Sockaddrs.of(new Sockaddr.Ib(0x8001, 0x12345, GID, 0x1061D2FL, 0xFFFF_FFFF_FFFF_0000L, 0),
                    arena);
            assertEquals(CmStructs.AF_IB, s.get(ValueLayout.JAVA_SHORT, 0));
            assertEquals((short) 0x8001, s.get(BE16, 2));
            assertEquals(0x12345, s.get(BE32, 4));
            assertEquals(GID.prefix(), s.get(BE64, 8));
            assertEquals(0x1061D2FL, s.get(BE64, 24));
            assertEquals(0xFFFF_FFFF_FFFF_0000L, s.get(BE64, 32));
            assertEquals(CmStructs.SOCKADDR_IB.byteSize(), Sockaddrs.length(new Sockaddr.Ib(0, 0, GID, 0, 0, 0)));
        }
    }

    @Test
    void pathRecordPacksItsBitFields() {
        RawPathRec path = new RawPathRec(GID, GID, 0x12, 0x34, 0, 0x12345, 64, 32, 1, 1, 0xFFFF, 5, 2, 3, 2, 7, 2, 18, 0);
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment r = arena.allocate(CmStructs.IBV_PATH_RECORD);
            path.writeRecord(r);
            assertEquals(0L, r.get(BE64, 0), "service_id");
            assertEquals(GID.interfaceId(), r.get(BE64, 16), "dgid");
            assertEquals((short) 0x12, r.get(BE16, 40), "dlid");
            assertEquals((short) 0x34, r.get(BE16, 42), "slid");
            assertEquals(0x12345 << 8 | 64, r.get(BE32, 44), "flow label 27:8, hop limit 7:0");
            assertEquals((byte) 32, r.get(ValueLayout.JAVA_BYTE, 48), "tclass");
            assertEquals((byte) 0x81, r.get(ValueLayout.JAVA_BYTE, 49), "reversible 7, numpath 6:0");
            assertEquals((short) 0xFFFF, r.get(BE16, 50), "pkey");
            assertEquals((short) 5, r.get(BE16, 52), "sl 3:0");
            assertEquals((byte) 0x83, r.get(ValueLayout.JAVA_BYTE, 54), "mtu selector 7:6, mtu 5:0");
            assertEquals((byte) 0x87, r.get(ValueLayout.JAVA_BYTE, 55), "rate");
            assertEquals((byte) (0x80 | 18), r.get(ValueLayout.JAVA_BYTE, 56), "packet lifetime");
        }
    }
}
