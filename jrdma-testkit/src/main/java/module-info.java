/**
 * JUnit 5 support for tests that talk to real RDMA peers without RDMA hardware: a simulated
 * InfiniBand fabric (ibsim with OpenSM) and a soft-RoCE (rdma_rxe) virtual machine.
 */
module org.jrdma.testkit {
    requires transitive org.junit.jupiter.api;
    exports org.jrdma.testkit;
    exports org.jrdma.testkit.vm;
    exports org.jrdma.testkit.fabric;
}
