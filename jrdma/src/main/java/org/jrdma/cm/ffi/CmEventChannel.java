package org.jrdma.cm.ffi;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_BYTE;
import static java.lang.foreign.ValueLayout.JAVA_INT;

import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.MemorySegment;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.VarHandle;
import org.jrdma.cm.ffi.RawCmEvent.RawConnParam;
import org.jrdma.cm.ffi.RawCmEvent.RawUdParam;
import org.jrdma.ffi.Errors;
import org.jrdma.ffi.Libc;
import org.jrdma.iba.Gid;
import org.jrdma.verbs.ffi.IbvAhAttr;
import org.jrdma.verbs.ffi.Structs;

/**
 * {@code struct rdma_event_channel} ({@code rdma_create_event_channel}): where the events of the
 * identifiers made on it arrive, read with {@code rdma_get_cm_event} after {@code poll} said its
 * descriptor is readable, copied, and acknowledged at once ({@code rdma_ack_cm_event}), so that
 * destroying an identifier never waits for an event Java holds.
 */
@SuppressWarnings("restricted")
public final class CmEventChannel extends CmObject {
    private static final MethodHandle CREATE = Rdmacm.function("rdma_create_event_channel",
            FunctionDescriptor.of(ADDRESS), true);
    private static final MethodHandle DESTROY = Rdmacm.function("rdma_destroy_event_channel",
            FunctionDescriptor.ofVoid(ADDRESS), false);
    private static final MethodHandle GET_EVENT = Rdmacm.function("rdma_get_cm_event",
            FunctionDescriptor.of(JAVA_INT, ADDRESS, ADDRESS), true);
    private static final MethodHandle ACK_EVENT = Rdmacm.function("rdma_ack_cm_event",
            FunctionDescriptor.of(JAVA_INT, ADDRESS), true);

    private static final VarHandle FD = CmStructs.handle(CmStructs.RDMA_EVENT_CHANNEL, "fd");
    private static final VarHandle EV_ID = CmStructs.handle(CmStructs.RDMA_CM_EVENT, "id");
    private static final VarHandle EV_LISTEN_ID = CmStructs.handle(CmStructs.RDMA_CM_EVENT, "listen_id");
    private static final VarHandle EV_EVENT = CmStructs.handle(CmStructs.RDMA_CM_EVENT, "event");
    private static final VarHandle EV_STATUS = CmStructs.handle(CmStructs.RDMA_CM_EVENT, "status");
    private static final long CONN = CmStructs.offset(CmStructs.RDMA_CM_EVENT, "param.conn");
    private static final long UD = CmStructs.offset(CmStructs.RDMA_CM_EVENT, "param.ud");
    private static final VarHandle ID_PS = CmStructs.handle(CmStructs.RDMA_CM_ID, "ps");

    private static final VarHandle C_DATA = CmStructs.handle(CmStructs.RDMA_CONN_PARAM, "private_data");
    private static final VarHandle C_LEN = CmStructs.handle(CmStructs.RDMA_CONN_PARAM, "private_data_len");
    private static final VarHandle C_RESP = CmStructs.handle(CmStructs.RDMA_CONN_PARAM, "responder_resources");
    private static final VarHandle C_INIT = CmStructs.handle(CmStructs.RDMA_CONN_PARAM, "initiator_depth");
    private static final VarHandle C_FLOW = CmStructs.handle(CmStructs.RDMA_CONN_PARAM, "flow_control");
    private static final VarHandle C_RETRY = CmStructs.handle(CmStructs.RDMA_CONN_PARAM, "retry_count");
    private static final VarHandle C_RNR = CmStructs.handle(CmStructs.RDMA_CONN_PARAM, "rnr_retry_count");
    private static final VarHandle C_SRQ = CmStructs.handle(CmStructs.RDMA_CONN_PARAM, "srq");
    private static final VarHandle C_QPN = CmStructs.handle(CmStructs.RDMA_CONN_PARAM, "qp_num");

    private static final VarHandle U_DATA = CmStructs.handle(CmStructs.RDMA_UD_PARAM, "private_data");
    private static final VarHandle U_LEN = CmStructs.handle(CmStructs.RDMA_UD_PARAM, "private_data_len");
    private static final VarHandle U_QPN = CmStructs.handle(CmStructs.RDMA_UD_PARAM, "qp_num");
    private static final VarHandle U_QKEY = CmStructs.handle(CmStructs.RDMA_UD_PARAM, "qkey");
    private static final long U_AH = CmStructs.offset(CmStructs.RDMA_UD_PARAM, "ah_attr");
    private static final long AH_DGID = CmStructs.offset(Structs.IBV_AH_ATTR, "grh.dgid");
    private static final VarHandle AH_FLOW_LABEL = CmStructs.handle(Structs.IBV_AH_ATTR, "grh.flow_label");
    private static final VarHandle AH_SGID_INDEX = CmStructs.handle(Structs.IBV_AH_ATTR, "grh.sgid_index");
    private static final VarHandle AH_HOP_LIMIT = CmStructs.handle(Structs.IBV_AH_ATTR, "grh.hop_limit");
    private static final VarHandle AH_TRAFFIC_CLASS = CmStructs.handle(Structs.IBV_AH_ATTR, "grh.traffic_class");
    private static final VarHandle AH_DLID = CmStructs.handle(Structs.IBV_AH_ATTR, "dlid");
    private static final VarHandle AH_SL = CmStructs.handle(Structs.IBV_AH_ATTR, "sl");
    private static final VarHandle AH_SRC_PATH_BITS = CmStructs.handle(Structs.IBV_AH_ATTR, "src_path_bits");
    private static final VarHandle AH_STATIC_RATE = CmStructs.handle(Structs.IBV_AH_ATTR, "static_rate");
    private static final VarHandle AH_IS_GLOBAL = CmStructs.handle(Structs.IBV_AH_ATTR, "is_global");
    private static final VarHandle AH_PORT_NUM = CmStructs.handle(Structs.IBV_AH_ATTR, "port_num");

