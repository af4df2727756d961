/**
 * A simulated InfiniBand fabric for tests: ibsim models the switches, channel adapters and links
 * of a topology file, OpenSM brings the subnet up (LIDs, routes, the SA), and the C diagnostics of
 * infiniband-diags as well as jrdma attach to it through ibsim's client protocol.
 *
 * <p>Start one with {@link org.jrdma.testkit.fabric.Fabric#start} or declare it on a JUnit 5 test
 * with the test kit's {@code @SimulatedFabric} ({@code org.jrdma.testkit.junit}).
 */
package org.jrdma.testkit.fabric;
