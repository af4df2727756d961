/**
 * IBA wire formats: identifiers (GUID, GID, LID), the constants of the InfiniBand Architecture
 * specification, and the packet and MAD attribute layouts. Pure data: no I/O, no native code.
 */
module org.jrdma.iba {
    exports org.jrdma.iba;
    exports org.jrdma.iba.wire;
    exports org.jrdma.iba.mad;
    exports org.jrdma.iba.pm;
    exports org.jrdma.iba.dm;
    exports org.jrdma.iba.cm;
    exports org.jrdma.iba.cc;
    exports org.jrdma.iba.hdr;
    exports org.jrdma.iba.smp;
    exports org.jrdma.iba.sa;
    exports org.jrdma.iba.diag;
}
