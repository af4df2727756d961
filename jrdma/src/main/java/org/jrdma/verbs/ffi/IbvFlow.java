package org.jrdma.verbs.ffi;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_BYTE;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_SHORT;

import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.GroupLayout;
import java.lang.foreign.MemoryLayout;
import java.lang.foreign.MemorySegment;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.VarHandle;
import java.util.List;
import org.jrdma.ffi.Errors;

/**
 * {@code struct ibv_flow}: a flow steering rule that sends matching packets to a queue pair
 * ({@code ibv_create_flow}, {@code ibv_destroy_flow}, inlines of verbs.h calling
 * {@code verbs_context->ibv_create_flow} and {@code ->ibv_destroy_flow}). Only rules without
 * specifications are made here: a {@code struct ibv_flow_attr} of its own size,
 * {@code num_of_specs} 0, which match by their type alone (all default traffic, multicast default
 * traffic, or a sniffer's copy of everything).
 */
public final class IbvFlow extends NativeObject {
    private static final MethodHandle CREATE_FLOW = Ibv.pointerCapturingErrno(
            FunctionDescriptor.of(ADDRESS, ADDRESS, ADDRESS));
    private static final MethodHandle DESTROY_FLOW = Ibv.pointer(FunctionDescriptor.of(JAVA_INT, ADDRESS));
    private static final VarHandle TYPE = Structs.handle(StructsEx.IBV_FLOW_ATTR, "type");
    private static final VarHandle SIZE = Structs.handle(StructsEx.IBV_FLOW_ATTR, "size");
    private static final VarHandle PRIORITY = Structs.handle(StructsEx.IBV_FLOW_ATTR, "priority");
    private static final VarHandle PORT = Structs.handle(StructsEx.IBV_FLOW_ATTR, "port");
    private static final VarHandle FLAGS = Structs.handle(StructsEx.IBV_FLOW_ATTR, "flags");

    private static final VarHandle NUM_OF_SPECS = Structs.handle(StructsEx.IBV_FLOW_ATTR, "num_of_specs");
    private static final VarHandle TAG_ID = Structs.handle(StructsEx.IBV_FLOW_SPEC_ACTION_TAG, "tag_id");

    /** {@code IBV_FLOW_SPEC_ETH}. */
    public static final int SPEC_ETH = 0x20;
    /** {@code IBV_FLOW_SPEC_IPV4}. */
    public static final int SPEC_IPV4 = 0x30;
    /** {@code IBV_FLOW_SPEC_IPV6}. */
    public static final int SPEC_IPV6 = 0x31;
    /** {@code IBV_FLOW_SPEC_TCP}. */
    public static final int SPEC_TCP = 0x40;
    /** {@code IBV_FLOW_SPEC_UDP}. */
    public static final int SPEC_UDP = 0x41;
    /** {@code IBV_FLOW_SPEC_INNER}: or'ed into a filter's type, it matches the inner headers of a tunnel. */
    public static final int SPEC_INNER = 0x100;
    /** {@code IBV_FLOW_SPEC_ACTION_TAG}. */
    public static final int SPEC_ACTION_TAG = 0x1000;
    /** {@code IBV_FLOW_SPEC_ACTION_DROP}. */
    public static final int SPEC_ACTION_DROP = 0x1001;

    private final MemorySegment destroyFlow;

    /**
     * One {@code struct ibv_flow_spec_*}: its {@code enum ibv_flow_spec_type}, its structure, and
     * for a filter the images of its {@code val} and {@code mask} (the filter structure's bytes, in
     * network order as verbs.h wants them); for {@code _action_tag} its {@code tag_id}.
     */
    public record Spec(int type, GroupLayout layout, byte[] val, byte[] mask, int tagId) {
        /** A filter of {@code type} ({@link #SPEC_ETH}, ... , with {@link #SPEC_INNER} or not). */
        public static Spec filter(int type, byte[] val, byte[] mask) {
            GroupLayout layout = switch (type & ~SPEC_INNER) {
                case SPEC_ETH -> StructsEx.IBV_FLOW_SPEC_ETH;
                case SPEC_IPV4 -> StructsEx.IBV_FLOW_SPEC_IPV4;
                case SPEC_IPV6 -> StructsEx.IBV_FLOW_SPEC_IPV6;
                case SPEC_TCP, SPEC_UDP -> StructsEx.IBV_FLOW_SPEC_TCP_UDP;
                default -> throw new IllegalArgumentException(String.format("no filter of type 0x%x", type));
            };
            long room = layout.select(MemoryLayout.PathElement.groupElement("val")).byteSize();
            if (val.length > room || mask.length > room) {
                throw new IllegalArgumentException(String.format("a filter of type 0x%x has %d bytes, not %d and %d",
                        type, room, val.length, mask.length));
            }
            return new Spec(type, layout, val.clone(), mask.clone(), 0);
        }

