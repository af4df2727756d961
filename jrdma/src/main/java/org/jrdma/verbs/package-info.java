/**
 * The verbs interface of RDMA (IBA chapter 11, libibverbs' {@code <infiniband/verbs.h>}) in the
 * object model of python-rdma's {@code rdma.ibverbs}: {@link org.jrdma.verbs.Verbs#open} gives a
 * {@link org.jrdma.verbs.Context}, which makes protection domains ({@link org.jrdma.verbs.Pd}),
 * completion queues ({@link org.jrdma.verbs.Cq}) and channels; a protection domain makes memory
 * regions ({@link org.jrdma.verbs.Mr}), queue pairs ({@link org.jrdma.verbs.Qp}), shared receive
 * queues and address handles. Every object is {@link java.lang.AutoCloseable}, closes what
 * depends on it first, and throws {@link java.lang.IllegalStateException} once closed.
 *
 * <p>The data path ({@link org.jrdma.verbs.Qp#postSend}, {@link org.jrdma.verbs.Qp#postRecv},
 * {@link org.jrdma.verbs.Cq#poll}, {@link org.jrdma.verbs.Cq#reqNotify}) calls the provider's
 * entry points in {@code struct ibv_context_ops} directly, as verbs.h's inline functions do, and
 * allocates nothing: work requests and the {@link org.jrdma.verbs.WcBuffer} are reusable.
 */
package org.jrdma.verbs;
