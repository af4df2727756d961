/**
 * Real test peers for RDMA code without RDMA hardware, as plain APIs without JUnit: a simulated
 * InfiniBand fabric ({@link org.jrdma.testkit.fabric}) and a soft-RoCE virtual machine
 * ({@link org.jrdma.testkit.vm}). The JUnit 5 extensions over them are in {@code jrdma-testkit}.
 */
package org.jrdma.testkit;
