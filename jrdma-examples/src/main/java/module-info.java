/**
 * jrdma's example programs (verbs tools that talk to the C ones they copy) and the programs that
 * run {@code ibtool} on the real peers: the demo and the training run of its AOT cache.
 */
module org.jrdma.examples {
    requires org.jrdma;
    requires org.jrdma.tools;
    requires org.jrdma.peers;
    requires info.picocli;
    requires jdk.management;
    exports org.jrdma.examples;
    exports org.jrdma.examples.demo;
    opens org.jrdma.examples to info.picocli;
}
