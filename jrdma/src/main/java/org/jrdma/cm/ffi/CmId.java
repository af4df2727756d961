package org.jrdma.cm.ffi;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_BYTE;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.MemorySegment;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.VarHandle;
import java.util.ArrayList;
import java.util.List;
import org.jrdma.cm.ffi.RawCmEvent.RawConnParam;
import org.jrdma.ffi.Errors;
import org.jrdma.iba.Gid;
import org.jrdma.verbs.ffi.IbvQp;
import org.jrdma.verbs.ffi.IbvQpAttr;
import org.jrdma.verbs.ffi.Structs;

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

    /** {@code RDMA_OPTION_ID}: options of the identifier. */
    public static final int OPTION_ID = 0;
    /** {@code RDMA_OPTION_IB}: InfiniBand options. */
    public static final int OPTION_IB = 1;
    /** {@code RDMA_OPTION_ID_TOS} ({@code uint8_t}): the type of service (RFC 2474), the GRH traffic class on RoCE. */
    public static final int OPTION_ID_TOS = 0;
    /** {@code RDMA_OPTION_ID_REUSEADDR} ({@code int}): like {@code SO_REUSEADDR}. */
    public static final int OPTION_ID_REUSEADDR = 1;
    /** {@code RDMA_OPTION_ID_AFONLY} ({@code int}): like {@code IPV6_V6ONLY}. */
    public static final int OPTION_ID_AFONLY = 2;
    /** {@code RDMA_OPTION_ID_ACK_TIMEOUT} ({@code uint8_t}): the QP's local ACK timeout, 4.096 µs × 2^value. */
    public static final int OPTION_ID_ACK_TIMEOUT = 3;
    /** {@code RDMA_OPTION_IB_PATH} ({@code struct ibv_path_data[]}). */
    public static final int OPTION_IB_PATH = 1;
    /** {@code RDMA_CM_JOIN_MC_ATTR_ADDRESS}. */
    public static final int JOIN_MC_ATTR_ADDRESS = 1;
    /** {@code RDMA_CM_JOIN_MC_ATTR_JOIN_FLAGS}. */
    public static final int JOIN_MC_ATTR_JOIN_FLAGS = 1 << 1;
    /** {@code RDMA_MC_JOIN_FLAG_FULLMEMBER}: send and receive. */
    public static final int MC_JOIN_FLAG_FULLMEMBER = 0;
    /** {@code RDMA_MC_JOIN_FLAG_SENDONLY_FULLMEMBER}: send only (IBA 15.2.5.17 JoinState bit 3). */
    public static final int MC_JOIN_FLAG_SENDONLY_FULLMEMBER = 1;
    /** {@code IBV_PATH_FLAG_GMP}. */
    public static final int PATH_FLAG_GMP = 1;
    /** {@code IBV_PATH_FLAG_PRIMARY}. */
    public static final int PATH_FLAG_PRIMARY = 1 << 1;
    /** {@code IBV_PATH_FLAG_BIDIRECTIONAL}: outbound and inbound reverse. */
    public static final int PATH_FLAG_BIDIRECTIONAL = (1 << 3) | (1 << 5);

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
    private static final MethodHandle JOIN_MULTICAST_EX = Rdmacm.function("rdma_join_multicast_ex",
            FunctionDescriptor.of(JAVA_INT, ADDRESS, ADDRESS, ADDRESS), true);
    private static final MethodHandle SET_OPTION = Rdmacm.function("rdma_set_option",
            FunctionDescriptor.of(JAVA_INT, ADDRESS, JAVA_INT, JAVA_INT, ADDRESS, JAVA_LONG), true);
    private static final MethodHandle INIT_QP_ATTR = Rdmacm.function("rdma_init_qp_attr",
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
    private static final VarHandle PATH_REC = CmStructs.handle(CmStructs.RDMA_CM_ID, "route.path_rec");
    private static final VarHandle MC_COMP_MASK = CmStructs.handle(CmStructs.RDMA_CM_JOIN_MC_ATTR_EX, "comp_mask");
    private static final VarHandle MC_JOIN_FLAGS = CmStructs.handle(CmStructs.RDMA_CM_JOIN_MC_ATTR_EX, "join_flags");
    private static final VarHandle MC_ADDR = CmStructs.handle(CmStructs.RDMA_CM_JOIN_MC_ATTR_EX, "addr");
    private static final VarHandle PD_FLAGS = CmStructs.handle(CmStructs.IBV_PATH_DATA, "flags");
    private static final long PD_PATH = CmStructs.offset(CmStructs.IBV_PATH_DATA, "path");
    private static final VarHandle QP_ATTR_STATE = CmStructs.handle(Structs.IBV_QP_ATTR, "qp_state");

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

    /** {@code rdma_get_local_addr}: the source address, or null when it has no family yet. */
    public Sockaddr localAddress() {
        return Sockaddrs.read(ptr, SRC);
    }

    /** {@code rdma_get_peer_addr}: the destination address, or null when it has no family yet. */
    public Sockaddr peerAddress() {
        return Sockaddrs.read(ptr, DST);
    }

    /**
     * {@code route.path_rec[0 .. num_paths)}: the path records of the resolved route, or of a
     * connect request's identifier.
     */
    public List<RawPathRec> pathRecords() {
        int n = numPaths();
        MemorySegment first = (MemorySegment) PATH_REC.get(ptr, 0L);
        if (n == 0 || first.address() == 0) {
            return List.of();
        }
        MemorySegment all = first.reinterpret(n * CmStructs.IBV_SA_PATH_REC.byteSize(), arena, null);
        List<RawPathRec> records = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            records.add(RawPathRec.read(all.asSlice(i * CmStructs.IBV_SA_PATH_REC.byteSize(),
                    CmStructs.IBV_SA_PATH_REC.byteSize())));
        }
        return List.copyOf(records);
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
    public void resolveAddr(Sockaddr src, Sockaddr dst, int timeoutMillis) {
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
    public void bindAddr(Sockaddr address) {
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
    public void joinMulticast(Sockaddr address) {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment state = Errors.callState(arena);
            Errors.notMinusOne("rdma_join_multicast", (int) JOIN_MULTICAST.invokeExact(state, ptr,
                    Sockaddrs.of(address, arena), MemorySegment.NULL), state, "group " + address);
        } catch (Throwable t) {
            throw Errors.rethrow(t);
        }
    }

    /**
     * {@code rdma_join_multicast_ex} of the group at {@code address} with {@code joinFlags}
     * ({@link #MC_JOIN_FLAG_FULLMEMBER} or {@link #MC_JOIN_FLAG_SENDONLY_FULLMEMBER}), both given
     * in {@code comp_mask}.
     */
    public void joinMulticastEx(Sockaddr address, int joinFlags) {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment state = Errors.callState(arena);
            MemorySegment attr = arena.allocate(CmStructs.RDMA_CM_JOIN_MC_ATTR_EX);
            MC_COMP_MASK.set(attr, 0L, JOIN_MC_ATTR_ADDRESS | JOIN_MC_ATTR_JOIN_FLAGS);
            MC_JOIN_FLAGS.set(attr, 0L, joinFlags);
            MC_ADDR.set(attr, 0L, Sockaddrs.of(address, arena));
            Errors.notMinusOne("rdma_join_multicast_ex", (int) JOIN_MULTICAST_EX.invokeExact(state, ptr, attr,
                    MemorySegment.NULL), state, "group " + address + " join flags " + joinFlags);
        } catch (Throwable t) {
            throw Errors.rethrow(t);
        }
    }

    /** {@code rdma_set_option(id, level, optname, value, length)} with {@code value}'s bytes. */
    public void setOption(int level, int optname, MemorySegment value) {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment state = Errors.callState(arena);
            Errors.notMinusOne("rdma_set_option", (int) SET_OPTION.invokeExact(state, ptr, level, optname, value,
                    value.byteSize()), state, "level " + level + " option " + optname);
        } catch (Throwable t) {
            throw Errors.rethrow(t);
        }
    }

    /** {@code rdma_set_option} of a {@code uint8_t} ({@link #OPTION_ID_TOS}, {@link #OPTION_ID_ACK_TIMEOUT}). */
    public void setOptionU8(int level, int optname, int value) {
        try (Arena arena = Arena.ofConfined()) {
            setOption(level, optname, arena.allocateFrom(JAVA_BYTE, (byte) value));
        }
    }

    /** {@code rdma_set_option} of an {@code int} ({@link #OPTION_ID_REUSEADDR}, {@link #OPTION_ID_AFONLY}). */
    public void setOptionInt(int level, int optname, int value) {
        try (Arena arena = Arena.ofConfined()) {
            setOption(level, optname, arena.allocateFrom(JAVA_INT, value));
        }
    }

    /**
     * {@code rdma_set_option(RDMA_OPTION_IB, RDMA_OPTION_IB_PATH)} of one {@code struct
     * ibv_path_data}, primary, bidirectional and GMP (the flags the kernel requires): the route
     * of an identifier whose address is resolved, in place of {@code rdma_resolve_route}.
     * ROUTE_RESOLVED follows.
     */
    public void setIbPath(RawPathRec path) {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment data = arena.allocate(CmStructs.IBV_PATH_DATA);
            PD_FLAGS.set(data, 0L, PATH_FLAG_GMP | PATH_FLAG_PRIMARY | PATH_FLAG_BIDIRECTIONAL);
            path.writeRecord(data.asSlice(PD_PATH, CmStructs.IBV_PATH_RECORD.byteSize()));
            setOption(OPTION_IB, OPTION_IB_PATH, data);
        }
    }

    /**
     * {@code rdma_init_qp_attr}: the attributes (and their {@code ibv_qp_attr_mask}) that move a
     * queue pair librdmacm did not make to state {@code qpState} for this identifier's connection.
     */
    public InitQpAttr initQpAttr(int qpState) {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment state = Errors.callState(arena);
            MemorySegment attr = arena.allocate(Structs.IBV_QP_ATTR);
            QP_ATTR_STATE.set(attr, 0L, qpState);
            MemorySegment mask = arena.allocate(JAVA_INT);
            Errors.notMinusOne("rdma_init_qp_attr", (int) INIT_QP_ATTR.invokeExact(state, ptr, attr, mask), state,
                    "for QP state " + qpState);
            return new InitQpAttr(IbvQp.readAttr(attr), mask.get(JAVA_INT, 0));
        } catch (Throwable t) {
            throw Errors.rethrow(t);
        }
    }

    /**
     * What {@link #initQpAttr} returns.
     *
     * @param attr the attributes
     * @param mask the {@code ibv_qp_attr_mask} bits of those to apply
     */
    public record InitQpAttr(IbvQpAttr attr, int mask) {
    }

    /** {@code rdma_leave_multicast} of the group at {@code address}. */
    public void leaveMulticast(Sockaddr address) {
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
