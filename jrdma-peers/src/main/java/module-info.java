/**
 * The real peers jrdma is tested and shown against without RDMA hardware, without JUnit: a
 * simulated InfiniBand fabric (ibsim with OpenSM) and a soft-RoCE (rdma_rxe) virtual machine.
 */
module org.jrdma.peers {
    requires jdk.management;
    exports org.jrdma.testkit;
    exports org.jrdma.testkit.fabric;
    exports org.jrdma.testkit.vm;
}
