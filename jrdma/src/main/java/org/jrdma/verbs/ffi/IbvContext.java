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
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.function.BiFunction;
import org.jrdma.ffi.Errors;
import org.jrdma.iba.Gid;
import org.jrdma.iba.Guid;

/**
 * {@code struct ibv_context}: an open RDMA device ({@code ibv_open_device}), its queries, its
 * asynchronous events, and the provider's data-path entry points read once from
 * {@code context->ops}.
 */
@SuppressWarnings("restricted")
public final class IbvContext extends NativeObject {
    private static final MethodHandle GET_DEVICE_LIST = Ibv.function("ibv_get_device_list",
            FunctionDescriptor.of(ADDRESS, ADDRESS), true);
    private static final MethodHandle FREE_DEVICE_LIST = Ibv.function("ibv_free_device_list",
            FunctionDescriptor.ofVoid(ADDRESS), false);
    private static final MethodHandle GET_DEVICE_NAME = Ibv.function("ibv_get_device_name",
            FunctionDescriptor.of(ADDRESS, ADDRESS), false);
    private static final MethodHandle GET_DEVICE_GUID = Ibv.function("ibv_get_device_guid",
            FunctionDescriptor.of(JAVA_LONG, ADDRESS), false);
    private static final MethodHandle OPEN_DEVICE = Ibv.function("ibv_open_device",
            FunctionDescriptor.of(ADDRESS, ADDRESS), true);
    private static final MethodHandle CLOSE_DEVICE = Ibv.function("ibv_close_device",
            FunctionDescriptor.of(JAVA_INT, ADDRESS), false);
    private static final MethodHandle QUERY_DEVICE = Ibv.function("ibv_query_device",
            FunctionDescriptor.of(JAVA_INT, ADDRESS, ADDRESS), false);
    /** The exported compat symbol: fills only the fields up to {@code flags}. */
    private static final MethodHandle QUERY_PORT = Ibv.function("ibv_query_port",
            FunctionDescriptor.of(JAVA_INT, ADDRESS, JAVA_BYTE, ADDRESS), false);
    /** {@code verbs_context->query_port}, what verbs.h's inline {@code ibv_query_port} calls. */
    private static final MethodHandle QUERY_PORT_EX = Ibv.pointer(
            FunctionDescriptor.of(JAVA_INT, ADDRESS, JAVA_BYTE, ADDRESS, JAVA_LONG));
    private static final MethodHandle QUERY_GID = Ibv.function("ibv_query_gid",
            FunctionDescriptor.of(JAVA_INT, ADDRESS, JAVA_BYTE, JAVA_INT, ADDRESS), true);
    private static final MethodHandle QUERY_PKEY = Ibv.function("ibv_query_pkey",
            FunctionDescriptor.of(JAVA_INT, ADDRESS, JAVA_BYTE, JAVA_INT, ADDRESS), true);
    private static final MethodHandle GET_ASYNC_EVENT = Ibv.function("ibv_get_async_event",
            FunctionDescriptor.of(JAVA_INT, ADDRESS, ADDRESS), true);
    private static final MethodHandle ACK_ASYNC_EVENT = Ibv.function("ibv_ack_async_event",
            FunctionDescriptor.ofVoid(ADDRESS), false);

    private static final long ABI_IS_EXTENDED = -1L;
    private static final long CONTEXT_IN_VERBS_CONTEXT = Structs.offset(Structs.VERBS_CONTEXT, "context");
    private static final long SZ_IN_VERBS_CONTEXT = Structs.offset(Structs.VERBS_CONTEXT, "sz");
    private static final long QUERY_PORT_IN_VERBS_CONTEXT = Structs.offset(Structs.VERBS_CONTEXT, "query_port");

