package org.jrdma.verbs.ffi;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_BYTE;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;
import static java.lang.foreign.ValueLayout.JAVA_SHORT;

import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.MemorySegment;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.VarHandle;
import org.jrdma.SysException;
import org.jrdma.ffi.Errors;

/**
 * {@code struct ibv_cq_ex}: an extended completion queue ({@code ibv_create_cq_ex}, an inline of
 * verbs.h calling {@code verbs_context->create_cq_ex}), polled through the provider's entry points
 * stored in the structure ({@code start_poll}, {@code next_poll}, {@code end_poll},
 * {@code read_*}), read once at creation. The queue itself is an {@link IbvCq} (verbs.h's
 * {@code ibv_cq_ex_to_cq} is a cast), which owns its lifetime: once it is closed every call here
 * fails with {@link IllegalStateException}. Nothing here allocates.
 */
@SuppressWarnings("restricted")
public final class IbvCqEx {
    /** {@code create_cq_ex}, {@code errno} captured: a control-path call, not critical. */
    private static final MethodHandle CREATE_CQ_EX = Ibv.pointerCapturingErrno(
            FunctionDescriptor.of(ADDRESS, ADDRESS, ADDRESS));
    /** {@code start_poll(cq, attr)}, the attributes by address (see {@link #startPoll}). */
    private static final MethodHandle START_POLL = Ibv.pointer(FunctionDescriptor.of(JAVA_INT, ADDRESS, JAVA_LONG));
    private static final MethodHandle INT_OF_CQ = Ibv.pointer(FunctionDescriptor.of(JAVA_INT, ADDRESS));
    /** {@link #START_POLL}, {@link #INT_OF_CQ} and {@link #VOID_OF_CQ} with the queue by address (see {@link #startPoll}). */
    private static final MethodHandle START_POLL_AT = Ibv.pointer(FunctionDescriptor.of(JAVA_INT, JAVA_LONG, JAVA_LONG));
    private static final MethodHandle INT_AT = Ibv.pointer(FunctionDescriptor.of(JAVA_INT, JAVA_LONG));
    private static final MethodHandle VOID_AT = Ibv.pointer(FunctionDescriptor.ofVoid(JAVA_LONG));
    private static final MethodHandle VOID_OF_CQ = Ibv.pointer(FunctionDescriptor.ofVoid(ADDRESS));
    private static final MethodHandle BYTE_OF_CQ = Ibv.pointer(FunctionDescriptor.of(JAVA_BYTE, ADDRESS));
    private static final MethodHandle SHORT_OF_CQ = Ibv.pointer(FunctionDescriptor.of(JAVA_SHORT, ADDRESS));
    private static final MethodHandle LONG_OF_CQ = Ibv.pointer(FunctionDescriptor.of(JAVA_LONG, ADDRESS));

    private static final VarHandle INIT_CQE = Structs.handle(StructsEx.IBV_CQ_INIT_ATTR_EX, "cqe");
    private static final VarHandle INIT_CHANNEL = Structs.handle(StructsEx.IBV_CQ_INIT_ATTR_EX, "channel");
    private static final VarHandle INIT_COMP_VECTOR = Structs.handle(StructsEx.IBV_CQ_INIT_ATTR_EX, "comp_vector");
    private static final VarHandle INIT_WC_FLAGS = Structs.handle(StructsEx.IBV_CQ_INIT_ATTR_EX, "wc_flags");
    private static final VarHandle INIT_COMP_MASK = Structs.handle(StructsEx.IBV_CQ_INIT_ATTR_EX, "comp_mask");
    private static final VarHandle INIT_FLAGS = Structs.handle(StructsEx.IBV_CQ_INIT_ATTR_EX, "flags");
    /** {@code IBV_CQ_INIT_ATTR_MASK_FLAGS}. */
    private static final int INIT_ATTR_MASK_FLAGS = 1;

    private static final VarHandle STATUS = Structs.handle(StructsEx.IBV_CQ_EX, "status");
    private static final VarHandle WR_ID = Structs.handle(StructsEx.IBV_CQ_EX, "wr_id");

    private final IbvCq cq;
    /** The {@code ibv_cq_ex}, in the arena of {@link #cq}. */
    private final MemorySegment cqEx;
    /** The thread {@link #cq} is confined to, or null when it is shared. */
    private final Thread owner;
    /** A zeroed {@code struct ibv_poll_cq_attr}, in the arena of {@link #cq}. */
    private final MemorySegment pollAttr;
    private final MemorySegment startPoll;
    private final MemorySegment nextPoll;
    private final MemorySegment endPoll;
    private final MemorySegment readOpcode;
    private final MemorySegment readVendorErr;
    private final MemorySegment readByteLen;
    private final MemorySegment readImmData;
    private final MemorySegment readQpNum;
    private final MemorySegment readSrcQp;
    private final MemorySegment readWcFlags;
    private final MemorySegment readSlid;
    private final MemorySegment readSl;
    private final MemorySegment readDlidPathBits;
    private final MemorySegment readCompletionTs;
    private final MemorySegment readCvlan;
    private final MemorySegment readFlowTag;
    private final MemorySegment readCompletionWallclockNs;

