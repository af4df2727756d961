package org.jrdma.tools;

import java.io.PrintWriter;
import java.time.ZonedDateTime;
import java.util.concurrent.Callable;
import org.jrdma.mad.MadEngine;
import org.jrdma.subnet.SubnetDiscovery;
import org.jrdma.subnet.TopologyWriter;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

/** {@code ibtool ibnetdiscover}: discovers the subnet by directed route and prints its topology file. */
@Command(name = "ibnetdiscover", mixinStandardHelpOptions = true,
        description = "Discover the InfiniBand subnet by directed-route SMPs and print it as a topology file (ibnetdiscover format).")
final class IbnetdiscoverCommand implements Callable<Integer> {
    @Mixin
    FabricOptions fabric;

    @Mixin
    SaOption viaSa;

    @Mixin
    NodeNameMapOption names;

    @Spec
    CommandSpec spec;

    @Override
    public Integer call() {
        PrintWriter out = spec.commandLine().getOut();
        NodeNameMap map = names.map();
        try (MadEngine engine = fabric.openEngine()) {
            SubnetDiscovery discovery = viaSa.discover(fabric, engine);
            out.print(TopologyWriter.write(discovery.subnet(), ZonedDateTime.now(), node -> map.name(node.guid(), node.description())));
            out.flush();
            PrintWriter err = spec.commandLine().getErr();
            discovery.problems().forEach(p -> err.println("ibnetdiscover: " + p));
            err.flush();
            return discovery.problems().isEmpty() ? ExitCodes.OK : ExitCodes.INCOMPLETE;
        }
    }
}