    private static final VarHandle ASYNC_FD = Structs.handle(Structs.IBV_CONTEXT, "async_fd");
    private static final VarHandle CMD_FD = Structs.handle(Structs.IBV_CONTEXT, "cmd_fd");
    private static final MethodHandle IMPORT_DEVICE = Ibv.function("ibv_import_device",
            FunctionDescriptor.of(ADDRESS, JAVA_INT), true);
    private static final VarHandle NUM_COMP_VECTORS = Structs.handle(Structs.IBV_CONTEXT, "num_comp_vectors");
    private static final VarHandle ABI_COMPAT = Structs.handle(Structs.IBV_CONTEXT, "abi_compat");
    private static final VarHandle OPS_POLL_CQ = Structs.handle(Structs.IBV_CONTEXT, "ops.poll_cq");
    private static final VarHandle OPS_REQ_NOTIFY_CQ = Structs.handle(Structs.IBV_CONTEXT, "ops.req_notify_cq");
    private static final VarHandle OPS_POST_SEND = Structs.handle(Structs.IBV_CONTEXT, "ops.post_send");
    private static final VarHandle OPS_POST_RECV = Structs.handle(Structs.IBV_CONTEXT, "ops.post_recv");
    private static final VarHandle OPS_POST_SRQ_RECV = Structs.handle(Structs.IBV_CONTEXT, "ops.post_srq_recv");
    private static final VarHandle DEVICE = Structs.handle(Structs.IBV_CONTEXT, "device");
    private static final long DEVICE_NAME = Structs.offset(Structs.IBV_DEVICE, "name");
    private static final VarHandle DEVICE_NODE_TYPE = Structs.handle(Structs.IBV_DEVICE, "node_type");

