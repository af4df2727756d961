/**
 * jrdma, the library: devices ({@link org.jrdma.Rdma}), IB paths, the MAD engine over the kernel's
 * umad and over ibsim, fabric discovery, and verbs, with {@link org.jrdma.RdmaException} as the
 * root of every error it raises.
 */
module org.jrdma {
    requires transitive org.jrdma.iba;
    exports org.jrdma;
    exports org.jrdma.devices;
    exports org.jrdma.path;
    exports org.jrdma.mad;
    exports org.jrdma.mad.sim;
    exports org.jrdma.mad.umad;
    exports org.jrdma.mad.verbs;
    exports org.jrdma.subnet;
    exports org.jrdma.verbs;
    exports org.jrdma.cm;
    exports org.jrdma.endpoint;
    exports org.jrdma.vtools;
}
