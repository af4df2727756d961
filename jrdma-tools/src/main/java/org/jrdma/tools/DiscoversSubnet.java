package org.jrdma.tools;

/**
 * A command that discovers the whole subnet (or reads it from a cache) before it does its work, or
 * that, given python-rdma's discovery options, takes from that subnet what it otherwise reads
 * piecemeal (ibroute, ibtracert; {@link DiscoveryOptions#given}):
 * {@link CommonOptions} gives it python-rdma's {@code --discovery}, {@code --cache} and
 * {@code --refresh-cache} ({@link DiscoveryOptions}), and it gets its subnet from
 * {@link FabricCommand#discover}, which applies them.
 */
public interface DiscoversSubnet {
}
