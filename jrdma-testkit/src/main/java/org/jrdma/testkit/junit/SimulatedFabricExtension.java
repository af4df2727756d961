package org.jrdma.testkit.junit;

import java.time.Duration;
import java.util.Optional;
import org.jrdma.testkit.fabric.Fabric;
import org.jrdma.testkit.fabric.Topology;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.ParameterContext;
import org.junit.jupiter.api.extension.ParameterResolver;
import org.junit.platform.commons.support.AnnotationSupport;

/**
 * Resolves {@link Fabric} test parameters for {@link SimulatedFabric}: one fabric per annotated
 * class (shared by its tests) or per annotated method, kept in JUnit's store so that it is closed
 * when that class or method finishes, whatever the outcome.
 */
public final class SimulatedFabricExtension implements ParameterResolver {
    private static final ExtensionContext.Namespace NAMESPACE =
            ExtensionContext.Namespace.create(SimulatedFabricExtension.class);

    /** The extension, as JUnit instantiates it for {@link SimulatedFabric}. */
    public SimulatedFabricExtension() {
    }

    @Override
    public boolean supportsParameter(ParameterContext parameter, ExtensionContext context) {
        return parameter.getParameter().getType() == Fabric.class;
    }

    @Override
    public Object resolveParameter(ParameterContext parameter, ExtensionContext context) {
        ExtensionContext owner = owningContext(context);
        SimulatedFabric spec = annotation(owner).orElseThrow();
        Peers.require(Fabric.isAvailable(), Fabric.unavailabilityCause().orElse(""));
        // A store also answers with what its parents hold, so the key names the owning context:
        // keyed by the type alone, a method with its own annotation got its class's fabric.
        return owner.getStore(NAMESPACE).getOrComputeIfAbsent(owner.getUniqueId(), key -> Startup.attempt(spec), Startup.class)
                .fabricOrThrow();
    }

    /**
     * The outcome of starting the fabric once: the fabric, or why it failed, so that the other
     * tests sharing it fail at once with the same reason instead of trying again.
     */
    private record Startup(Fabric fabric, RuntimeException failure) implements AutoCloseable {
        static Startup attempt(SimulatedFabric spec) {
            Fabric.Options options = new Fabric.Options(spec.subnetManager(),
                    Duration.ofSeconds(spec.startupTimeoutSeconds()), Fabric.Options.defaults().maxLifetime());
            try {
                return new Startup(Fabric.start(Topology.load(spec.topology()), options), null);
            } catch (RuntimeException e) {
                return new Startup(null, e);
            }
        }

        Fabric fabricOrThrow() {
            if (failure != null) {
                throw failure;
            }
            return fabric;
        }

        @Override
        public void close() {
            if (fabric != null) {
                fabric.close();
            }
        }
    }

    /** The method context if the method carries the annotation, else the nearest annotated class context. */
    private static ExtensionContext owningContext(ExtensionContext context) {
        for (ExtensionContext c = context; c != null; c = c.getParent().orElse(null)) {
            if (annotation(c).isPresent()) {
                return c;
            }
        }
        throw new IllegalStateException("Fabric parameter outside a @SimulatedFabric test");
    }

    private static Optional<SimulatedFabric> annotation(ExtensionContext context) {
        return context.getElement().flatMap(e -> AnnotationSupport.findAnnotation(e, SimulatedFabric.class));
    }
}
