package org.jrdma.verbs.ffi;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_BYTE;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_INT_UNALIGNED;
import static java.lang.foreign.ValueLayout.JAVA_LONG;
import static java.lang.foreign.ValueLayout.JAVA_LONG_UNALIGNED;
import static java.lang.foreign.ValueLayout.JAVA_SHORT_UNALIGNED;

import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.MemoryLayout;
import java.lang.foreign.MemorySegment;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.VarHandle;
import java.util.ArrayList;
import java.util.List;
import org.jrdma.SysException;
import org.jrdma.ffi.Errors;
import org.jrdma.iba.Gid;

/**
 * The extended queries of an open device: {@code ibv_query_device_ex} and
 * {@code ibv_query_rt_values_ex} (verbs.h inlines that call {@code verbs_context->query_device_ex}
 * and {@code ->query_rt_values}), {@code ibv_query_gid_ex} and {@code ibv_query_gid_table}
 * (exported as {@code _ibv_query_gid_ex} and {@code _ibv_query_gid_table}), and the lookup of
 * any {@code struct verbs_context} entry as verbs.h's {@code verbs_get_ctx_op} does it.
 */
@SuppressWarnings("restricted")
public final class IbvContextEx {
    /** {@code EOPNOTSUPP}: what verbs.h's inlines report when the provider lacks an entry point. */
    public static final int EOPNOTSUPP = 95;
    /** {@code ENOSYS}: what some providers return for an entry point they stub. */
    public static final int ENOSYS = 38;

    private static final long ABI_IS_EXTENDED = -1L;
    private static final long CONTEXT_IN_VERBS_CONTEXT = Structs.offset(StructsEx.VERBS_CONTEXT, "context");
    private static final long SZ_IN_VERBS_CONTEXT = Structs.offset(StructsEx.VERBS_CONTEXT, "sz");
    private static final VarHandle ABI_COMPAT = Structs.handle(Structs.IBV_CONTEXT, "abi_compat");

    private static final MethodHandle QUERY_DEVICE_EX = Ibv.pointer(
            FunctionDescriptor.of(JAVA_INT, ADDRESS, ADDRESS, ADDRESS, JAVA_LONG));
    private static final MethodHandle QUERY_RT_VALUES = Ibv.pointer(FunctionDescriptor.of(JAVA_INT, ADDRESS, ADDRESS));
    private static final MethodHandle QUERY_GID_EX = Ibv.function("_ibv_query_gid_ex",
            FunctionDescriptor.of(JAVA_INT, ADDRESS, JAVA_INT, JAVA_INT, ADDRESS, JAVA_INT, JAVA_LONG), false);
    private static final MethodHandle QUERY_GID_TABLE = Ibv.function("_ibv_query_gid_table",
            FunctionDescriptor.of(JAVA_LONG, ADDRESS, ADDRESS, JAVA_LONG, JAVA_INT, JAVA_LONG), false);
    private static final MethodHandle QUERY_DEVICE = Ibv.function("ibv_query_device",
            FunctionDescriptor.of(JAVA_INT, ADDRESS, ADDRESS), false);

    private static final VarHandle VALUES_COMP_MASK = Structs.handle(StructsEx.IBV_VALUES_EX, "comp_mask");
    private static final VarHandle VALUES_SEC = Structs.handle(StructsEx.IBV_VALUES_EX, "raw_clock.tv_sec");
    private static final VarHandle VALUES_NSEC = Structs.handle(StructsEx.IBV_VALUES_EX, "raw_clock.tv_nsec");
    /** {@code IBV_VALUES_MASK_RAW_CLOCK}. */
    private static final int VALUES_MASK_RAW_CLOCK = 1;

    private static final long GID_ENTRY_GID = Structs.offset(StructsEx.IBV_GID_ENTRY, "gid");
    private static final VarHandle GID_ENTRY_INDEX = Structs.handle(StructsEx.IBV_GID_ENTRY, "gid_index");
    private static final VarHandle GID_ENTRY_PORT = Structs.handle(StructsEx.IBV_GID_ENTRY, "port_num");
    private static final VarHandle GID_ENTRY_TYPE = Structs.handle(StructsEx.IBV_GID_ENTRY, "gid_type");
    private static final VarHandle GID_ENTRY_IFINDEX = Structs.handle(StructsEx.IBV_GID_ENTRY, "ndev_ifindex");

