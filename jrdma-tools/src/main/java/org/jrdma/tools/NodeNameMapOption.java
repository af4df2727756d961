package org.jrdma.tools;

import java.nio.file.Path;
import picocli.CommandLine.Option;

/** {@code --node-name-map FILE}: the infiniband-diags option naming nodes by a {@link NodeNameMap}. */
public final class NodeNameMapOption {
    @Option(names = "--node-name-map", paramLabel = "FILE",
            description = "node name map file: lines of a node GUID and the name to print for it in double quotes "
                    + "(default: " + "/etc/rdma/ib-node-name-map if it exists, as rdma-core's tools)")
    Path file;

    /** The map the option names, else the default one, else the empty map. */
    public NodeNameMap map() {
        return NodeNameMap.open(file);
    }
}
