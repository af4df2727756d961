package org.jrdma.cm.ffi;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_BYTE;
import static java.lang.foreign.ValueLayout.JAVA_INT;

import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.MemorySegment;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.VarHandle;
import java.net.InetSocketAddress;
import org.jrdma.cm.ffi.RawCmEvent.RawConnParam;
import org.jrdma.ffi.Errors;
import org.jrdma.iba.Gid;
import org.jrdma.verbs.ffi.IbvQp;

/**
 * {@code struct rdma_cm_id}: a connection identifier ({@code rdma_create_id}), the RDMA
 * counterpart of a socket, and every call librdmacm makes on one. Each call returns -1 with
 * {@code errno} on failure, which becomes a {@link org.jrdma.SysException}.
 */
@SuppressWarnings("restricted")
public final class CmId extends CmObject {
    /** {@code RDMA_PS_IPOIB}. */
    public static final int PS_IPOIB = 0x0002;
    /** {@code RDMA_PS_TCP}: reliable connected, the IB CM's REQ/REP/RTU. */
    public static final int PS_TCP = 0x0106;
    /** {@code RDMA_PS_UDP}: unreliable datagram, SIDR. */
    public static final int PS_UDP = 0x0111;
    /** {@code RDMA_PS_IB}: any IB service ID, connected or datagram by the QP type. */
    public static final int PS_IB = 0x013F;

    private static final FunctionDescriptor INT_ID = FunctionDescriptor.of(JAVA_INT, ADDRESS);
    private static final FunctionDescriptor INT_ID_ADDR = FunctionDescriptor.of(JAVA_INT, ADDRESS, ADDRESS);
    private static final MethodHandle CREATE_ID = Rdmacm.function("rdma_create_id",
            FunctionDescriptor.of(JAVA_INT, ADDRESS, ADDRESS, ADDRESS, JAVA_INT), true);
    private static final MethodHandle DESTROY_ID = Rdmacm.function("rdma_destroy_id", INT_ID, true);
    private static final MethodHandle RESOLVE_ADDR = Rdmacm.function("rdma_resolve_addr",
            FunctionDescriptor.of(JAVA_INT, ADDRESS, ADDRESS, ADDRESS, JAVA_INT), true);
    private static final MethodHandle RESOLVE_ROUTE = Rdmacm.function("rdma_resolve_route",
            FunctionDescriptor.of(JAVA_INT, ADDRESS, JAVA_INT), true);
    private static final MethodHandle BIND_ADDR = Rdmacm.function("rdma_bind_addr", INT_ID_ADDR, true);
    private static final MethodHandle LISTEN = Rdmacm.function("rdma_listen",
            FunctionDescriptor.of(JAVA_INT, ADDRESS, JAVA_INT), true);
    private static final MethodHandle GET_REQUEST = Rdmacm.function("rdma_get_request", INT_ID_ADDR, true);
    private static final MethodHandle CONNECT = Rdmacm.function("rdma_connect", INT_ID_ADDR, true);
    private static final MethodHandle ACCEPT = Rdmacm.function("rdma_accept", INT_ID_ADDR, true);
    private static final MethodHandle REJECT = Rdmacm.function("rdma_reject",
            FunctionDescriptor.of(JAVA_INT, ADDRESS, ADDRESS, JAVA_BYTE), true);
    private static final MethodHandle DISCONNECT = Rdmacm.function("rdma_disconnect", INT_ID, true);
    private static final MethodHandle NOTIFY = Rdmacm.function("rdma_notify",
            FunctionDescriptor.of(JAVA_INT, ADDRESS, JAVA_INT), true);
    private static final MethodHandle ESTABLISH = Rdmacm.function("rdma_establish", INT_ID, true);
    private static final MethodHandle JOIN_MULTICAST = Rdmacm.function("rdma_join_multicast",
            FunctionDescriptor.of(JAVA_INT, ADDRESS, ADDRESS, ADDRESS), true);
    private static final MethodHandle LEAVE_MULTICAST = Rdmacm.function("rdma_leave_multicast", INT_ID_ADDR, true);
    private static final MethodHandle MIGRATE_ID = Rdmacm.function("rdma_migrate_id", INT_ID_ADDR, true);
    private static final MethodHandle CREATE_QP = Rdmacm.function("rdma_create_qp",
            FunctionDescriptor.of(JAVA_INT, ADDRESS, ADDRESS, ADDRESS), true);
    private static final MethodHandle DESTROY_QP = Rdmacm.function("rdma_destroy_qp",
            FunctionDescriptor.ofVoid(ADDRESS), false);