    /** {@code RDMA_CM_EVENT_MULTICAST_JOIN} and {@code _ERROR}: their parameters are UD ones whatever the port space. */
    private static final int MULTICAST_JOIN = 12;
    private static final int MULTICAST_ERROR = 13;

    private final int fd;
    /**
     * The {@code struct pollfd} and call state {@link #getEvent} polls {@link #fd} with, made once
     * (it runs in one thread at a time), so that looking for an event when none waits allocates
     * nothing: an endpoint's polling thread looks for a disconnect every few milliseconds.
     */
    private final MemorySegment pollFd = Libc.newPollFd(arena);
    private final MemorySegment pollState = Errors.callState(arena);

    private CmEventChannel(MemorySegment raw) {
        super(raw, CmStructs.RDMA_EVENT_CHANNEL, "event channel");
        this.fd = (int) FD.get(ptr, 0L);
    }

    /** {@code rdma_create_event_channel}. */
    public static CmEventChannel create() {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment state = Errors.callState(arena);
            MemorySegment raw = (MemorySegment) CREATE.invokeExact(state);
            return new CmEventChannel(Errors.nonNull("rdma_create_event_channel", raw, state));
        } catch (Throwable t) {
            throw Errors.rethrow(t);
        }
    }

    /** {@code channel->fd}: readable when an event waits. */
    public int fd() {
        return fd;
    }

    /**
     * Waits up to {@code timeoutMillis} (negative: for ever) for an event, reads it
     * ({@code rdma_get_cm_event}), copies it and acknowledges it ({@code rdma_ack_cm_event}).
     * One thread at a time.
     *
     * @return the event, or null when none came in time
     */
    public RawCmEvent getEvent(int timeoutMillis) {
        if (!Libc.pollIn(fd, timeoutMillis, pollFd, pollState)) {
            return null;
        }
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment state = Errors.callState(arena);
            MemorySegment out = arena.allocate(ADDRESS);
            Errors.notMinusOne("rdma_get_cm_event", (int) GET_EVENT.invokeExact(state, ptr, out), state);
            MemorySegment event = out.get(ADDRESS, 0).reinterpret(CmStructs.RDMA_CM_EVENT.byteSize());
            RawCmEvent copy = copy(event);
            Errors.notMinusOne("rdma_ack_cm_event", (int) ACK_EVENT.invokeExact(state, event), state);
            return copy;
        } catch (Throwable t) {
            throw Errors.rethrow(t);
        }
    }

    private static RawCmEvent copy(MemorySegment e) {
        MemorySegment id = (MemorySegment) EV_ID.get(e, 0L);
        int type = (int) EV_EVENT.get(e, 0L);
        int ps = id.address() == 0 ? 0 : (int) ID_PS.get(id.reinterpret(CmStructs.RDMA_CM_ID.byteSize()), 0L);
        boolean ud = type == MULTICAST_JOIN || type == MULTICAST_ERROR || ps == CmId.PS_UDP || ps == CmId.PS_IPOIB;
        RawConnParam conn = ud ? null : new RawConnParam(
                privateData((MemorySegment) C_DATA.get(e, CONN), (byte) C_LEN.get(e, CONN)),
                u8(C_RESP.get(e, CONN)), u8(C_INIT.get(e, CONN)), u8(C_FLOW.get(e, CONN)),
                u8(C_RETRY.get(e, CONN)), u8(C_RNR.get(e, CONN)), u8(C_SRQ.get(e, CONN)), (int) C_QPN.get(e, CONN));
        RawUdParam udParam = !ud ? null : new RawUdParam(
                privateData((MemorySegment) U_DATA.get(e, UD), (byte) U_LEN.get(e, UD)),
                ahAttr(e, UD + U_AH), (int) U_QPN.get(e, UD), (int) U_QKEY.get(e, UD));
        return new RawCmEvent(id.address(), ((MemorySegment) EV_LISTEN_ID.get(e, 0L)).address(), type,
                (int) EV_STATUS.get(e, 0L), conn, udParam);
    }

    private static byte[] privateData(MemorySegment data, byte length) {
        int n = Byte.toUnsignedInt(length);
        if (data.address() == 0 || n == 0) {
            return new byte[0];
        }
        return data.reinterpret(n).toArray(JAVA_BYTE);
    }

    private static IbvAhAttr ahAttr(MemorySegment s, long offset) {
        return new IbvAhAttr(Gid.fromSegment(s, offset + AH_DGID), (int) AH_FLOW_LABEL.get(s, offset),
                u8(AH_SGID_INDEX.get(s, offset)), u8(AH_HOP_LIMIT.get(s, offset)), u8(AH_TRAFFIC_CLASS.get(s, offset)),
                Short.toUnsignedInt((short) AH_DLID.get(s, offset)), u8(AH_SL.get(s, offset)),
                u8(AH_SRC_PATH_BITS.get(s, offset)), u8(AH_STATIC_RATE.get(s, offset)), u8(AH_IS_GLOBAL.get(s, offset)) != 0,
                u8(AH_PORT_NUM.get(s, offset)));
    }

    private static int u8(Object value) {
        return Byte.toUnsignedInt((byte) value);
    }

    @Override
    void destroy(MemorySegment raw) {
        try {
            DESTROY.invokeExact(raw);
        } catch (Throwable t) {
            throw Errors.rethrow(t);
        }
    }
}