    // struct ibv_device_attr
    private static final VarHandle DEV_NODE_GUID = Structs.handle(Structs.IBV_DEVICE_ATTR, "node_guid");
    private static final VarHandle DEV_SYS_IMAGE_GUID = Structs.handle(Structs.IBV_DEVICE_ATTR, "sys_image_guid");
    private static final VarHandle DEV_MAX_MR_SIZE = Structs.handle(Structs.IBV_DEVICE_ATTR, "max_mr_size");
    private static final VarHandle DEV_PAGE_SIZE_CAP = Structs.handle(Structs.IBV_DEVICE_ATTR, "page_size_cap");
    private static final VarHandle DEV_VENDOR_ID = Structs.handle(Structs.IBV_DEVICE_ATTR, "vendor_id");
    private static final VarHandle DEV_VENDOR_PART_ID = Structs.handle(Structs.IBV_DEVICE_ATTR, "vendor_part_id");
    private static final VarHandle DEV_HW_VER = Structs.handle(Structs.IBV_DEVICE_ATTR, "hw_ver");
    private static final VarHandle DEV_MAX_QP = Structs.handle(Structs.IBV_DEVICE_ATTR, "max_qp");
    private static final VarHandle DEV_MAX_QP_WR = Structs.handle(Structs.IBV_DEVICE_ATTR, "max_qp_wr");
    private static final VarHandle DEV_DEVICE_CAP_FLAGS = Structs.handle(Structs.IBV_DEVICE_ATTR, "device_cap_flags");
    private static final VarHandle DEV_MAX_SGE = Structs.handle(Structs.IBV_DEVICE_ATTR, "max_sge");
    private static final VarHandle DEV_MAX_SGE_RD = Structs.handle(Structs.IBV_DEVICE_ATTR, "max_sge_rd");
    private static final VarHandle DEV_MAX_CQ = Structs.handle(Structs.IBV_DEVICE_ATTR, "max_cq");
    private static final VarHandle DEV_MAX_CQE = Structs.handle(Structs.IBV_DEVICE_ATTR, "max_cqe");
    private static final VarHandle DEV_MAX_MR = Structs.handle(Structs.IBV_DEVICE_ATTR, "max_mr");
    private static final VarHandle DEV_MAX_PD = Structs.handle(Structs.IBV_DEVICE_ATTR, "max_pd");
    private static final VarHandle DEV_MAX_QP_RD_ATOM = Structs.handle(Structs.IBV_DEVICE_ATTR, "max_qp_rd_atom");
    private static final VarHandle DEV_MAX_EE_RD_ATOM = Structs.handle(Structs.IBV_DEVICE_ATTR, "max_ee_rd_atom");
    private static final VarHandle DEV_MAX_RES_RD_ATOM = Structs.handle(Structs.IBV_DEVICE_ATTR, "max_res_rd_atom");
    private static final VarHandle DEV_MAX_QP_INIT_RD_ATOM = Structs.handle(Structs.IBV_DEVICE_ATTR, "max_qp_init_rd_atom");
    private static final VarHandle DEV_MAX_EE_INIT_RD_ATOM = Structs.handle(Structs.IBV_DEVICE_ATTR, "max_ee_init_rd_atom");
    private static final VarHandle DEV_ATOMIC_CAP = Structs.handle(Structs.IBV_DEVICE_ATTR, "atomic_cap");
    private static final VarHandle DEV_MAX_EE = Structs.handle(Structs.IBV_DEVICE_ATTR, "max_ee");
    private static final VarHandle DEV_MAX_RDD = Structs.handle(Structs.IBV_DEVICE_ATTR, "max_rdd");
    private static final VarHandle DEV_MAX_MW = Structs.handle(Structs.IBV_DEVICE_ATTR, "max_mw");
    private static final VarHandle DEV_MAX_RAW_IPV6_QP = Structs.handle(Structs.IBV_DEVICE_ATTR, "max_raw_ipv6_qp");
    private static final VarHandle DEV_MAX_RAW_ETHY_QP = Structs.handle(Structs.IBV_DEVICE_ATTR, "max_raw_ethy_qp");
    private static final VarHandle DEV_MAX_MCAST_GRP = Structs.handle(Structs.IBV_DEVICE_ATTR, "max_mcast_grp");
    private static final VarHandle DEV_MAX_MCAST_QP_ATTACH = Structs.handle(Structs.IBV_DEVICE_ATTR, "max_mcast_qp_attach");
    private static final VarHandle DEV_MAX_TOTAL_MCAST_QP_ATTACH = Structs.handle(Structs.IBV_DEVICE_ATTR, "max_total_mcast_qp_attach");
    private static final VarHandle DEV_MAX_AH = Structs.handle(Structs.IBV_DEVICE_ATTR, "max_ah");
    private static final VarHandle DEV_MAX_FMR = Structs.handle(Structs.IBV_DEVICE_ATTR, "max_fmr");
    private static final VarHandle DEV_MAX_MAP_PER_FMR = Structs.handle(Structs.IBV_DEVICE_ATTR, "max_map_per_fmr");
    private static final VarHandle DEV_MAX_SRQ = Structs.handle(Structs.IBV_DEVICE_ATTR, "max_srq");
    private static final VarHandle DEV_MAX_SRQ_WR = Structs.handle(Structs.IBV_DEVICE_ATTR, "max_srq_wr");
    private static final VarHandle DEV_MAX_SRQ_SGE = Structs.handle(Structs.IBV_DEVICE_ATTR, "max_srq_sge");
    private static final VarHandle DEV_MAX_PKEYS = Structs.handle(Structs.IBV_DEVICE_ATTR, "max_pkeys");
    private static final VarHandle DEV_LOCAL_CA_ACK_DELAY = Structs.handle(Structs.IBV_DEVICE_ATTR, "local_ca_ack_delay");
    private static final VarHandle DEV_PHYS_PORT_CNT = Structs.handle(Structs.IBV_DEVICE_ATTR, "phys_port_cnt");
    // struct ibv_port_attr
    private static final VarHandle PORT_STATE = Structs.handle(Structs.IBV_PORT_ATTR, "state");
    private static final VarHandle PORT_MAX_MTU = Structs.handle(Structs.IBV_PORT_ATTR, "max_mtu");
    private static final VarHandle PORT_ACTIVE_MTU = Structs.handle(Structs.IBV_PORT_ATTR, "active_mtu");
    private static final VarHandle PORT_GID_TBL_LEN = Structs.handle(Structs.IBV_PORT_ATTR, "gid_tbl_len");
    private static final VarHandle PORT_PORT_CAP_FLAGS = Structs.handle(Structs.IBV_PORT_ATTR, "port_cap_flags");
    private static final VarHandle PORT_MAX_MSG_SZ = Structs.handle(Structs.IBV_PORT_ATTR, "max_msg_sz");
    private static final VarHandle PORT_BAD_PKEY_CNTR = Structs.handle(Structs.IBV_PORT_ATTR, "bad_pkey_cntr");
    private static final VarHandle PORT_QKEY_VIOL_CNTR = Structs.handle(Structs.IBV_PORT_ATTR, "qkey_viol_cntr");
    private static final VarHandle PORT_PKEY_TBL_LEN = Structs.handle(Structs.IBV_PORT_ATTR, "pkey_tbl_len");
    private static final VarHandle PORT_LID = Structs.handle(Structs.IBV_PORT_ATTR, "lid");
    private static final VarHandle PORT_SM_LID = Structs.handle(Structs.IBV_PORT_ATTR, "sm_lid");
    private static final VarHandle PORT_LMC = Structs.handle(Structs.IBV_PORT_ATTR, "lmc");
    private static final VarHandle PORT_MAX_VL_NUM = Structs.handle(Structs.IBV_PORT_ATTR, "max_vl_num");
    private static final VarHandle PORT_SM_SL = Structs.handle(Structs.IBV_PORT_ATTR, "sm_sl");
    private static final VarHandle PORT_SUBNET_TIMEOUT = Structs.handle(Structs.IBV_PORT_ATTR, "subnet_timeout");
    private static final VarHandle PORT_INIT_TYPE_REPLY = Structs.handle(Structs.IBV_PORT_ATTR, "init_type_reply");
    private static final VarHandle PORT_ACTIVE_WIDTH = Structs.handle(Structs.IBV_PORT_ATTR, "active_width");
    private static final VarHandle PORT_ACTIVE_SPEED = Structs.handle(Structs.IBV_PORT_ATTR, "active_speed");
    private static final VarHandle PORT_PHYS_STATE = Structs.handle(Structs.IBV_PORT_ATTR, "phys_state");
    private static final VarHandle PORT_LINK_LAYER = Structs.handle(Structs.IBV_PORT_ATTR, "link_layer");
    private static final VarHandle PORT_FLAGS = Structs.handle(Structs.IBV_PORT_ATTR, "flags");
    private static final VarHandle PORT_PORT_CAP_FLAGS2 = Structs.handle(Structs.IBV_PORT_ATTR, "port_cap_flags2");