    private static final VarHandle VERBS = CmStructs.handle(CmStructs.RDMA_CM_ID, "verbs");
    private static final VarHandle QP = CmStructs.handle(CmStructs.RDMA_CM_ID, "qp");
    private static final VarHandle PS = CmStructs.handle(CmStructs.RDMA_CM_ID, "ps");
    private static final VarHandle PORT_NUM = CmStructs.handle(CmStructs.RDMA_CM_ID, "port_num");
    private static final VarHandle QP_TYPE = CmStructs.handle(CmStructs.RDMA_CM_ID, "qp_type");
    private static final VarHandle NUM_PATHS = CmStructs.handle(CmStructs.RDMA_CM_ID, "route.num_paths");
    private static final long SRC = CmStructs.offset(CmStructs.RDMA_CM_ID, "route.addr.src_storage");
    private static final long DST = CmStructs.offset(CmStructs.RDMA_CM_ID, "route.addr.dst_storage");
    private static final long SGID = CmStructs.offset(CmStructs.RDMA_CM_ID, "route.addr.addr.ibaddr.sgid");
    private static final long DGID = CmStructs.offset(CmStructs.RDMA_CM_ID, "route.addr.addr.ibaddr.dgid");
    private static final VarHandle PKEY = CmStructs.handle(CmStructs.RDMA_CM_ID, "route.addr.addr.ibaddr.pkey");

    private static final VarHandle P_DATA = CmStructs.handle(CmStructs.RDMA_CONN_PARAM, "private_data");
    private static final VarHandle P_LEN = CmStructs.handle(CmStructs.RDMA_CONN_PARAM, "private_data_len");
    private static final VarHandle P_RESP = CmStructs.handle(CmStructs.RDMA_CONN_PARAM, "responder_resources");
    private static final VarHandle P_INIT = CmStructs.handle(CmStructs.RDMA_CONN_PARAM, "initiator_depth");
    private static final VarHandle P_FLOW = CmStructs.handle(CmStructs.RDMA_CONN_PARAM, "flow_control");
    private static final VarHandle P_RETRY = CmStructs.handle(CmStructs.RDMA_CONN_PARAM, "retry_count");
    private static final VarHandle P_RNR = CmStructs.handle(CmStructs.RDMA_CONN_PARAM, "rnr_retry_count");
    private static final VarHandle P_SRQ = CmStructs.handle(CmStructs.RDMA_CONN_PARAM, "srq");
    private static final VarHandle P_QPN = CmStructs.handle(CmStructs.RDMA_CONN_PARAM, "qp_num");

    private CmId(MemorySegment raw) {
        super(raw, CmStructs.RDMA_CM_ID, "connection identifier");
    }

