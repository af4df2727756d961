/**
 * The subnet as jrdma sees it: nodes, their ports, the links between them and their LIDs, found
 * by {@link org.jrdma.subnet.SubnetDiscovery} (directed-route SMPs, the SA's records, or a
 * LID-routed refresh of a known subnet), switches' forwarding tables read on demand
 * ({@link org.jrdma.subnet.Node#linearForwardingTable()},
 * {@link org.jrdma.subnet.Node#multicastForwardingTable()}) from an
 * {@link org.jrdma.subnet.AttributeSource}, and printed as infiniband-diags prints it
 * ({@link org.jrdma.subnet.TopologyWriter}).
 */
package org.jrdma.subnet;
