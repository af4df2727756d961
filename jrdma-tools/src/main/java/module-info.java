/**
 * The {@code ibtool} command line: infiniband-diags style tools built on the jrdma library.
 * {@link org.jrdma.tools.Ibtool} is exported so that a program can run it in its own JVM.
 */
module org.jrdma.tools {
    requires org.jrdma;
    requires info.picocli;
    exports org.jrdma.tools;
    opens org.jrdma.tools to info.picocli;
}