    private IbvContextEx() {
    }

    /**
     * The {@code verbs_context} entry {@code op} of {@code context}, or null: verbs.h's
     * {@code verbs_get_ctx_op}, null when the context is not extended, the library's structure does
     * not reach the entry, or the provider left it empty.
     */
    public static MemorySegment op(IbvContext context, String op) {
        MemorySegment ctx = context.ptr;
        if (((MemorySegment) ABI_COMPAT.get(ctx, 0L)).address() != ABI_IS_EXTENDED) {
            return null;
        }
        long entry = Structs.offset(StructsEx.VERBS_CONTEXT, op);
        MemorySegment verbsContext = MemorySegment.ofAddress(ctx.address() - CONTEXT_IN_VERBS_CONTEXT)
                .reinterpret(StructsEx.VERBS_CONTEXT.byteSize());
        long sz = verbsContext.get(JAVA_LONG, SZ_IN_VERBS_CONTEXT);
        if (sz < StructsEx.VERBS_CONTEXT.byteSize() - entry) {
            return null;
        }
        MemorySegment function = verbsContext.get(ADDRESS, entry);
        return function.address() == 0 ? null : function;
    }

    /**
     * The entry {@code op}, or a {@link SysException} with {@code EOPNOTSUPP} naming {@code call},
     * as verbs.h's inline reports a missing entry.
     */
    static MemorySegment requireOp(IbvContext context, String op, String call) {
        MemorySegment function = op(context, op);
        if (function == null) {
            throw new SysException(call, EOPNOTSUPP);
        }
        return function;
    }