    private IbvCqEx(IbvCq cq) {
        this.cq = cq;
        this.cqEx = cq.ptr.reinterpret(StructsEx.IBV_CQ_EX.byteSize());
        this.owner = cq.isConfined() ? Thread.currentThread() : null;
        this.pollAttr = cq.arena.allocate(StructsEx.IBV_POLL_CQ_ATTR);
        startPoll = entry("start_poll");
        nextPoll = entry("next_poll");
        endPoll = entry("end_poll");
        readOpcode = entry("read_opcode");
        readVendorErr = entry("read_vendor_err");
        readByteLen = entry("read_byte_len");
        readImmData = entry("read_imm_data");
        readQpNum = entry("read_qp_num");
        readSrcQp = entry("read_src_qp");
        readWcFlags = entry("read_wc_flags");
        readSlid = entry("read_slid");
        readSl = entry("read_sl");
        readDlidPathBits = entry("read_dlid_path_bits");
        readCompletionTs = entry("read_completion_ts");
        readCvlan = entry("read_cvlan");
        readFlowTag = entry("read_flow_tag");
        readCompletionWallclockNs = entry("read_completion_wallclock_ns");
    }

    private MemorySegment entry(String name) {
        return cqEx.get(ADDRESS, Structs.offset(StructsEx.IBV_CQ_EX, name));
    }

