package org.jrdma.tools;

import java.util.Optional;
import java.util.function.Supplier;
import org.jrdma.devices.EndPort;
import org.jrdma.iba.Iba;
import org.jrdma.path.IBPath;
import org.jrdma.path.Path;

/**
 * python-rdma's options for the subnet administrator and for field names that its
 * {@code LibIBOpts.setup} gives every command, held by each command's {@link FabricOptions} and
 * added to its command line by {@link CommonOptions} under the names the command leaves free:
 * <ul>
 * <li>{@code --smkey N}, the SM_Key of every SA MAD the command sends (IBA 15.2.1.2, the SA header's
 *     SM_Key; 0 here, untrusted, where python-rdma's default is 1). saquery has its own
 *     {@code --smkey}, whose meaning (the same value, also from {@code sa_key} of the configuration
 *     file, or typed at a prompt) wins there;</li>
 * <li>{@code --sa-path PATH}, the path every SA MAD takes, a path string as python-rdma reads it (a
 *     LID, a GID, {@code IBPath(...)}), from QP1 to QP1 with the GSI Q_Key; as in python-rdma it
 *     implies {@code --sa} where a command has that option, and {@code --discovery SA};</li>
 * <li>{@code --int-names}, which prints the fields of IBA structures by the names of the IBA
 *     structure descriptions (python-rdma's internal names,
 *     {@link org.jrdma.iba.wire.IbaStruct#toDottedString()}) where a command prints a decoded
 *     structure field by field, instead of the names the C tools print.</li>
 * </ul>
 * A command that sends no SA MAD or prints no structure takes them as python-rdma does, without effect.
 */
public final class PythonRdmaOptions {
    /** {@code --smkey}, or null when not given. */
    Long smKey;

    /** {@code --sa-path} as given, or null. */
    String saPath;

    /** {@code --int-names}. */
    boolean intNames;

    /** Whether {@code --sa-path} was given. */
    public boolean saPathGiven() {
        return saPath != null;
    }

    /** Whether {@code --int-names} was given. */
    public boolean intNames() {
        return intNames;
    }

    /** The SM_Key of the SA MADs: {@code --smkey}'s, else 0 (untrusted). */
    public long smKey() {
        return smKey == null ? 0 : smKey;
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
            return otherwise.get().toBuilder().smKey(smKey()).build();
        }
        EndPort from = endPort.orElseThrow(() -> new CmdError("--sa-path needs the end port the MADs leave from"));
        try {
            return Path.fromString(saPath, from).toBuilder().dqpn(Iba.QP1).sqpn(Iba.QP1).qkey(Iba.IB_DEFAULT_QP1_QKEY).smKey(smKey()).build();
        } catch (IllegalArgumentException e) {
            throw new UsageException("invalid path: " + saPath, e.getMessage());
        }
    }
}