    private static final VarHandle EVENT_ELEMENT = Structs.handle(Structs.IBV_ASYNC_EVENT, "element.qp");
    private static final VarHandle EVENT_PORT = Structs.handle(Structs.IBV_ASYNC_EVENT, "element.port_num");
    private static final VarHandle EVENT_TYPE = Structs.handle(Structs.IBV_ASYNC_EVENT, "event_type");

    /** {@code ops.poll_cq}. */
    final MemorySegment pollCq;
    /** {@code ops.req_notify_cq}. */
    final MemorySegment reqNotifyCq;
    /** {@code ops.post_send}. */
    final MemorySegment postSend;
    /** {@code ops.post_recv}. */
    final MemorySegment postRecv;
    /** {@code ops.post_srq_recv}. */
    final MemorySegment postSrqRecv;
    private final MemorySegment queryPortEx;
    private final int asyncFd;
    /** Whether closing this object closes the device; false for a context another library opened. */
    private final boolean owned;

    private IbvContext(MemorySegment raw, String name, boolean confined, boolean owned) {
        super(raw, Structs.IBV_CONTEXT, "context of " + name, confined);
        this.owned = owned;
        pollCq = (MemorySegment) OPS_POLL_CQ.get(ptr, 0L);
        reqNotifyCq = (MemorySegment) OPS_REQ_NOTIFY_CQ.get(ptr, 0L);
        postSend = (MemorySegment) OPS_POST_SEND.get(ptr, 0L);
        postRecv = (MemorySegment) OPS_POST_RECV.get(ptr, 0L);
        postSrqRecv = (MemorySegment) OPS_POST_SRQ_RECV.get(ptr, 0L);
        asyncFd = (int) ASYNC_FD.get(ptr, 0L);
        queryPortEx = extendedQueryPort(raw);
    }

