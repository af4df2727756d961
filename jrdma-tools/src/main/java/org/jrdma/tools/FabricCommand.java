package org.jrdma.tools;

import org.jrdma.mad.GmpClient;
import org.jrdma.mad.MadEngine;
import org.jrdma.mad.SmpClient;
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

    /**
     * The engine on the port the options name, opened on first use; in an {@code ibtool shell} or
     * {@code --batch}, the one an earlier command opened on the same port ({@link SharedEngines}).
     */
    protected final MadEngine engine() {
        if (engine == null) {
            engine = SharedEngines.engine(fabric.sharingKey(), fabric::openEngine);
        }
        return engine;
    }

    /** An SMP client on {@link #engine()} with the options' timeout, retries and M_Key. */
    protected final SmpClient smp() {
        return fabric.smp(engine());
    }

    /** A GMP client on {@link #engine()} with the options' timeout and retries. */
    protected final GmpClient gmp() {
        return fabric.gmp(engine());
    }

    /** Closes the engine, if the command opened it and does not share it with the commands after it. */
    @Override
    final void release() {
        if (engine != null && !SharedEngines.shared(engine)) {
            engine.close();
        }
    }
}
