/**
 * Real test peers for RDMA code without RDMA hardware, as JUnit 5 extensions and plain APIs.
 */
package org.jrdma.testkit;