    /**
     * The {@code verbs_context->query_port} entry of the context at {@code raw}, or null: as
     * verbs.h's {@code verbs_get_ctx_op} finds it, present when the context is extended
     * ({@code abi_compat == UINTPTR_MAX}) and the library's {@code verbs_context} reaches it.
     */
    private static MemorySegment extendedQueryPort(MemorySegment raw) {
        MemorySegment context = raw.reinterpret(Structs.IBV_CONTEXT.byteSize());
        if (((MemorySegment) ABI_COMPAT.get(context, 0L)).address() != ABI_IS_EXTENDED) {
            return null;
        }
        MemorySegment verbsContext = MemorySegment.ofAddress(raw.address() - CONTEXT_IN_VERBS_CONTEXT)
                .reinterpret(Structs.VERBS_CONTEXT.byteSize());
        long sz = verbsContext.get(JAVA_LONG, SZ_IN_VERBS_CONTEXT);
        if (sz < Structs.VERBS_CONTEXT.byteSize() - QUERY_PORT_IN_VERBS_CONTEXT) {
            return null;
        }
        MemorySegment function = verbsContext.get(ADDRESS, QUERY_PORT_IN_VERBS_CONTEXT);
        return function.address() == 0 ? null : function;
    }

    /** The RDMA devices libibverbs finds ({@code ibv_get_device_list}), in its order. */
    public static List<Device> devices() {
        List<Device> devices = new ArrayList<>();
        findDevice((device, name) -> {
            devices.add(new Device(name, guid(device), (int) DEVICE_NODE_TYPE.get(device, 0L)));
            return null;
        });
        return devices;
    }

    /**
     * Opens the device named {@code name} ({@code ibv_open_device}); when {@code confined}, the
     * context and every object made from it belong to the calling thread (see {@link NativeObject}).
     *
     * @return the context, or null when no device has that name
     */
    public static IbvContext open(String name, boolean confined) {
        return findDevice((device, deviceName) -> {
            if (!deviceName.equals(name)) {
                return null;
            }
            try (Arena arena = Arena.ofConfined()) {
                MemorySegment state = Errors.callState(arena);
                MemorySegment raw = (MemorySegment) OPEN_DEVICE.invokeExact(state, device);
                return new IbvContext(Errors.nonNull("ibv_open_device", raw, state), name, confined, true);
            } catch (Throwable t) {
                throw Errors.rethrow(t);
            }
        });
    }

