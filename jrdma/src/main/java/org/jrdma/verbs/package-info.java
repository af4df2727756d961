/**
 * The verbs interface of RDMA (IBA chapter 11, libibverbs' {@code <infiniband/verbs.h>}) in the
 * object model of python-rdma's {@code rdma.ibverbs}: {@link org.jrdma.verbs.Verbs#open} gives a
 * {@link org.jrdma.verbs.Context}, which makes protection domains ({@link org.jrdma.verbs.Pd}),
 * completion queues ({@link org.jrdma.verbs.Cq}) and channels; a protection domain makes memory
 * regions ({@link org.jrdma.verbs.Mr}), queue pairs ({@link org.jrdma.verbs.Qp}), shared receive
 * queues and address handles. Every object is {@link java.lang.AutoCloseable}, closes what
 * depends on it first, and throws {@link java.lang.IllegalStateException} once closed. An object
 * dropped without being closed is not collected: its parent keeps it until the parent closes,
 * which destroys it (there is no {@link java.lang.ref.Cleaner}); a context dropped without being
 * closed keeps its kernel objects until the process exits. A thread blocked in a completion
 * channel's or an asynchronous-event wait returns with {@link java.lang.IllegalStateException}
 * within a tenth of a second when another thread closes the channel or its context.
 *
 * <p>The data path ({@link org.jrdma.verbs.Qp#postSend}, {@link org.jrdma.verbs.Qp#postRecv},
 * {@link org.jrdma.verbs.Cq#poll}, {@link org.jrdma.verbs.Cq#reqNotify}) calls the provider's
 * entry points in {@code struct ibv_context_ops} directly, as verbs.h's inline functions do, and
 * allocates nothing: work requests and the {@link org.jrdma.verbs.WcBuffer} are reusable.
 */
package org.jrdma.verbs;