    /**
     * verbs.h's {@code ibv_create_cq_ex} with {@code cqe}, {@code channel} (or null),
     * {@code compVector}, {@code wcFlags} ({@code enum ibv_create_cq_wc_flags}) and {@code flags}
     * ({@code enum ibv_create_cq_attr_flags}, given with {@code IBV_CQ_INIT_ATTR_MASK_FLAGS} when
     * not 0).
     *
     * @throws org.jrdma.SysException {@code EOPNOTSUPP} when the provider has no
     *                                {@code create_cq_ex}, or what it reports
     */
    public static IbvCqEx create(IbvContext context, int cqe, IbvCompChannel channel, int compVector, long wcFlags,
            int flags) {
        MemorySegment function = IbvContextEx.requireOp(context, "create_cq_ex", "ibv_create_cq_ex");
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment state = Errors.callState(arena);
            MemorySegment init = arena.allocate(StructsEx.IBV_CQ_INIT_ATTR_EX);
            INIT_CQE.set(init, 0L, cqe);
            INIT_CHANNEL.set(init, 0L, channel == null ? MemorySegment.NULL : channel.ptr);
            INIT_COMP_VECTOR.set(init, 0L, compVector);
            INIT_WC_FLAGS.set(init, 0L, wcFlags);
            INIT_COMP_MASK.set(init, 0L, flags == 0 ? 0 : INIT_ATTR_MASK_FLAGS);
            INIT_FLAGS.set(init, 0L, flags);
            MemorySegment raw = (MemorySegment) CREATE_CQ_EX.invokeExact(function, state, context.ptr, init);
            return new IbvCqEx(IbvCq.adopt(Errors.nonNull("ibv_create_cq_ex", raw, state), context));
        } catch (Throwable t) {
            throw Errors.rethrow(t);
        }
    }

    /** The queue as an {@code ibv_cq}: for queue pairs, {@code ibv_poll_cq}, events and destruction. */
    public IbvCq cq() {
        return cq;
    }

    /**
     * {@code ibv_start_poll(cq, &attr)}: 0 when a completion is current (readable until
     * {@link #endPoll}), {@code ENOENT} (2) when the queue is empty (the poll is then over), another
     * error number on failure (over as well).
     *
     * <p>The attributes go by address: they live in the queue's arena. A confined queue goes by
     * address too, after one check that this thread owns it and it is open (only this thread
     * could close it, and no Java code runs during the call); a shared one goes as a segment,
     * which keeps its arena open for the call. So is it in {@link #nextPoll} and {@link #endPoll}.
     *
     * @throws IllegalStateException if the queue is closed
     * @throws WrongThreadException  if it is confined to another thread
     */
    public int startPoll() {
        try {
            if (owner != null) {
                return (int) START_POLL_AT.invokeExact(startPoll, ownedAddress(), pollAttr.address());
            }
            return (int) START_POLL.invokeExact(startPoll, cqEx, pollAttr.address());
        } catch (Throwable t) {
            throw Errors.rethrow(t);
        }
    }

    /** {@code ibv_next_poll}: 0 when the next completion is current, {@code ENOENT} when there is none. */
    public int nextPoll() {
        try {
            if (owner != null) {
                return (int) INT_AT.invokeExact(nextPoll, ownedAddress());
            }
            return (int) INT_OF_CQ.invokeExact(nextPoll, cqEx);
        } catch (Throwable t) {
            throw Errors.rethrow(t);
        }
    }

    /** {@code ibv_end_poll}: ends a poll that {@link #startPoll} began with 0. */
    public void endPoll() {
        try {
            if (owner != null) {
                VOID_AT.invokeExact(endPoll, ownedAddress());
                return;
            }
            VOID_OF_CQ.invokeExact(endPoll, cqEx);
        } catch (Throwable t) {
            throw Errors.rethrow(t);
        }
    }

    /** The address of the confined {@link #cqEx}, once this thread is shown to own it and it is open. */
    private long ownedAddress() {
        if (Thread.currentThread() != owner) {
            throw new WrongThreadException("completion queue confined to " + owner);
        }
        if (!cqEx.scope().isAlive()) {
            throw new IllegalStateException("Already closed");
        }
        return cqEx.address();
    }

    /** {@code cq->wr_id} of the current completion. */
    public long wrId() {
        return (long) WR_ID.get(cqEx, 0L);
    }

    /** {@code cq->status} of the current completion, an {@code enum ibv_wc_status}. */
    public int status() {
        return (int) STATUS.get(cqEx, 0L);
    }

    /** {@code ibv_wc_read_opcode}. */
    public int readOpcode() {
        return readInt(readOpcode, "ibv_wc_read_opcode");
    }

    /** {@code ibv_wc_read_vendor_err}. */
    public int readVendorErr() {
        return readInt(readVendorErr, "ibv_wc_read_vendor_err");
    }

    /** {@code ibv_wc_read_byte_len}. */
    public int readByteLen() {
        return readInt(readByteLen, "ibv_wc_read_byte_len");
    }

    /** {@code ibv_wc_read_imm_data}, in host order (the C value is big-endian). */
    public int readImmData() {
        return Integer.reverseBytes(readInt(readImmData, "ibv_wc_read_imm_data"));
    }

    /** {@code ibv_wc_read_invalidated_rkey}: the same entry as the immediate data, in host order. */
    public int readInvalidatedRkey() {
        return readInt(readImmData, "ibv_wc_read_invalidated_rkey");
    }

    /** {@code ibv_wc_read_qp_num}. */
    public int readQpNum() {
        return readInt(readQpNum, "ibv_wc_read_qp_num");
    }

    /** {@code ibv_wc_read_src_qp}. */
    public int readSrcQp() {
        return readInt(readSrcQp, "ibv_wc_read_src_qp");
    }

    /** {@code ibv_wc_read_wc_flags}. */
    public int readWcFlags() {
        return readInt(readWcFlags, "ibv_wc_read_wc_flags");
    }

    /** {@code ibv_wc_read_slid}. */
    public int readSlid() {
        return readInt(readSlid, "ibv_wc_read_slid");
    }

    /** {@code ibv_wc_read_sl}. */
    public int readSl() {
        return Byte.toUnsignedInt(readByte(readSl, "ibv_wc_read_sl"));
    }

    /** {@code ibv_wc_read_dlid_path_bits}. */
    public int readDlidPathBits() {
        return Byte.toUnsignedInt(readByte(readDlidPathBits, "ibv_wc_read_dlid_path_bits"));
    }

    /** {@code ibv_wc_read_completion_ts}: the device clock when the completion was made. */
    public long readCompletionTs() {
        return readLong(readCompletionTs, "ibv_wc_read_completion_ts");
    }

    /** {@code ibv_wc_read_completion_wallclock_ns}. */
    public long readCompletionWallclockNs() {
        return readLong(readCompletionWallclockNs, "ibv_wc_read_completion_wallclock_ns");
    }

    /** {@code ibv_wc_read_cvlan}. */
    public int readCvlan() {
        try {
            check(readCvlan, "ibv_wc_read_cvlan");
            return Short.toUnsignedInt((short) SHORT_OF_CQ.invokeExact(readCvlan, cqEx));
        } catch (Throwable t) {
            throw Errors.rethrow(t);
        }
    }

    /** {@code ibv_wc_read_flow_tag}. */
    public int readFlowTag() {
        return readInt(readFlowTag, "ibv_wc_read_flow_tag");
    }

    private int readInt(MemorySegment function, String call) {
        try {
            check(function, call);
            return (int) INT_OF_CQ.invokeExact(function, cqEx);
        } catch (Throwable t) {
            throw Errors.rethrow(t);
        }
    }

    private byte readByte(MemorySegment function, String call) {
        try {
            check(function, call);
            return (byte) BYTE_OF_CQ.invokeExact(function, cqEx);
        } catch (Throwable t) {
            throw Errors.rethrow(t);
        }
    }

    private long readLong(MemorySegment function, String call) {
        try {
            check(function, call);
            return (long) LONG_OF_CQ.invokeExact(function, cqEx);
        } catch (Throwable t) {
            throw Errors.rethrow(t);
        }
    }

    /** Refuses a call through an entry the provider left empty, instead of jumping to address 0. */
    private static void check(MemorySegment function, String call) {
        if (function.address() == 0) {
            throw new SysException(call, IbvContextEx.EOPNOTSUPP);
        }
    }
}