    /**
     * {@code ibv_import_device}: a context on the device file {@code cmdFd} that another context
     * opened (its {@link #cmdFd()}, passed to this process or duplicated), sharing its kernel
     * objects; closing it closes this context only.
     *
     * @throws org.jrdma.SysException {@code EOPNOTSUPP} when the provider cannot import a context
     */
    public static IbvContext importDevice(int cmdFd, boolean confined) {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment state = Errors.callState(arena);
            MemorySegment raw = (MemorySegment) IMPORT_DEVICE.invokeExact(state, cmdFd);
            raw = Errors.nonNull("ibv_import_device", raw, state);
            return new IbvContext(raw, deviceName(raw), confined, true);
        } catch (Throwable t) {
            throw Errors.rethrow(t);
        }
    }

    /** The name of this context's device: {@code context->device->name}. */
    public String deviceName() {
        return deviceName(ptr);
    }

    /** {@code context->cmd_fd}: the device file, which {@code ibv_import_device} takes. */
    public int cmdFd() {
        return (int) CMD_FD.get(ptr, 0L);
    }

    /**
     * The context at {@code raw} that another library opened and keeps open (librdmacm's
     * {@code cm_id->verbs}): usable from any thread, and closing it leaves the device open.
     */
    public static IbvContext borrow(MemorySegment raw) {
        return new IbvContext(raw, deviceName(raw), false, false);
    }

    /** The name of the device of the context at {@code raw}: {@code context->device->name}. */
    public static String deviceName(MemorySegment raw) {
        MemorySegment device = (MemorySegment) DEVICE.get(raw.reinterpret(Structs.IBV_CONTEXT.byteSize()), 0L);
        return device.reinterpret(Structs.IBV_DEVICE.byteSize()).getString(DEVICE_NAME, StandardCharsets.UTF_8);
    }

    /**
     * Calls {@code visitor} with each {@code struct ibv_device} and its name, in the list of
     * {@code ibv_get_device_list}, until it returns non-null; frees the list.
     *
     * @return what the visitor returned, or null when it never did
     */
    private static <T> T findDevice(BiFunction<MemorySegment, String, T> visitor) {
        MemorySegment list;
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment state = Errors.callState(arena);
            MemorySegment count = arena.allocate(JAVA_INT);
            list = Errors.nonNull("ibv_get_device_list",
                    (MemorySegment) GET_DEVICE_LIST.invokeExact(state, count), state);
            list = list.reinterpret(ADDRESS.byteSize() * ((long) count.get(JAVA_INT, 0) + 1));
        } catch (Throwable t) {
            throw Errors.rethrow(t);
        }
        try {
            for (long i = 0; ; i++) {
                MemorySegment device = list.getAtIndex(ADDRESS, i);
                if (device.address() == 0) {
                    return null;
                }
                device = device.reinterpret(Structs.IBV_DEVICE.byteSize());
                MemorySegment name = (MemorySegment) GET_DEVICE_NAME.invokeExact(device);
                T result = visitor.apply(device, name.reinterpret(Long.MAX_VALUE).getString(0, StandardCharsets.UTF_8));
                if (result != null) {
                    return result;
                }
            }
        } catch (Throwable t) {
            throw Errors.rethrow(t);
        } finally {
            try {
                FREE_DEVICE_LIST.invokeExact(list);
            } catch (Throwable t) {
                throw Errors.rethrow(t);
            }
        }
    }

    private static Guid guid(MemorySegment device) {
        try {
            long be = (long) GET_DEVICE_GUID.invokeExact(device);
            return new Guid(ByteOrder.nativeOrder() == ByteOrder.BIG_ENDIAN ? be : Long.reverseBytes(be));
        } catch (Throwable t) {
            throw Errors.rethrow(t);
        }
    }

    /** {@code context->num_comp_vectors}: the completion vectors a CQ may be given. */
    public int numCompVectors() {
        return (int) NUM_COMP_VECTORS.get(ptr, 0L);
    }

    /** {@code context->async_fd}: readable when an asynchronous event is waiting. */
    public int asyncFd() {
        return asyncFd;
    }

    /** {@code ibv_query_device}. */
    public IbvDeviceAttr queryDevice() {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment attr = arena.allocate(Structs.IBV_DEVICE_ATTR);
            Errors.zero("ibv_query_device", (int) QUERY_DEVICE.invokeExact(ptr, attr));
            return deviceAttr(attr);
        } catch (Throwable t) {
            throw Errors.rethrow(t);
        }
    }

    /** verbs.h's {@code ibv_query_port}: the full structure when the provider offers it. */
    public IbvPortAttr queryPort(int port) {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment attr = arena.allocate(Structs.IBV_PORT_ATTR);
            int rc = queryPortEx != null
                    ? (int) QUERY_PORT_EX.invokeExact(queryPortEx, ptr, (byte) port, attr, Structs.IBV_PORT_ATTR.byteSize())
                    : (int) QUERY_PORT.invokeExact(ptr, (byte) port, attr);
            Errors.zero("ibv_query_port", rc);
            return portAttr(attr);
        } catch (Throwable t) {
            throw Errors.rethrow(t);
        }
    }

    /** {@code ibv_query_gid}: entry {@code index} of port {@code port}'s GID table. */
    public Gid queryGid(int port, int index) {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment state = Errors.callState(arena);
            MemorySegment gid = arena.allocate(Structs.IBV_GID);
            Errors.notMinusOne("ibv_query_gid", (int) QUERY_GID.invokeExact(state, ptr, (byte) port, index, gid), state);
            return Gid.fromSegment(gid, 0);
        } catch (Throwable t) {
            throw Errors.rethrow(t);
        }
    }

    /** {@code ibv_query_pkey}: entry {@code index} of port {@code port}'s P_Key table. */
    public int queryPkey(int port, int index) {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment state = Errors.callState(arena);
            MemorySegment pkey = arena.allocate(JAVA_SHORT);
            Errors.notMinusOne("ibv_query_pkey", (int) QUERY_PKEY.invokeExact(state, ptr, (byte) port, index, pkey), state);
            return Short.toUnsignedInt(pkey.get(JAVA_SHORT.withOrder(ByteOrder.BIG_ENDIAN), 0));
        } catch (Throwable t) {
            throw Errors.rethrow(t);
        }
    }

    /**
     * One asynchronous event ({@code ibv_get_async_event}), acknowledged at once
     * ({@code ibv_ack_async_event}) so that destroying its object never waits for it. One
     * thread at a time: a second waiter may block in {@code read} after the first took the event.
     *
     * @param timeoutMillis how long to wait for one; negative waits for ever
     * @return the event, or null when none came in time
     * @throws IllegalStateException if this object is closed, also by another thread during the wait
     */
    public RawAsyncEvent getAsyncEvent(int timeoutMillis) {
        if (!awaitReadable(asyncFd, timeoutMillis)) {
            return null;
        }
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment state = Errors.callState(arena);
            MemorySegment event = arena.allocate(Structs.IBV_ASYNC_EVENT);
            Errors.notMinusOne("ibv_get_async_event", (int) GET_ASYNC_EVENT.invokeExact(state, ptr, event), state);
            RawAsyncEvent result = new RawAsyncEvent((int) EVENT_TYPE.get(event, 0L),
                    ((MemorySegment) EVENT_ELEMENT.get(event, 0L)).address(), (int) EVENT_PORT.get(event, 0L));
            ACK_ASYNC_EVENT.invokeExact(event);
            return result;
        } catch (Throwable t) {
            throw Errors.rethrow(t);
        }
    }

    /** A {@code struct ibv_device_attr} as a record. */
    static IbvDeviceAttr deviceAttr(MemorySegment a) {
        return new IbvDeviceAttr(a.asSlice(0, 64).getString(0, StandardCharsets.US_ASCII),
                new Guid((long) DEV_NODE_GUID.get(a, 0L)),
                new Guid((long) DEV_SYS_IMAGE_GUID.get(a, 0L)),
                (long) DEV_MAX_MR_SIZE.get(a, 0L),
                (long) DEV_PAGE_SIZE_CAP.get(a, 0L),
                (int) DEV_VENDOR_ID.get(a, 0L),
                (int) DEV_VENDOR_PART_ID.get(a, 0L),
                (int) DEV_HW_VER.get(a, 0L),
                (int) DEV_MAX_QP.get(a, 0L),
                (int) DEV_MAX_QP_WR.get(a, 0L),
                (int) DEV_DEVICE_CAP_FLAGS.get(a, 0L),
                (int) DEV_MAX_SGE.get(a, 0L),
                (int) DEV_MAX_SGE_RD.get(a, 0L),
                (int) DEV_MAX_CQ.get(a, 0L),
                (int) DEV_MAX_CQE.get(a, 0L),
                (int) DEV_MAX_MR.get(a, 0L),
                (int) DEV_MAX_PD.get(a, 0L),
                (int) DEV_MAX_QP_RD_ATOM.get(a, 0L),
                (int) DEV_MAX_EE_RD_ATOM.get(a, 0L),
                (int) DEV_MAX_RES_RD_ATOM.get(a, 0L),
                (int) DEV_MAX_QP_INIT_RD_ATOM.get(a, 0L),
                (int) DEV_MAX_EE_INIT_RD_ATOM.get(a, 0L),
                (int) DEV_ATOMIC_CAP.get(a, 0L),
                (int) DEV_MAX_EE.get(a, 0L),
                (int) DEV_MAX_RDD.get(a, 0L),
                (int) DEV_MAX_MW.get(a, 0L),
                (int) DEV_MAX_RAW_IPV6_QP.get(a, 0L),
                (int) DEV_MAX_RAW_ETHY_QP.get(a, 0L),
                (int) DEV_MAX_MCAST_GRP.get(a, 0L),
                (int) DEV_MAX_MCAST_QP_ATTACH.get(a, 0L),
                (int) DEV_MAX_TOTAL_MCAST_QP_ATTACH.get(a, 0L),
                (int) DEV_MAX_AH.get(a, 0L),
                (int) DEV_MAX_FMR.get(a, 0L),
                (int) DEV_MAX_MAP_PER_FMR.get(a, 0L),
                (int) DEV_MAX_SRQ.get(a, 0L),
                (int) DEV_MAX_SRQ_WR.get(a, 0L),
                (int) DEV_MAX_SRQ_SGE.get(a, 0L),
                Short.toUnsignedInt((short) DEV_MAX_PKEYS.get(a, 0L)),
                Byte.toUnsignedInt((byte) DEV_LOCAL_CA_ACK_DELAY.get(a, 0L)),
                Byte.toUnsignedInt((byte) DEV_PHYS_PORT_CNT.get(a, 0L)));
    }

    /** A {@code struct ibv_port_attr} as a record. */
    private static IbvPortAttr portAttr(MemorySegment a) {
        return new IbvPortAttr((int) PORT_STATE.get(a, 0L),
                (int) PORT_MAX_MTU.get(a, 0L),
                (int) PORT_ACTIVE_MTU.get(a, 0L),
                (int) PORT_GID_TBL_LEN.get(a, 0L),
                (int) PORT_PORT_CAP_FLAGS.get(a, 0L),
                Integer.toUnsignedLong((int) PORT_MAX_MSG_SZ.get(a, 0L)),
                Integer.toUnsignedLong((int) PORT_BAD_PKEY_CNTR.get(a, 0L)),
                Integer.toUnsignedLong((int) PORT_QKEY_VIOL_CNTR.get(a, 0L)),
                Short.toUnsignedInt((short) PORT_PKEY_TBL_LEN.get(a, 0L)),
                Short.toUnsignedInt((short) PORT_LID.get(a, 0L)),
                Short.toUnsignedInt((short) PORT_SM_LID.get(a, 0L)),
                Byte.toUnsignedInt((byte) PORT_LMC.get(a, 0L)),
                Byte.toUnsignedInt((byte) PORT_MAX_VL_NUM.get(a, 0L)),
                Byte.toUnsignedInt((byte) PORT_SM_SL.get(a, 0L)),
                Byte.toUnsignedInt((byte) PORT_SUBNET_TIMEOUT.get(a, 0L)),
                Byte.toUnsignedInt((byte) PORT_INIT_TYPE_REPLY.get(a, 0L)),
                Byte.toUnsignedInt((byte) PORT_ACTIVE_WIDTH.get(a, 0L)),
                Byte.toUnsignedInt((byte) PORT_ACTIVE_SPEED.get(a, 0L)),
                Byte.toUnsignedInt((byte) PORT_PHYS_STATE.get(a, 0L)),
                Byte.toUnsignedInt((byte) PORT_LINK_LAYER.get(a, 0L)),
                Byte.toUnsignedInt((byte) PORT_FLAGS.get(a, 0L)),
                Short.toUnsignedInt((short) PORT_PORT_CAP_FLAGS2.get(a, 0L)));
    }

    @Override
    void destroy(MemorySegment raw) {
        if (!owned) {
            return;
        }
        try {
            Errors.zero("ibv_close_device", (int) CLOSE_DEVICE.invokeExact(raw));
        } catch (Throwable t) {
            throw Errors.rethrow(t);
        }
    }

    /**
     * The content of a {@code struct ibv_async_event}: its {@code event_type}, and its
     * {@code element} read both as the pointer of the CQ, QP or SRQ and as the port number; the
     * type says which applies.
     *
     * @param eventType {@code enum ibv_event_type}
     * @param element   {@code element.cq}, {@code element.qp} or {@code element.srq}
     * @param portNum   {@code element.port_num}
     */
    public record RawAsyncEvent(int eventType, long element, int portNum) {
    }

    /**
     * An entry of {@code ibv_get_device_list}.
     *
     * @param name     {@code ibv_get_device_name}
     * @param nodeGuid {@code ibv_get_device_guid}, in host order
     * @param nodeType {@code device->node_type}, an {@code enum ibv_node_type}
     */
    public record Device(String name, Guid nodeGuid, int nodeType) {
    }
}
