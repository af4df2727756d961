package org.jrdma.subnet;

import org.jrdma.iba.wire.IbaStruct;
import org.jrdma.iba.wire.MadAttribute;
import org.jrdma.mad.SaTransactor;
import org.jrdma.mad.SmpClient;
import org.jrdma.path.IBPath;

/**
 * Where the subnet model reads SMP attributes (IBA 14.2.5) of a discovered node on demand, such
 * as a switch's forwarding tables: SubnGet by SMPs to the node's {@link Node#target() target}
 * (the directed route or LID discovery reached it by), or SubnGet answered by the subnet
 * administrator from the records it keeps for the node's LID ({@link SaTransactor}:
 * SwitchInfoRecord, LinearForwardingTableRecord, MulticastForwardingTableRecord, ...).
 */
public interface AttributeSource {
    /** Reads an attribute of {@code node} into {@code attribute} and returns it. */
    <T extends IbaStruct & MadAttribute> T get(T attribute, Node node, long attributeModifier);

    /** How many reads to keep in flight at once: the engine's {@code maxOutstanding}. */
    int window();

    /** SubnGet by SMPs, LID-routed or directed-route as the node's target is. */
    static AttributeSource smp(SmpClient smp) {
        return new AttributeSource() {
            @Override
            public <T extends IbaStruct & MadAttribute> T get(T attribute, Node node, long attributeModifier) {
                return smp.get(attribute, node.target(), attributeModifier);
            }

            @Override
            public int window() {
                return smp.engine().maxOutstanding();
            }
        };
    }

    /**
     * SubnGet answered by the SA ({@link SaTransactor#subnGet}) from the records of the node's
     * LID; needs the SM up and sends no SMP.
     *
     * @throws IllegalStateException from {@link #get} for a node without a LID (no SM assigned one)
     */
    static AttributeSource sa(SaTransactor sa) {
        return new AttributeSource() {
            @Override
            public <T extends IbaStruct & MadAttribute> T get(T attribute, Node node, long attributeModifier) {
                if (node.lid() == 0) {
                    throw new IllegalStateException(node + " has no LID, so the SA has no records of it");
                }
                IBPath path = IBPath.builder(sa.endPort().orElseThrow()).dlid(node.lid()).build();
                attribute.unpack(sa.subnGet(attribute, path, attributeModifier).toBytes(), 0);
                return attribute;
            }

            @Override
            public int window() {
                return sa.engine().maxOutstanding();
            }
        };
    }
}
