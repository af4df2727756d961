package org.jrdma.endpoint;

import static org.jrdma.testkit.vm.VmChecks.require;

import org.jrdma.testkit.ThreadCounters;

/**
 * What a run of echoed round trips between two endpoints of one group cost: the bytes allocated
 * by the calling thread, by the peer's echoing thread and by the group's polling thread, and the
 * time, for {@link EndpointInVm}'s allocation checks.
 */
record RoundTripCost(int rounds, long caller, long echoer, long polling, long nanos) {
    /** Runs {@code roundTrips} ({@code rounds} of them) on this thread and measures the three threads meanwhile. */
    static RoundTripCost measure(EndpointGroup group, Thread echoing, int rounds,
            ThreadCounters.Work<Exception> roundTrips) throws Exception {
        Thread poller = EndpointInVm.groupThread(group);
        long pollerBefore = ThreadCounters.allocatedBytes(poller);
        long echoerBefore = ThreadCounters.allocatedBytes(echoing);
        long start = System.nanoTime();
        long caller = ThreadCounters.allocatedBy(roundTrips);
        long nanos = System.nanoTime() - start;
        return new RoundTripCost(rounds, caller, ThreadCounters.allocatedBytes(echoing) - echoerBefore,
                ThreadCounters.allocatedBytes(poller) - pollerBefore, nanos);
    }

    /**
     * The bounds of {@link PollingMode#ADAPTIVE}, which falls back to parking when a wait outlasts
     * its 20 ms of polling, as a loaded host makes happen: the messaging threads must still
     * allocate less than a byte a round trip, and the group's thread, serving the parked callers,
     * less than 16 bytes (one object).
     */
    void requireAdaptiveBounds() {
        require(caller + echoer < rounds, (caller + echoer) + " bytes allocated by the messaging threads over " + rounds
                + " round trips");
        require(polling < 16L * rounds, polling + " bytes allocated by the group's thread over " + rounds + " round trips");
    }

    @Override
    public String toString() {
        return String.format("%d round trips of 16 bytes, %.1f us each: allocated by the caller %d bytes, by the echoing"
                + " thread %d, by the polling thread %d", rounds, nanos / 1e3 / rounds, caller, echoer, polling);
    }
}
