/**
 * The subnet as jrdma sees it: nodes, their ports, the links between them and their LIDs,
 * found by directed-route discovery ({@link org.jrdma.subnet.SubnetDiscovery}) and printed as
 * infiniband-diags prints it ({@link org.jrdma.subnet.TopologyWriter}).
 */
package org.jrdma.subnet;
