/** The {@code ibtool} command line: infiniband-diags style tools built on the jrdma library. */
module org.jrdma.tools {
    requires org.jrdma;
    requires info.picocli;
    requires org.jline;
    requires com.fasterxml.jackson.databind;
    opens org.jrdma.tools to info.picocli, com.fasterxml.jackson.databind;
    opens org.jrdma.tools.shell to info.picocli;
    opens org.jrdma.tools.fts to info.picocli, com.fasterxml.jackson.databind;
    opens org.jrdma.tools.cache to info.picocli, com.fasterxml.jackson.databind;
    opens org.jrdma.tools.vendor to info.picocli, com.fasterxml.jackson.databind;
    opens org.jrdma.tools.cc to info.picocli, com.fasterxml.jackson.databind;
    opens org.jrdma.tools.json to info.picocli, com.fasterxml.jackson.databind;
    opens org.jrdma.tools.scripts to info.picocli, com.fasterxml.jackson.databind;
    opens org.jrdma.tools.compat to info.picocli, com.fasterxml.jackson.databind;
    opens org.jrdma.tools.traps to info.picocli, com.fasterxml.jackson.databind;
    opens org.jrdma.tools.topodiff to info.picocli, com.fasterxml.jackson.databind;
    opens org.jrdma.tools.portadmin to info.picocli, com.fasterxml.jackson.databind;
    opens org.jrdma.tools.query to info.picocli, com.fasterxml.jackson.databind;
    opens org.jrdma.tools.devices to info.picocli, com.fasterxml.jackson.databind;
}
