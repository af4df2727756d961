package org.jrdma.tools;

import java.util.Optional;
import java.util.function.Supplier;
import org.jrdma.devices.EndPort;
import org.jrdma.iba.Iba;
import org.jrdma.path.IBPath;
import org.jrdma.path.Path;
import picocli.CommandLine.Option;

/**
 * python-rdma's options for the subnet administrator and for field names that its
 * {@code LibIBOpts.setup} gives its commands, as a picocli mixin: {@code --smkey N}, the SM_Key of
 * the SA MADs (IBA 15.2.1.2, the SA header's SM_Key; 0 here, untrusted, where python-rdma's default
 * is 1); {@code --sa-path PATH}, the path the SA MADs take, a path string as python-rdma reads it
 * (a LID, a GID, {@code IBPath(...)}), from QP1 to QP1 with the GSI Q_Key; and {@code --int-names},
 * which prints the fields of IBA structures by the names of the IBA structure descriptions
 * (python-rdma's internal names, {@link org.jrdma.iba.wire.IbaStruct#toDottedString()}) instead of
 * the names the C tools print.
 */
public final class PythonRdmaOptions {
    @Option(names = "--smkey", paramLabel = "N", description = "the SM_Key of the SA MADs (python-rdma's SAFormat.SMKey; default 0, untrusted)")
    long smKey;

    @Option(names = "--sa-path", paramLabel = "PATH", description = "the path to the SA, a path string as python-rdma reads it (a LID, a GID...)")
    String saPath;

    @Option(names = "--int-names", description = "print IBA structures' fields by their IBA names (python-rdma's internal names)")
    boolean intNames;

    /** Whether {@code --sa-path} was given. */
    public boolean saPathGiven() {
        return saPath != null;
    }

    /** Whether {@code --int-names} was given. */
    public boolean intNames() {
        return intNames;
    }

    /**
     * The path of the SA MADs: {@code --sa-path}'s, tied to {@code endPort} (the local end port)
     * when the text names none, else {@code otherwise}'s; with {@code --smkey}'s SM_Key.
     *
     * @throws UsageException {@code invalid path: PATH} (status 2, python-rdma's parser error)
     * @throws CmdError       when a path is given but the transport cannot say which end port the MADs leave from
     */
    public IBPath saPath(Optional<EndPort> endPort, Supplier<IBPath> otherwise) {
        if (saPath == null) {
            return otherwise.get().toBuilder().smKey(smKey).build();
        }
        EndPort from = endPort.orElseThrow(() -> new CmdError("--sa-path needs the end port the MADs leave from"));
        try {
            return Path.fromString(saPath, from).toBuilder().dqpn(Iba.QP1).sqpn(Iba.QP1).qkey(Iba.IB_DEFAULT_QP1_QKEY).smKey(smKey).build();
        } catch (IllegalArgumentException e) {
            throw new UsageException("invalid path: " + saPath, e.getMessage());
        }
    }
}
