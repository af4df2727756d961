/**
 * The subnet as jrdma sees it: nodes, their ports, the links between them and their LIDs, found
 * by {@link org.jrdma.subnet.SubnetDiscovery} (directed-route SMPs, the SA's records, or a
 * LID-routed refresh of a known subnet), switches' forwarding tables read on demand
 * ({@link org.jrdma.subnet.Node#linearForwardingTable()},
 * {@link org.jrdma.subnet.Node#multicastForwardingTable()}) from an
 * {@link org.jrdma.subnet.AttributeSource}, printed as infiniband-diags prints it
 * ({@link org.jrdma.subnet.TopologyWriter}), saved to and read from libibnetdisc's fabric cache
 * files ({@link org.jrdma.subnet.SubnetCache}), and compared with an earlier state as
 * {@code ibnetdiscover --diff} compares them ({@link org.jrdma.subnet.SubnetDiff}).
 */
package org.jrdma.subnet;
