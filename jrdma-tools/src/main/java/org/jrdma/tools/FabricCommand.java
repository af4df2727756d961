package org.jrdma.tools;

import java.util.Optional;
import java.util.function.Supplier;
import org.jrdma.devices.EndPort;
import org.jrdma.mad.GmpClient;
import org.jrdma.mad.MadEngine;
import org.jrdma.mad.MadTransactor;
import org.jrdma.mad.SmpClient;
import org.jrdma.subnet.SubnetDiscovery;
import picocli.CommandLine.Mixin;

/**
 * A command that sends MADs: the {@link FabricOptions} name the port and the timeouts, and the
 * engine on that port is opened when the command first asks for it (after its arguments are
 * checked, so bad input is a usage error even where the fabric cannot be reached; not at all when
 * it answers from a file) and closed when the command ends.
 */
public abstract class FabricCommand extends IbtoolCommand {
    @Mixin
    FabricOptions fabric;

    private MadEngine engine;
    private Progress progress;

    /**
     * The engine on the port the options name, opened on first use (in an {@code ibtool shell} or
     * {@code --batch}, the one an earlier command opened on the same port, {@link SharedEngines});
     * for a {@link #fabricWide} command, with its {@link Progress} line started.
     */
    protected final MadEngine engine() {
        if (engine == null) {
            engine = SharedEngines.engine(fabric.sharingKey(), fabric::openEngine);
            if (fabricWide()) {
                progress = Progress.start(spec.name(), engine, err(), fabric.trace);
            }
        }
        return engine;
    }

    /**
     * Whether the command's MADs go to the whole fabric (a discovery, the counters of every port),
     * so that a user at a terminal is shown their {@link Progress}; false here.
     */
    boolean fabricWide() {
        return false;
    }

    /** Ends the {@link Progress} line, if one is shown, before the command prints its answer. */
    final void progressDone() {
        if (progress != null) {
            progress.close();
            progress = null;
        }
    }

    /** An SMP client on {@link #engine()} with the options' timeout, retries and M_Key. */
    protected final SmpClient smp() {
        return fabric.smp(engine());
    }

    /** A GMP client on {@link #engine()} with the options' timeout and retries. */
    protected final GmpClient gmp() {
        return fabric.gmp(engine());
    }

    /**
     * The whole subnet as python-rdma's discovery options ({@link DiscoveryOptions}) say to get it:
     * read from {@code --cache}'s file, or discovered by {@code --discovery}'s mode, DR (the
     * default) being {@code byDirectedRoute}, the command's own.
     *
     * @param sa whether the command's {@code --sa} asks for the SA (as {@code --sa-path} does)
     */
    protected final DiscoveryOptions.Result discover(Supplier<SubnetDiscovery> byDirectedRoute, boolean sa) {
        return fabric.discovery.subnet(byDirectedRoute, sources(), sa || fabric.python.saPathGiven());
    }

    /** A cache file's name with python-rdma's templates ({@code $C}, {@code $P}, {@code $A}) replaced ({@link DiscoveryOptions#expand}). */
    protected final java.nio.file.Path cacheName(java.nio.file.Path file) {
        return DiscoveryOptions.expand(file, sources());
    }

    /** The ways to the subnet the discovery options may choose, each opened on first use. */
    private DiscoveryOptions.Sources sources() {
        return new DiscoveryOptions.Sources() {
            @Override
            public SmpClient smp() {
                return FabricCommand.this.smp();
            }

            @Override
            public MadTransactor sa() {
                return fabric.saTransactor(engine());
            }

            @Override
            public Optional<EndPort> endPort() {
                return engine().transport().endPort();
            }
        };
    }

    /** {@link #discover(Supplier, boolean)} of the whole subnet by directed-route SMPs unless the options say otherwise. */
    protected final DiscoveryOptions.Result discover() {
        return discover(() -> SubnetDiscovery.run(smp()), false);
    }

    /** The discovery options, for a command that checks them before it sends MADs. */
    protected final DiscoveryOptions discoveryOptions() {
        return fabric.discovery;
    }

    /** python-rdma's {@code --smkey}, {@code --sa-path} and {@code --int-names} as given. */
    protected final PythonRdmaOptions python() {
        return fabric.python;
    }

    /** Closes the engine, if the command opened it and does not share it with the commands after it. */
    @Override
    final void release() {
        progressDone();
        if (engine != null && !SharedEngines.shared(engine)) {
            engine.close();
        }
    }
}
