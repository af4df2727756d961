package org.jrdma.endpoint;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Optional;

/**
 * What an endpoint tells its peer in the connection's private data (the connect request's, or
 * the accept's): how many receives it has posted, the peer's initial credits, and where its
 * credit counter lives, 8 bytes of registered memory the peer RDMA-writes ({@link Credits}).
 * Big-endian: {@link #MAGIC} (4 bytes), receives (4), counter address (8), counter rkey (4): 20
 * bytes, all that a connect request over {@code RDMA_PS_TCP} carries (the IB CM's 92 less
 * rdma_cm's 36-byte header with the addresses; 56 per rdma_connect(3), of which we take 20).
 */
record Hello(int receives, long counterAddr, int counterRkey) {
    /** "jRDe": what tells an endpoint's private data from anyone else's (rdma_cm pads it with zeros). */
    static final int MAGIC = 0x6a524465;
    /** The bytes of a hello. */
    static final int BYTES = 20;
    /** The most receives a hello may announce, far above what an endpoint posts: a bound on bad input. */
    static final int MAX_RECEIVES = 1 << 16;

    /** The private data carrying this hello. */
    byte[] encode() {
        return ByteBuffer.allocate(BYTES).order(ByteOrder.BIG_ENDIAN)
                .putInt(MAGIC).putInt(receives).putLong(counterAddr).putInt(counterRkey).array();
    }

    /**
     * The hello in a peer's private data, or empty when it is none (a peer that is not an
     * endpoint, such as {@code rping}): shorter than {@link #BYTES}, without {@link #MAGIC}, or
     * announcing no receives or more than {@link #MAX_RECEIVES}.
     */
    static Optional<Hello> decode(byte[] privateData) {
        if (privateData == null || privateData.length < BYTES) {
            return Optional.empty();
        }
        ByteBuffer in = ByteBuffer.wrap(privateData).order(ByteOrder.BIG_ENDIAN);
        if (in.getInt() != MAGIC) {
            return Optional.empty();
        }
        Hello hello = new Hello(in.getInt(), in.getLong(), in.getInt());
        return hello.receives() > 0 && hello.receives() <= MAX_RECEIVES ? Optional.of(hello) : Optional.empty();
    }
}
