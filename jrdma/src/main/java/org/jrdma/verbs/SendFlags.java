package org.jrdma.verbs;

/** The flags of a send work request, the bits of {@code enum ibv_send_flags}, or-ed together. */
public final class SendFlags {
    /** {@code IBV_SEND_FENCE}: wait for earlier RDMA reads and atomics to complete first. */
    public static final int FENCE = 1;
    /** {@code IBV_SEND_SIGNALED}: produce a completion (without {@code sq_sig_all}). */
    public static final int SIGNALED = 1 << 1;
    /** {@code IBV_SEND_SOLICITED}: raise a solicited event at the receiver. */
    public static final int SOLICITED = 1 << 2;
    /** {@code IBV_SEND_INLINE}: copy the data into the request; the buffers need no lkey. */
    public static final int INLINE = 1 << 3;
    /** {@code IBV_SEND_IP_CSUM}: offload the IP checksum (raw packet and UD over Ethernet). */
    public static final int IP_CSUM = 1 << 4;

    private SendFlags() {
    }
}
