package org.jrdma.verbs;

import java.util.List;
import org.jrdma.SysException;
import org.jrdma.verbs.ffi.IbvFlow;

/**
 * A flow steering rule, {@code struct ibv_flow} ({@code ibv_create_flow}): packets the rule
 * matches go to its queue pair instead of where the device's default steering sends them. From
 * {@link Qp#flow}; closed with its queue pair. A device without flow steering refuses with
 * {@link UnsupportedVerbException}.
 */
public final class Flow extends Resource {
    /** {@code IBV_FLOW_ATTR_NORMAL}: match by the rule's specifications. */
    public static final int NORMAL = 0;
    /** {@code IBV_FLOW_ATTR_ALL_DEFAULT}: every packet no other rule takes. */
    public static final int ALL_DEFAULT = 1;
    /** {@code IBV_FLOW_ATTR_MC_DEFAULT}: every multicast packet no other rule takes. */
    public static final int MC_DEFAULT = 2;
    /** {@code IBV_FLOW_ATTR_SNIFFER}: a copy of every packet of the port. */
    public static final int SNIFFER = 3;

    private final Qp qp;
    private final IbvFlow handle;

    private Flow(Qp qp, IbvFlow handle) {
        this.qp = qp;
        this.handle = handle;
    }

    /** {@code ibv_create_flow} of a rule with {@code specs} (none or more), registered as a dependent of {@code qp}. */
    static Flow create(Qp qp, int type, int priority, int port, int flags, List<IbvFlow.Spec> specs) {
        IbvFlow handle;
        try {
            handle = IbvFlow.create(qp.handle(), qp.pd().context().handle(), type, priority, port, flags, specs);
        } catch (SysException e) {
            throw UnsupportedVerbException.translate(e, "ibv_create_flow (flow steering)");
        }
        Flow flow = new Flow(qp, handle);
        flow.register(qp);
        return flow;
    }

    /** {@code spec} as libibverbs takes it. */
    static IbvFlow.Spec toIbv(FlowSpec spec) {
        return switch (spec) {
            case FlowSpec.Eth eth -> IbvFlow.Spec.filter(type(IbvFlow.SPEC_ETH, eth.inner()), eth.val().bytes(),
                    eth.mask().bytes());
            case FlowSpec.Ipv4 ip -> IbvFlow.Spec.filter(type(IbvFlow.SPEC_IPV4, ip.inner()), ip.val().bytes(),
                    ip.mask().bytes());
            case FlowSpec.Ipv6 ip -> IbvFlow.Spec.filter(type(IbvFlow.SPEC_IPV6, ip.inner()), ip.val().bytes(),
                    ip.mask().bytes());
            case FlowSpec.TcpUdp l4 -> IbvFlow.Spec.filter(type(l4.udp() ? IbvFlow.SPEC_UDP : IbvFlow.SPEC_TCP,
                    l4.inner()), l4.val().bytes(), l4.mask().bytes());
            case FlowSpec.Tag tag -> IbvFlow.Spec.tag(tag.tagId());
            case FlowSpec.Drop drop -> IbvFlow.Spec.drop();
        };
    }

    private static int type(int type, boolean inner) {
        return inner ? type | IbvFlow.SPEC_INNER : type;
    }

    /** The queue pair the rule steers to. */
    public Qp qp() {
        return qp;
    }

    @Override
    String describe() {
        return "flow to " + qp;
    }

    @Override
    void release() {
        handle.close();
    }
}