    /**
     * verbs.h's {@code ibv_query_device_ex(context, NULL, attr)}: the provider's entry, or when it
     * has none or answers {@code EOPNOTSUPP}/{@code ENOSYS}, a zeroed structure with
     * {@code orig_attr} from {@code ibv_query_device}.
     */
    public static DeviceAttrEx queryDeviceEx(IbvContext context) {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment into = arena.allocate(StructsEx.IBV_DEVICE_ATTR_EX);
            MemorySegment function = op(context, "query_device_ex");
            int rc = function == null ? EOPNOTSUPP
                    : (int) QUERY_DEVICE_EX.invokeExact(function, context.ptr, MemorySegment.NULL, into,
                            StructsEx.IBV_DEVICE_ATTR_EX.byteSize());
            if (rc == EOPNOTSUPP || rc == ENOSYS) {
                into.fill((byte) 0);
                rc = (int) QUERY_DEVICE.invokeExact(context.ptr, into);
            }
            Errors.zero("ibv_query_device_ex", rc);
            return new DeviceAttrEx(IbvContext.deviceAttr(into), into.toArray(JAVA_BYTE));
        } catch (Throwable t) {
            throw Errors.rethrow(t);
        }
    }

    /**
     * A {@code struct ibv_device_attr_ex} as {@code ibv_query_device_ex} filled it: its
     * {@code orig_attr} as a record, every other member read by its C path
     * ({@code "odp_caps.per_transport_caps.rc_odp_caps"}), widened unsigned.
     */
    public static final class DeviceAttrEx {
        private final IbvDeviceAttr orig;
        private final MemorySegment bytes;

        private DeviceAttrEx(IbvDeviceAttr orig, byte[] bytes) {
            this.orig = orig;
            this.bytes = MemorySegment.ofArray(bytes);
        }

        /** {@code orig_attr}. */
        public IbvDeviceAttr orig() {
            return orig;
        }

        /** The member at {@code path}, of 1, 2, 4 or 8 bytes, as an unsigned number. */
        public long get(String path) {
            MemoryLayout member = StructsEx.IBV_DEVICE_ATTR_EX.select(Structs.elements(StructsEx.IBV_DEVICE_ATTR_EX, path));
            long at = Structs.offset(StructsEx.IBV_DEVICE_ATTR_EX, path);
            return switch ((int) member.byteSize()) {
                case 1 -> Byte.toUnsignedLong(bytes.get(JAVA_BYTE, at));
                case 2 -> Short.toUnsignedLong(bytes.get(JAVA_SHORT_UNALIGNED, at));
                case 4 -> Integer.toUnsignedLong(bytes.get(JAVA_INT_UNALIGNED, at));
                case 8 -> bytes.get(JAVA_LONG_UNALIGNED, at);
                default -> throw new IllegalArgumentException(path + " is not a number");
            };
        }
    }

    /**
     * {@code ibv_query_rt_values_ex} with {@code IBV_VALUES_MASK_RAW_CLOCK}: the device's free-running
     * clock, in nanoseconds ({@code raw_clock} as a {@code timespec}).
     */
    public static long queryRawClockNanos(IbvContext context) {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment function = requireOp(context, "query_rt_values", "ibv_query_rt_values_ex");
            MemorySegment values = arena.allocate(StructsEx.IBV_VALUES_EX);
            VALUES_COMP_MASK.set(values, 0L, VALUES_MASK_RAW_CLOCK);
            Errors.zero("ibv_query_rt_values_ex", (int) QUERY_RT_VALUES.invokeExact(function, context.ptr, values));
            if (((int) VALUES_COMP_MASK.get(values, 0L) & VALUES_MASK_RAW_CLOCK) == 0) {
                throw new SysException("ibv_query_rt_values_ex", EOPNOTSUPP);
            }
            return (long) VALUES_SEC.get(values, 0L) * 1_000_000_000L + (long) VALUES_NSEC.get(values, 0L);
        } catch (Throwable t) {
            throw Errors.rethrow(t);
        }
    }

    /** verbs.h's {@code ibv_query_gid_ex(context, port, index, &entry, 0)}. */
    public static GidEntry queryGidEx(IbvContext context, int port, int index) {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment entry = arena.allocate(StructsEx.IBV_GID_ENTRY);
            Errors.zero("ibv_query_gid_ex", (int) QUERY_GID_EX.invokeExact(context.ptr, port, index, entry, 0,
                    StructsEx.IBV_GID_ENTRY.byteSize()));
            return gidEntry(entry, 0);
        } catch (Throwable t) {
            throw Errors.rethrow(t);
        }
    }

    /** verbs.h's {@code ibv_query_gid_table(context, entries, max, 0)}: the valid GIDs of every port. */
    public static List<GidEntry> queryGidTable(IbvContext context, int max) {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment entries = arena.allocate(StructsEx.IBV_GID_ENTRY, max);
            long n = (long) QUERY_GID_TABLE.invokeExact(context.ptr, entries, (long) max, 0,
                    StructsEx.IBV_GID_ENTRY.byteSize());
            if (n < 0) {
                throw new SysException("ibv_query_gid_table", (int) n);
            }
            List<GidEntry> result = new ArrayList<>((int) n);
            for (int i = 0; i < n; i++) {
                result.add(gidEntry(entries, i * StructsEx.IBV_GID_ENTRY.byteSize()));
            }
            return result;
        } catch (Throwable t) {
            throw Errors.rethrow(t);
        }
    }

    private static GidEntry gidEntry(MemorySegment s, long at) {
        return new GidEntry(Gid.fromSegment(s, at + GID_ENTRY_GID), (int) GID_ENTRY_INDEX.get(s, at),
                (int) GID_ENTRY_PORT.get(s, at), (int) GID_ENTRY_TYPE.get(s, at), (int) GID_ENTRY_IFINDEX.get(s, at));
    }

    /**
     * A {@code struct ibv_gid_entry}.
     *
     * @param gid         the GID
     * @param gidIndex    its index in the port's table
     * @param portNum     the port
     * @param gidType     {@code enum ibv_gid_type}: 0 IB, 1 RoCE v1, 2 RoCE v2
     * @param ndevIfindex the network device's interface index (RoCE), 0 when none
     */
    public record GidEntry(Gid gid, int gidIndex, int portNum, int gidType, int ndevIfindex) {
    }
}
