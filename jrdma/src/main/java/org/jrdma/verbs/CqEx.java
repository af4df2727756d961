package org.jrdma.verbs;

import org.jrdma.SysException;
import org.jrdma.verbs.ffi.Ibv;
import org.jrdma.verbs.ffi.IbvCqEx;

/**
 * An extended completion queue, {@code struct ibv_cq_ex} ({@code ibv_create_cq_ex}), from
 * {@link Context#cqEx}: completions are read in place, one field at a time, instead of being copied
 * into {@code struct ibv_wc}s. A poll is {@link #startPoll()}, then for each completion its
 * {@link #wrId()}, {@link #status()} and the fields asked for at creation ({@link WcFlagsEx}),
 * {@link #nextPoll()} to the next until it finds none, or {@link #endPoll()} to stop earlier:
 *
 * <pre>{@code
 * if (cq.startPoll()) {
 *     int taken = 0;
 *     do {
 *         handle(cq.wrId(), cq.status(), cq.byteLen());
 *     } while (++taken < 16 && cq.nextPoll()); // false: no more, and the poll is over
 *     if (cq.polling()) {
 *         cq.endPoll();                   // 16 taken: end it, so that their slots are free
 *     }
 * }
 * if (cq.startPoll()) {                   // or: take one completion
 *     handle(cq.wrId(), cq.status(), cq.byteLen());
 *     cq.endPoll();
 * }
 * }</pre>
 *
 * The completions a poll reads keep their slots in the queue until the poll ends: providers
 * publish their consumer index in {@code ibv_end_poll} (or, for soft-RoCE before rdma-core 55, in
 * the {@code next_poll} that finds no more). So end a poll after a bounded number of completions,
 * well below the queue's depth, when the queue pairs may go on completing work while it is read:
 * soft-RoCE fails the next completion of a queue it sees full ({@link EventType#CQ_ERR}) and moves
 * its queue pair to the error state. A ping-pong that read on while {@code ibv_next_poll} found
 * more held one poll open over a whole lap of its 511-entry queue, and its receives were flushed.
 *
 * <p>The queue is a {@link Cq} as well ({@link #cq()}, verbs.h's {@code ibv_cq_ex_to_cq}): queue pairs
 * complete on it, completion channels signal it, and closing either closes both. One thread polls
 * at a time. Nothing allocates; reading a field outside a poll, or one not asked for, throws
 * instead of reading what the provider left there.
 */
public final class CqEx implements AutoCloseable {
    private static final int ENOENT = 2;

    private final Cq cq;
    private final IbvCqEx handle;
    /** rxe's vendor ID ({@code RXE_VENDOR_ID}, 0xFFFFFF), whose {@code next_poll} ends the poll itself. */
    private static final int RXE_VENDOR_ID = 0xFFFFFF;

    private final long wcFlags;
    /**
     * The last rdma-core release whose soft-RoCE {@code next_poll} ends the poll itself when it
     * finds no more completions: it consumes the last one and unlocks, so an {@code ibv_end_poll}
     * after it, as the man page asks, would consume one completion more than there is and corrupt
     * the queue. rdma-core 55 stopped the over-consuming ("rxe: fix completion queue consumer index
     * overrun") and 61 the unlocking ("rxe: Fix double unlock in cq_ex polling"): from 55 on the
     * {@code ibv_end_poll} is needed, as for every other provider.
     */
    private static final int RXE_LAST_SELF_ENDING_RELEASE = 54;

    /**
     * Whether the provider's {@code next_poll} ends the poll when it finds no more completions
     * (soft-RoCE up to {@link #RXE_LAST_SELF_ENDING_RELEASE}); when the release is unknown, the man
     * page's rule holds.
     */
    private final boolean emptyNextEndsPoll;
    private boolean polling;

    private CqEx(Cq cq, IbvCqEx handle, long wcFlags, boolean emptyNextEndsPoll) {
        this.cq = cq;
        this.handle = handle;
        this.wcFlags = wcFlags;
        this.emptyNextEndsPoll = emptyNextEndsPoll;
    }