    /**
     * {@code rdma_create_id} on {@code channel}, or with none ({@code null}): then the identifier
     * is synchronous, each call waits for its own event.
     *
     * @param ps {@code enum rdma_port_space}
     */
    public static CmId create(CmEventChannel channel, int ps) {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment state = Errors.callState(arena);
            MemorySegment out = arena.allocate(ADDRESS);
            MemorySegment ch = channel == null ? MemorySegment.NULL : channel.ptr;
            Errors.notMinusOne("rdma_create_id", (int) CREATE_ID.invokeExact(state, ch, out, MemorySegment.NULL, ps), state);
            return new CmId(out.get(ADDRESS, 0));
        } catch (Throwable t) {
            throw Errors.rethrow(t);
        }
    }

    /** Takes ownership of the identifier at {@code address} that librdmacm made for a connect request. */
    public static CmId adopt(long address) {
        return new CmId(MemorySegment.ofAddress(address));
    }

    /** {@code id->verbs}: the {@code struct ibv_context} of the device it is bound to, {@code NULL} before. */
    public MemorySegment verbs() {
        return (MemorySegment) VERBS.get(ptr, 0L);
    }

    /** {@code id->qp}: the address of the queue pair made by {@code rdma_create_qp}, 0 for none. */
    public long qpAddress() {
        return ((MemorySegment) QP.get(ptr, 0L)).address();
    }

    /** {@code id->ps}. */
    public int ps() {
        return (int) PS.get(ptr, 0L);
    }

    /** {@code id->port_num}: the device port it is bound to, 0 before. */
    public int portNum() {
        return Byte.toUnsignedInt((byte) PORT_NUM.get(ptr, 0L));
    }

    /** {@code id->qp_type}: {@code enum ibv_qp_type}. */
    public int qpType() {
        return (int) QP_TYPE.get(ptr, 0L);
    }

    /** {@code id->route.num_paths}. */
    public int numPaths() {
        return (int) NUM_PATHS.get(ptr, 0L);
    }

    /** {@code rdma_get_local_addr}: the source address, or null when not IPv4 or IPv6. */
    public InetSocketAddress localAddress() {
        return Sockaddrs.read(ptr, SRC);
    }

    /** {@code rdma_get_peer_addr}: the destination address, or null when not IPv4 or IPv6. */
    public InetSocketAddress peerAddress() {
        return Sockaddrs.read(ptr, DST);
    }

    /** {@code route.addr.addr.ibaddr.sgid}. */
    public Gid sgid() {
        return Gid.fromSegment(ptr, SGID);
    }

    /** {@code route.addr.addr.ibaddr.dgid}. */
    public Gid dgid() {
        return Gid.fromSegment(ptr, DGID);
    }

    /** {@code route.addr.addr.ibaddr.pkey}. */
    public int pkey() {
        return Short.toUnsignedInt((short) PKEY.get(ptr, 0L));
    }

    /** {@code rdma_resolve_addr}; {@code src} may be null. */
    public void resolveAddr(InetSocketAddress src, InetSocketAddress dst, int timeoutMillis) {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment state = Errors.callState(arena);
            Errors.notMinusOne("rdma_resolve_addr", (int) RESOLVE_ADDR.invokeExact(state, ptr,
                    Sockaddrs.of(src, arena), Sockaddrs.of(dst, arena), timeoutMillis), state, "to " + dst);
        } catch (Throwable t) {
            throw Errors.rethrow(t);
        }
    }

    /** {@code rdma_resolve_route}. */
    public void resolveRoute(int timeoutMillis) {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment state = Errors.callState(arena);
            Errors.notMinusOne("rdma_resolve_route", (int) RESOLVE_ROUTE.invokeExact(state, ptr, timeoutMillis), state);
        } catch (Throwable t) {
            throw Errors.rethrow(t);
        }
    }

    /** {@code rdma_bind_addr}. */
    public void bindAddr(InetSocketAddress address) {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment state = Errors.callState(arena);
            Errors.notMinusOne("rdma_bind_addr", (int) BIND_ADDR.invokeExact(state, ptr, Sockaddrs.of(address, arena)),
                    state, "to " + address);
        } catch (Throwable t) {
            throw Errors.rethrow(t);
        }
    }

    /** {@code rdma_listen}. */
    public void listen(int backlog) {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment state = Errors.callState(arena);
            Errors.notMinusOne("rdma_listen", (int) LISTEN.invokeExact(state, ptr, backlog), state);
        } catch (Throwable t) {
            throw Errors.rethrow(t);
        }
    }

    /** {@code rdma_get_request} on a synchronous listening identifier: the address of the new identifier. */
    public long getRequest() {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment state = Errors.callState(arena);
            MemorySegment out = arena.allocate(ADDRESS);
            Errors.notMinusOne("rdma_get_request", (int) GET_REQUEST.invokeExact(state, ptr, out), state);
            return out.get(ADDRESS, 0).address();
        } catch (Throwable t) {
            throw Errors.rethrow(t);
        }
    }

    /** {@code rdma_connect}; {@code param} null for librdmacm's defaults. */
    public void connect(RawConnParam param) {
        withParam("rdma_connect", CONNECT, param);
    }

    /** {@code rdma_accept}; {@code param} null for librdmacm's defaults. */
    public void accept(RawConnParam param) {
        withParam("rdma_accept", ACCEPT, param);
    }

    private void withParam(String call, MethodHandle handle, RawConnParam param) {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment state = Errors.callState(arena);
            MemorySegment p = param == null ? MemorySegment.NULL : connParam(param, arena);
            Errors.notMinusOne(call, (int) handle.invokeExact(state, ptr, p), state);
        } catch (Throwable t) {
            throw Errors.rethrow(t);
        }
    }

    private static MemorySegment connParam(RawConnParam param, Arena arena) {
        MemorySegment p = arena.allocate(CmStructs.RDMA_CONN_PARAM);
        P_DATA.set(p, 0L, data(param.privateData(), arena));
        P_LEN.set(p, 0L, (byte) param.privateData().length);
        P_RESP.set(p, 0L, (byte) param.responderResources());
        P_INIT.set(p, 0L, (byte) param.initiatorDepth());
        P_FLOW.set(p, 0L, (byte) param.flowControl());
        P_RETRY.set(p, 0L, (byte) param.retryCount());
        P_RNR.set(p, 0L, (byte) param.rnrRetryCount());
        P_SRQ.set(p, 0L, (byte) param.srq());
        P_QPN.set(p, 0L, param.qpNum());
        return p;
    }

    private static MemorySegment data(byte[] bytes, Arena arena) {
        return bytes.length == 0 ? MemorySegment.NULL : arena.allocateFrom(JAVA_BYTE, bytes);
    }

    /** {@code rdma_reject} with {@code privateData} (at most 255 bytes, fewer by the CM's limits). */
    public void reject(byte[] privateData) {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment state = Errors.callState(arena);
            Errors.notMinusOne("rdma_reject", (int) REJECT.invokeExact(state, ptr, data(privateData, arena),
                    (byte) privateData.length), state);
        } catch (Throwable t) {
            throw Errors.rethrow(t);
        }
    }

    /** {@code rdma_disconnect}. */
    public void disconnect() {
        simple("rdma_disconnect", DISCONNECT);
    }

    /** {@code rdma_establish}: completes an active connection whose QP librdmacm did not make. */
    public void establish() {
        simple("rdma_establish", ESTABLISH);
    }

    private void simple(String call, MethodHandle handle) {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment state = Errors.callState(arena);
            Errors.notMinusOne(call, (int) handle.invokeExact(state, ptr), state);
        } catch (Throwable t) {
            throw Errors.rethrow(t);
        }
    }

    /** {@code rdma_notify} of {@code enum ibv_event_type} {@code event} (a QP's first receive before RTU). */
    public void notify(int event) {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment state = Errors.callState(arena);
            Errors.notMinusOne("rdma_notify", (int) NOTIFY.invokeExact(state, ptr, event), state);
        } catch (Throwable t) {
            throw Errors.rethrow(t);
        }
    }

    /** {@code rdma_join_multicast} of the group at {@code address}. */
    public void joinMulticast(InetSocketAddress address) {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment state = Errors.callState(arena);
            Errors.notMinusOne("rdma_join_multicast", (int) JOIN_MULTICAST.invokeExact(state, ptr,
                    Sockaddrs.of(address, arena), MemorySegment.NULL), state, "group " + address);
        } catch (Throwable t) {
            throw Errors.rethrow(t);
        }
    }

    /** {@code rdma_leave_multicast} of the group at {@code address}. */
    public void leaveMulticast(InetSocketAddress address) {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment state = Errors.callState(arena);
            Errors.notMinusOne("rdma_leave_multicast", (int) LEAVE_MULTICAST.invokeExact(state, ptr,
                    Sockaddrs.of(address, arena)), state, "group " + address);
        } catch (Throwable t) {
            throw Errors.rethrow(t);
        }
    }

    /** {@code rdma_migrate_id}: from now on the identifier's events go to {@code channel}. */
    public void migrate(CmEventChannel channel) {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment state = Errors.callState(arena);
            Errors.notMinusOne("rdma_migrate_id", (int) MIGRATE_ID.invokeExact(state, ptr, channel.ptr), state);
        } catch (Throwable t) {
            throw Errors.rethrow(t);
        }
    }

    /**
     * How a queue pair is made on this identifier: {@code rdma_create_qp}, which checks that the
     * protection domain is of the identifier's device and moves the QP to INIT, and
     * {@code rdma_destroy_qp}.
     */
    public IbvQp.Maker qpMaker() {
        return new IbvQp.Maker() {
            @Override
            public MemorySegment create(MemorySegment pd, MemorySegment initAttr) {
                try (Arena arena = Arena.ofConfined()) {
                    MemorySegment state = Errors.callState(arena);
                    Errors.notMinusOne("rdma_create_qp", (int) CREATE_QP.invokeExact(state, ptr, pd, initAttr), state);
                    return (MemorySegment) QP.get(ptr, 0L);
                } catch (Throwable t) {
                    throw Errors.rethrow(t);
                }
            }

            @Override
            public void destroy(MemorySegment qp) {
                try {
                    DESTROY_QP.invokeExact(ptr);
                } catch (Throwable t) {
                    throw Errors.rethrow(t);
                }
            }
        };
    }

    @Override
    void destroy(MemorySegment raw) {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment state = Errors.callState(arena);
            Errors.notMinusOne("rdma_destroy_id", (int) DESTROY_ID.invokeExact(state, raw), state);
        } catch (Throwable t) {
            throw Errors.rethrow(t);
        }
    }
}
