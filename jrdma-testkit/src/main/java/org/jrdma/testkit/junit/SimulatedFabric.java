package org.jrdma.testkit.junit;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import org.jrdma.testkit.fabric.Fabric;
import org.jrdma.testkit.fabric.Topology;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Runs the annotated test class or method against a simulated InfiniBand fabric: ibsim on the
 * given topology plus (by default) OpenSM, started before the first test that asks for a
 * {@link Fabric} parameter and stopped when the class (or method) is done, failed or not.
 *
 * <pre>{@code
 * @SimulatedFabric(topology = "two-switch")
 * class DiscoveryTest {
 *     @Test
 *     void findsEverySwitch(Fabric fabric) {
 *         String out = fabric.run("ibnetdiscover").orThrow().stdout();
 *         ...
 *     }
 * }
 * }</pre>
 *
 * <p>When ibsim or OpenSM is not installed the test fails under CI ({@code CI=true}) and is skipped
 * with a loud reason elsewhere.
 */
@Documented
@Retention(RetentionPolicy.RUNTIME)
@Target({ElementType.TYPE, ElementType.METHOD})
@ExtendWith(SimulatedFabricExtension.class)
public @interface SimulatedFabric {
    /** A bundled topology name ({@link Topology#bundledNames()}) or a topology file path. */
    String topology() default "two-switch";

    /** Whether to run OpenSM and wait until the subnet administrator answers. */
    boolean subnetManager() default true;

    /** How long ibsim and OpenSM may take to come up, in seconds. */
    int startupTimeoutSeconds() default 60;
}