    /** {@code ibv_create_cq_ex}, its {@code ibv_cq} registered as {@link Cq#create} registers one. */
    static CqEx create(Context context, int cqe, CompChannel channel, int compVector, long wcFlags) {
        IbvCqEx handle;
        try {
            handle = IbvCqEx.create(context.handle(), cqe, channel == null ? null : channel.handle(), compVector,
                    wcFlags, 0);
        } catch (SysException e) {
            throw UnsupportedVerbException.translate(e, wcFlags == 0 ? "ibv_create_cq_ex"
                    : String.format("ibv_create_cq_ex with wc_flags 0x%x", wcFlags));
        }
        boolean selfEnding = context.queryDevice().vendorId() == RXE_VENDOR_ID
                && Ibv.rdmaCoreRelease().orElse(Integer.MAX_VALUE) <= RXE_LAST_SELF_ENDING_RELEASE;
        return new CqEx(Cq.adopt(context, channel, handle.cq()), handle, wcFlags, selfEnding);
    }

    /** The queue as a {@link Cq}: for queue pairs, {@code ibv_poll_cq}, events, resizing. */
    public Cq cq() {
        return cq;
    }

    /** The {@link WcFlagsEx} it was made with. */
    public long wcFlags() {
        return wcFlags;
    }

    /**
     * Begins a poll ({@code ibv_start_poll}). Allocates nothing.
     *
     * @return true when a completion is now current (end the poll with {@link #endPoll()}), false
     *         when the queue is empty (the poll is over)
     * @throws IllegalStateException if a poll is already under way, or the queue is closed
     * @throws SysException          if the provider fails (the poll is over)
     */
    public boolean startPoll() {
        if (polling) {
            throw new IllegalStateException("a poll of " + cq + " is under way: end it first");
        }
        cq.checkOpen();
        int rc = handle.startPoll();
        if (rc == 0) {
            polling = true;
            return true;
        }
        if (rc != ENOENT) {
            throw new SysException("ibv_start_poll", rc);
        }
        return false;
    }

    /** Whether a poll is under way: {@link #startPoll()} found a completion and {@link #endPoll()} was not called yet. */
    public boolean polling() {
        return polling;
    }

    /**
     * Moves to the next completion ({@code ibv_next_poll}). Allocates nothing.
     *
     * @return true when there is one; false when the queue has no more, and then the poll is over:
     *         jrdma has ended it ({@code ibv_end_poll}, unless the provider's {@code next_poll}
     *         already did, as soft-RoCE's did before rdma-core 55), and {@link #endPoll()} must not follow
     */
    public boolean nextPoll() {
        current();
        int rc = handle.nextPoll();
        if (rc == 0) {
            return true;
        }
        polling = false;
        if (!emptyNextEndsPoll) {
            handle.endPoll();
        }
        if (rc != ENOENT) {
            throw new SysException("ibv_next_poll", rc);
        }
        return false;
    }

    /**
     * Ends the poll ({@code ibv_end_poll}) after a completion was read: the completions read are
     * consumed. Allocates nothing.
     *
     * @throws IllegalStateException if no poll is under way (also after {@link #nextPoll()} returned false)
     */
    public void endPoll() {
        current();
        polling = false;
        handle.endPoll();
    }

    /** The current completion's {@code wr_id}. */
    public long wrId() {
        current();
        return handle.wrId();
    }

    /** The current completion's status. */
    public WcStatus status() {
        current();
        return WcStatus.fromValue(handle.status());
    }

    /** The current completion's opcode ({@code ibv_wc_read_opcode}). */
    public WcOpcode opcode() {
        current();
        return WcOpcode.fromValue(handle.readOpcode());
    }

    /** The vendor's error code of a failed completion ({@code ibv_wc_read_vendor_err}). */
    public int vendorErr() {
        current();
        return handle.readVendorErr();
    }

    /** Bytes received or read ({@code ibv_wc_read_byte_len}); needs {@link WcFlagsEx#BYTE_LEN}. */
    public int byteLen() {
        asked(WcFlagsEx.BYTE_LEN, "BYTE_LEN");
        return handle.readByteLen();
    }

