package org.jrdma.verbs.ffi;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_INT;

import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.MemorySegment;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.VarHandle;
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

    private final MemorySegment destroyFlow;

    private IbvFlow(MemorySegment raw, IbvContext context, MemorySegment destroyFlow) {
        super(raw, StructsEx.IBV_FLOW, "flow", context.isConfined());
        this.destroyFlow = destroyFlow;
    }

    /**
     * verbs.h's {@code ibv_create_flow(qp, attr)} of a rule of {@code enum ibv_flow_attr_type}
     * {@code type} without specifications, on port {@code port}.
     *
     * @throws org.jrdma.SysException {@code EOPNOTSUPP} when the provider has no flow steering, or
     *                                what it reports
     */
    public static IbvFlow create(IbvQp qp, IbvContext context, int type, int priority, int port, int flags) {
        MemorySegment create = IbvContextEx.requireOp(context, "ibv_create_flow", "ibv_create_flow");
        MemorySegment destroy = IbvContextEx.requireOp(context, "ibv_destroy_flow", "ibv_destroy_flow");
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment state = Errors.callState(arena);
            MemorySegment attr = arena.allocate(StructsEx.IBV_FLOW_ATTR);
            TYPE.set(attr, 0L, type);
            SIZE.set(attr, 0L, (short) StructsEx.IBV_FLOW_ATTR.byteSize());
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
