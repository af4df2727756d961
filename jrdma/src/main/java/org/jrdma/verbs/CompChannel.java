package org.jrdma.verbs;

import java.time.Duration;
import org.jrdma.verbs.ffi.IbvCompChannel;

/**
 * A completion event channel, {@code struct ibv_comp_channel} ({@code ibv_create_comp_channel};
 * IBA 11.4.2.2 completion event handler): the completion queues made with it
 * ({@link Context#cq(int, CompChannel)}) signal it when armed ({@link Cq#reqNotify}) and a
 * completion arrives. python-rdma's {@code rdma.ibverbs.CompChannel}, with
 * {@link #getEvent(Duration)} in place of {@code check_poll}.
 *
 * <pre>{@code
 * cq.reqNotify(false);
 * while (cq.poll(wcs) == 0) {
 *     channel.getEvent(Duration.ofSeconds(1));  // sleeps; then re-arm and poll again
 *     cq.reqNotify(false);
 * }
 * }</pre>
 */
public final class CompChannel extends Resource {
    private final Context context;
    private final IbvCompChannel handle;
    /** The queue of the last event and its address: a channel serves one queue or few, found again without a lookup. */
    private Cq lastCq;
    private long lastCqAddress;

    private CompChannel(Context context, IbvCompChannel handle) {
        this.context = context;
        this.handle = handle;
    }

    /** {@code ibv_create_comp_channel}, registered as a dependent of {@code context}. */
    static CompChannel create(Context context) {
        CompChannel channel = new CompChannel(context, IbvCompChannel.create(context.handle()));
        channel.register(context);
        return channel;
    }

    /** The context this channel belongs to. */
    public Context context() {
        return context;
    }

    /** The file descriptor that becomes readable when an event waits ({@code channel->fd}). */
    public int fd() {
        checkOpen();
        return handle.fd();
    }

    /**
     * Waits up to {@code timeout} for a completion event ({@code ibv_get_cq_event}) and
     * acknowledges it ({@code ibv_ack_cq_events}). The CQ is disarmed by the event: call
     * {@link Cq#reqNotify} again before polling it empty. One waiting thread per channel: a
     * second may block after the first took the event. Allocates nothing once the queue has
     * signalled before.
     *
     * @return the completion queue that has completions, or null when none signalled in time
     */
    public Cq getEvent(Duration timeout) {
        checkOpen();
        long address = handle.getCqEvent(Context.millis(timeout));
        if (address == 0) {
            return null;
        }
        Cq cq = cqAt(address);
        if (cq != null) {
            cq.countEvent();
        }
        return cq;
    }

    /** The CQ at {@code address}: the last event's again without a lookup (which would box the address), else the context's. */
    private synchronized Cq cqAt(long address) {
        Cq cq = lastCq;
        if (cq == null || address != lastCqAddress || cq.isClosed()) {
            cq = context.cqAt(address);
            lastCq = cq;
            lastCqAddress = address;
        }
        return cq;
    }

    /** The native object, for a CQ made with this channel. */
    IbvCompChannel handle() {
        return handle;
    }

    @Override
    String describe() {
        return "completion channel on " + context.deviceName();
    }

    @Override
    void release() {
        handle.close();
    }
}
