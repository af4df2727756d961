package org.jrdma.cm.ffi;

import java.net.InetSocketAddress;
import java.util.Objects;
import org.jrdma.iba.Gid;

/**
 * A socket address as librdmacm takes and reports it: an IPv4 or IPv6 one ({@code struct
 * sockaddr_in}, {@code sockaddr_in6}) or an InfiniBand one ({@code struct sockaddr_ib},
 * {@code AF_IB}, from {@code <infiniband/ib.h>}).
 */
public sealed interface Sockaddr {
    /** An IPv4 or IPv6 address and port. */
    record Ip(InetSocketAddress address) implements Sockaddr {
        /** Checks that the address is resolved. */
        public Ip {
            Objects.requireNonNull(address, "address");
            if (address.isUnresolved()) {
                throw new IllegalArgumentException("unresolved address " + address);
            }
        }
    }

    /**
     * {@code struct sockaddr_ib}, its multi-byte members in network order on the wire and host
     * values here.
     *
     * @param pkey          {@code sib_pkey}, 16 bits
     * @param flowInfo      {@code sib_flowinfo}: the GRH flow label (low 20 bits)
     * @param gid           {@code sib_addr}
     * @param serviceId     {@code sib_sid}: the IB CM service ID
     * @param serviceIdMask {@code sib_sid_mask}: the bits of the service ID that count
     * @param scopeId       {@code sib_scope_id}
     */
    record Ib(int pkey, int flowInfo, Gid gid, long serviceId, long serviceIdMask, long scopeId) implements Sockaddr {
        /** Checks the GID is present. */
        public Ib {
            Objects.requireNonNull(gid, "gid");
        }
    }
}