        /** {@code struct ibv_flow_spec_action_tag} with {@code tagId}. */
        public static Spec tag(int tagId) {
            return new Spec(SPEC_ACTION_TAG, StructsEx.IBV_FLOW_SPEC_ACTION_TAG, null, null, tagId);
        }

        /** {@code struct ibv_flow_spec_action_drop}. */
        public static Spec drop() {
            return new Spec(SPEC_ACTION_DROP, StructsEx.IBV_FLOW_SPEC_ACTION_DROP, null, null, 0);
        }

        private void write(MemorySegment at) {
            at.set(JAVA_INT, 0L, type);
            at.set(JAVA_SHORT, Structs.offset(StructsEx.IBV_FLOW_SPEC_ACTION_DROP, "size"), (short) layout.byteSize());
            if (val != null) {
                MemorySegment.copy(val, 0, at, JAVA_BYTE, Structs.offset(layout, "val"), val.length);
                MemorySegment.copy(mask, 0, at, JAVA_BYTE, Structs.offset(layout, "mask"), mask.length);
            } else if (type == SPEC_ACTION_TAG) {
                TAG_ID.set(at, 0L, tagId);
            }
        }
    }

    private IbvFlow(MemorySegment raw, IbvContext context, MemorySegment destroyFlow) {
        super(raw, StructsEx.IBV_FLOW, "flow", context.isConfined());
        this.destroyFlow = destroyFlow;
    }

    /**
     * verbs.h's {@code ibv_create_flow(qp, attr)} of a rule of {@code enum ibv_flow_attr_type}
     * {@code type} on port {@code port}, {@code specs} following the attribute (at most 255).
     *
     * @throws org.jrdma.SysException {@code EOPNOTSUPP} when the provider has no flow steering, or
     *                                what it reports
     */
    public static IbvFlow create(IbvQp qp, IbvContext context, int type, int priority, int port, int flags,
            List<Spec> specs) {
        MemorySegment create = IbvContextEx.requireOp(context, "ibv_create_flow", "ibv_create_flow");
        MemorySegment destroy = IbvContextEx.requireOp(context, "ibv_destroy_flow", "ibv_destroy_flow");
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment state = Errors.callState(arena);
            long size = StructsEx.IBV_FLOW_ATTR.byteSize();
            for (Spec spec : specs) {
                size += spec.layout().byteSize();
            }
            MemorySegment attr = arena.allocate(size, StructsEx.IBV_FLOW_ATTR.byteAlignment());
            long at = StructsEx.IBV_FLOW_ATTR.byteSize();
            for (Spec spec : specs) {
                spec.write(attr.asSlice(at, spec.layout().byteSize()));
                at += spec.layout().byteSize();
            }
            TYPE.set(attr, 0L, type);
            SIZE.set(attr, 0L, (short) size);
            NUM_OF_SPECS.set(attr, 0L, (byte) specs.size());
            PRIORITY.set(attr, 0L, (short) priority);
            PORT.set(attr, 0L, (byte) port);
            FLAGS.set(attr, 0L, flags);
            MemorySegment raw = (MemorySegment) CREATE_FLOW.invokeExact(create, state, qp.ptr, attr);
            return new IbvFlow(Errors.nonNull("ibv_create_flow", raw, state), context, destroy);
        } catch (Throwable t) {
            throw Errors.rethrow(t);
        }
    }

    @Override
    void destroy(MemorySegment raw) {
        try {
            Errors.zero("ibv_destroy_flow", (int) DESTROY_FLOW.invokeExact(destroyFlow, raw));
        } catch (Throwable t) {
            throw Errors.rethrow(t);
        }
    }
}
