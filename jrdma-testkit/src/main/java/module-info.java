/**
 * JUnit 5 support for tests that talk to real RDMA peers ({@code org.jrdma.peers}): the
 * {@code @SimulatedFabric} extension, the rule for a missing peer, native C oracles and the
 * checks of programs run in the soft-RoCE VM.
 */
module org.jrdma.testkit {
    requires transitive org.jrdma.peers;
    requires transitive org.junit.jupiter.api;
    exports org.jrdma.testkit.junit;
}
