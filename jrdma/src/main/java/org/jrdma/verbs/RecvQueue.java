package org.jrdma.verbs;

/**
 * Where receive work requests are posted (IBA 11.4.1.2 Post Receive Request): the receive queue
 * of a {@link Qp}, or a shared receive queue ({@link Srq}). What python-rdma's helpers accept as
 * "any object with a {@code post_recv} method", for example
 * {@link org.jrdma.vtools.BufferPool#postRecvs}.
 */
public sealed interface RecvQueue permits Qp, Srq {
    /**
     * Posts {@code first} and the requests linked after it by {@link RecvWr#next}
     * ({@code ibv_post_recv} or {@code ibv_post_srq_recv}). Allocates nothing.
     *
     * @throws org.jrdma.verbs.WrException when a request could not be posted; those before it were
     */
    void postRecv(RecvWr first);

    /**
     * Copies {@code wr} (one request, no chain) into native memory of its own, to be posted
     * again and again with {@link PreparedRecv#post()}, one downcall a post and no copying.
     *
     * @throws IllegalArgumentException when {@code wr} is a chain or has more elements than the queue allows
     */
    PreparedRecv prepareRecv(RecvWr wr);
}
