package org.jrdma.tools;

import org.jrdma.iba.diag.DiagOptions;
import picocli.CommandLine.Option;

/**
 * {@code -K}: print the keys a record or attribute holds (M_Key and the others) instead of
 * infiniband-diags' {@code <not displayed>}.
 */
final class ShowKeysOption {
    @Option(names = {"-K", "--show_keys"}, description = "show the M_Key and the other keys instead of <not displayed>")
    boolean showKeys;

    /** The printers' options with the keys shown or not, as {@code -K} says. */
    DiagOptions diagOptions() {
        return DiagOptions.defaults().withShowKeys(showKeys);
    }
}
