/** The {@code ibtool} command line: infiniband-diags style tools built on the jrdma library. */
module org.jrdma.tools {
    requires org.jrdma;
    requires info.picocli;
    opens org.jrdma.tools to info.picocli;
    opens org.jrdma.tools.scripts to info.picocli;
}
