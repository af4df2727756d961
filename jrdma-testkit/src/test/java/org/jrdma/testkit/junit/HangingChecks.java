package org.jrdma.testkit.junit;

import java.time.Duration;
import org.jrdma.testkit.vm.VmChecks;

/**
 * A program of {@link VmChecks} with a deadline of one second run by {@link VmChecksTest}: one
 * check that passes, then one whose virtual thread waits for ever.
 */
public final class HangingChecks {
    private HangingChecks() {
    }

    /** Runs the two checks; the second never ends by itself. */
    public static void main(String[] args) {
        VmChecks checks = new VmChecks(Duration.ofSeconds(1));
        checks.check("quick", () -> VmChecks.equal(2, 1 + 1, "sum"));
        checks.check("hangs", () -> Thread.ofVirtual().name("waiting-for-ever").start(HangingChecks::waitForEver).join());
        checks.exit();
    }

    private static void waitForEver() {
        Object never = new Object();
        synchronized (never) {
            while (true) {
                try {
                    never.wait();
                } catch (InterruptedException e) {
                    return;
                }
            }
        }
    }
}
