package org.jrdma.tools;

import java.util.List;
import org.jrdma.iba.wire.IbaStruct;

/**
 * python-rdma's {@code --int-names} output: the IBA structures a command read, each as
 * {@link IbaStruct#toDottedString()} prints it (its IBA name, then every field by the name of the
 * IBA structure description, one {@code name.....value} line each), in place of the C tool's text
 * with libibmad's names.
 */
final class IntNames {
    private IntNames() {
    }

    /** The structures, one after another. */
    static String text(List<? extends IbaStruct> structs) {
        StringBuilder out = new StringBuilder();
        structs.forEach(struct -> out.append(struct.toDottedString()));
        return out.toString();
    }
}
