/**
 * JUnit 5 over the real test peers of {@code jrdma-peers}: {@link org.jrdma.testkit.junit.SimulatedFabric}
 * gives a test a running {@link org.jrdma.testkit.fabric.Fabric}, {@link org.jrdma.testkit.junit.Peers}
 * fails (under CI) or skips a test whose peer is missing, {@link org.jrdma.testkit.junit.NativeCommand}
 * builds and runs the C programs used as oracles, and {@link org.jrdma.testkit.junit.PassFailChecks}
 * turns the checks of a program run in the soft-RoCE VM into tests.
 */
package org.jrdma.testkit.junit;
