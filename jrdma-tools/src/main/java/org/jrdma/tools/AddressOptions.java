package org.jrdma.tools;

import picocli.CommandLine.Option;

/** {@code -D}, {@code -G} and {@code -L}: the address options of most infiniband-diags tools. */
final class AddressOptions extends RouteOrGuidOptions {
    @Option(names = {"-L", "--Lid"}, description = "use LID address argument (the default)")
    void lid(boolean on) {
        kind(Kind.LID);
    }
}
