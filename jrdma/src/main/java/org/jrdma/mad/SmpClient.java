package org.jrdma.mad;

import java.time.Duration;
import java.util.function.BiConsumer;
import org.jrdma.iba.wire.IbaStruct;
import org.jrdma.iba.wire.MadAttribute;
import org.jrdma.path.IBDRPath;
import org.jrdma.path.IBPath;

/**
 * SubnGet and SubnSet (IBA 14.2.1) to an {@link SmpTarget}, a LID or a directed route, with one
 * timeout, retry count and M_Key for all: a {@link MadTransactor} on paths built from the
 * targets. The attribute passed in is what a Set sends and where a Get's answer is written; it is
 * returned for chaining.
 */
public final class SmpClient {
    private final MadEngine engine;
    private final MadTransactor transactor;
    private final long mKey;

    /**
     * @param engine  the engine to send through
     * @param timeout how long to wait for each attempt
     * @param retries how many times to resend an unanswered SMP
     * @param mKey    the M_Key to send (0 when the subnet uses none)
     */
    public SmpClient(MadEngine engine, Duration timeout, int retries, long mKey) {
        this.engine = engine;
        this.transactor = new MadTransactor(engine, null).withTimeouts(timeout, retries);
        this.mKey = mKey;
    }

    /**
     * SMPs through {@code transactor}, with its timeouts and retries: for example an
     * {@link SaTransactor}, so the subnet administrator answers the SubnGets.
     *
     * @param mKey the M_Key to send (0 when the subnet uses none)
     */
    public SmpClient(MadTransactor transactor, long mKey) {
        this.engine = transactor.engine();
        this.transactor = transactor;
        this.mKey = mKey;
    }

    /** The engine this client sends through. */
    public MadEngine engine() {
        return engine;
    }

    /** SubnGet: reads an attribute into {@code attribute} and returns it. */
    public <T extends IbaStruct & MadAttribute> T get(T attribute, SmpTarget target, long attributeModifier) {
        return Attributes.into(attribute, transactor.subnGet(attribute, path(target), attributeModifier));
    }

    /**
     * Whether {@link #getAsync} may be used: the SMPs go to the fabric through the engine, not
     * to the SA through an {@link SaTransactor}.
     */
    public boolean submits() {
        return !(transactor instanceof SaTransactor);
    }

    /**
     * SubnGet without waiting, for callers with many to make (a discovery): the answer is read
     * into {@code attribute} and {@code done} gets it, or gets the failure {@link #get} would
     * have thrown, on the engine's receiver thread ({@link MadEngine#submit}), which {@code done}
     * must not block.
     *
     * @throws IllegalStateException if this client does not {@link #submits submit} (the SA answers its SubnGets)
     */
    public <T extends IbaStruct & MadAttribute> void getAsync(T attribute, SmpTarget target, long attributeModifier,
            BiConsumer<? super T, RuntimeException> done) {
        if (!submits()) {
            throw new IllegalStateException("the SA answers this client's SubnGets: they are not submitted to the engine");
        }
        transactor.submit(Rpc.SUBN_GET, attribute, path(target), attributeModifier,
                (answer, failure) -> done.accept(failure == null ? Attributes.into(attribute, answer) : null, failure));
    }

    /** SubnSet: writes {@code attribute}; the node's answer (its new value) is written back into it. */
    public <T extends IbaStruct & MadAttribute> T set(T attribute, SmpTarget target, long attributeModifier) {
        return Attributes.into(attribute, transactor.subnSet(attribute, path(target), attributeModifier));
    }

    /** The path of a target: a directed-route path from the local port, or an IB path to the LID. */
    private IBPath path(SmpTarget target) {
        return switch (target) {
            case SmpTarget.Lid lid -> IBPath.builder(null).dlid(lid.lid()).mKey(mKey).build();
            case SmpTarget.DirectedRoute dr -> {
                int[] ports = dr.ports();
                int[] route = new int[ports.length + 1];
                System.arraycopy(ports, 0, route, 1, ports.length);
                yield IBDRPath.builder(null).drPath(route).mKey(mKey).build();
            }
        };
    }
}
