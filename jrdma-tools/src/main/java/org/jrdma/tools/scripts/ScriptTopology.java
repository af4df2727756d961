package org.jrdma.tools.scripts;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.function.Supplier;

/**
 * The subnet's topology as infiniband-diags' fabric-wide scripts read it ({@code ibclearcounters},
 * {@code ibclearerrors}, {@code ibdatacounters}, the {@code ibcheck*} fabric checks): the
 * {@code <topology-file>} argument through {@code cat}, or else {@code ibnetdiscover $ca_info}'s
 * output; the status is that of the reading, which the scripts end with.
 */
public final class ScriptTopology {
    private ScriptTopology() {
    }

    /**
     * Reads the topology.
     *
     * @param topologyFile  the file the command line names, or null
     * @param err           where {@code cat}'s failure goes ({@code cat: FILE: No such file or directory}, status 1)
     * @param ibnetdiscover runs {@code ibnetdiscover} with the command line's CA options, when no file is named
     */
    public static ToolOutput read(String topologyFile, PrintWriter err, Supplier<ToolOutput> ibnetdiscover) {
        if (topologyFile == null) {
            return ibnetdiscover.get();
        }
        try {
            return new ToolOutput(0, Files.readString(Path.of(topologyFile)));
        } catch (NoSuchFileException e) {
            err.print("cat: " + topologyFile + ": No such file or directory\n");
        } catch (IOException e) {
            err.print("cat: " + topologyFile + ": " + e.getMessage() + "\n");
        }
        return new ToolOutput(1, "");
    }
}