    /** The immediate data, host order ({@code ibv_wc_read_imm_data}); needs {@link WcFlagsEx#IMM}. */
    public int immData() {
        asked(WcFlagsEx.IMM, "IMM");
        return handle.readImmData();
    }

    /** The rkey a send with invalidate invalidated ({@code ibv_wc_read_invalidated_rkey}); needs {@link WcFlagsEx#IMM}. */
    public int invalidatedRkey() {
        asked(WcFlagsEx.IMM, "IMM");
        return handle.readInvalidatedRkey();
    }

    /** The local QP number ({@code ibv_wc_read_qp_num}); needs {@link WcFlagsEx#QP_NUM}. */
    public int qpNum() {
        asked(WcFlagsEx.QP_NUM, "QP_NUM");
        return handle.readQpNum();
    }

    /** The sender's QP number ({@code ibv_wc_read_src_qp}); needs {@link WcFlagsEx#SRC_QP}. */
    public int srcQp() {
        asked(WcFlagsEx.SRC_QP, "SRC_QP");
        return handle.readSrcQp();
    }

    /** {@code enum ibv_wc_flags} of the completion ({@code ibv_wc_read_wc_flags}). */
    public int wcFlagsOfCompletion() {
        current();
        return handle.readWcFlags();
    }

    /** The sender's LID ({@code ibv_wc_read_slid}); needs {@link WcFlagsEx#SLID}. */
    public int slid() {
        asked(WcFlagsEx.SLID, "SLID");
        return handle.readSlid();
    }

    /** The service level ({@code ibv_wc_read_sl}); needs {@link WcFlagsEx#SL}. */
    public int sl() {
        asked(WcFlagsEx.SL, "SL");
        return handle.readSl();
    }

    /** The destination LID path bits ({@code ibv_wc_read_dlid_path_bits}); needs {@link WcFlagsEx#DLID_PATH_BITS}. */
    public int dlidPathBits() {
        asked(WcFlagsEx.DLID_PATH_BITS, "DLID_PATH_BITS");
        return handle.readDlidPathBits();
    }

    /** The device clock at completion ({@code ibv_wc_read_completion_ts}); needs {@link WcFlagsEx#COMPLETION_TIMESTAMP}. */
    public long completionTs() {
        asked(WcFlagsEx.COMPLETION_TIMESTAMP, "COMPLETION_TIMESTAMP");
        return handle.readCompletionTs();
    }

    /**
     * The completion time in wall-clock nanoseconds ({@code ibv_wc_read_completion_wallclock_ns});
     * needs {@link WcFlagsEx#COMPLETION_TIMESTAMP_WALLCLOCK}.
     */
    public long completionWallclockNs() {
        asked(WcFlagsEx.COMPLETION_TIMESTAMP_WALLCLOCK, "COMPLETION_TIMESTAMP_WALLCLOCK");
        return handle.readCompletionWallclockNs();
    }

    /** The customer VLAN ({@code ibv_wc_read_cvlan}); needs {@link WcFlagsEx#CVLAN}. */
    public int cvlan() {
        asked(WcFlagsEx.CVLAN, "CVLAN");
        return handle.readCvlan();
    }

    /** The flow tag ({@code ibv_wc_read_flow_tag}); needs {@link WcFlagsEx#FLOW_TAG}. */
    public int flowTag() {
        asked(WcFlagsEx.FLOW_TAG, "FLOW_TAG");
        return handle.readFlowTag();
    }

    private void current() {
        if (!polling) {
            throw new IllegalStateException("no completion is current: startPoll() first");
        }
    }

    private void asked(int flag, String name) {
        current();
        if ((wcFlags & flag) == 0) {
            throw new IllegalStateException("the CQ was not made with WcFlagsEx." + name);
        }
    }

    /** Closes the queue ({@link Cq#close()}). */
    @Override
    public void close() {
        cq.close();
    }

    @Override
    public String toString() {
        return "extended " + cq;
    }
}
