/**
 * jrdma, the library: devices, IB paths, the MAD engine and verbs, with
 * {@link org.jrdma.RdmaException} as the root of every error it raises.
 */
module org.jrdma {
    requires transitive org.jrdma.iba;
    exports org.jrdma;
    exports org.jrdma.mad;
    exports org.jrdma.mad.sim;
    exports org.jrdma.mad.umad;
    exports org.jrdma.subnet;
}
