package org.jrdma.monitor;

import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.ConcurrentHashMap;
import org.jrdma.RdmaException;
import org.jrdma.iba.pm.PmPortCounters;
import org.jrdma.iba.pm.PmPortCountersExtended;
import org.jrdma.mad.GmpClient;
import org.jrdma.mad.MadSchedule;
import org.jrdma.monitor.FabricView.NodeView;
import org.jrdma.monitor.FabricView.PortView;

/**
 * One sweep of the performance counters of every linked port of the subnet: a PerfMgt Get of
 * PortCounters and one of PortCountersExtended for each port (IBA 16.1.3.5, 16.1.4.11), a switch's
 * ports through the switch's LID with PortSelect set to the port, all of them in parallel on a
 * {@link MadSchedule} bounded by the engine's {@code maxOutstanding}. A port whose agent does not
 * answer PortCountersExtended is read from PortCounters alone; a port that answers neither is
 * counted in {@link Result#failedPorts()}.
 */
final class CounterSweep {
    private CounterSweep() {
    }

    /** A port of the subnet, by its node's GUID and its number. */
    record PortKey(String guid, int port) {
    }

    /** One port's counter values read by this sweep. */
    record Readings(Map<PortCounter, PortCounter.Reading> values) {
    }

    /**
     * What a sweep read.
     *
     * @param readings    the ports read, by port
     * @param failedPorts how many ports answered neither attribute
     * @param seconds     how long the sweep took
     */
    record Result(Map<PortKey, Readings> readings, int failedPorts, double seconds) {
    }

    /** Reads every port of {@code view} that has a LID and is up (PortState Init or beyond). */
    static Result run(GmpClient gmp, int window, FabricView view) {
        long start = System.nanoTime();
        List<Callable<Void>> reads = new ArrayList<>();
        Map<PortKey, PmPortCounters> basic = new ConcurrentHashMap<>();
        Map<PortKey, PmPortCountersExtended> extended = new ConcurrentHashMap<>();
        for (NodeView node : view.nodes().values()) {
            for (PortView port : node.ports()) {
                int lid = node.isSwitch() ? node.lid() : port.lid();
                if (lid == 0 || port.state() < 2) {
                    continue;
                }
                PortKey key = new PortKey(node.guid(), port.port());
                reads.add(() -> {
                    tryRead(() -> basic.put(key, gmp.performanceGet(new PmPortCounters().portSelect(port.port()), lid, 0)));
                    return null;
                });
                reads.add(() -> {
                    tryRead(() -> extended.put(key, gmp.performanceGet(new PmPortCountersExtended().portSelect(port.port()), lid, 0)));
                    return null;
                });
            }
        }
        try (MadSchedule schedule = new MadSchedule(window)) {
            schedule.mqueue(reads.iterator());
            schedule.run();
        }
        Map<PortKey, Readings> readings = new java.util.HashMap<>();
        java.util.Set<PortKey> keys = new java.util.HashSet<>(basic.keySet());
        keys.addAll(extended.keySet());
        for (PortKey key : keys) {
            Map<PortCounter, PortCounter.Reading> values = new EnumMap<>(PortCounter.class);
            for (PortCounter counter : PortCounter.values()) {
                PortCounter.Reading reading = counter.read(basic.get(key), extended.get(key));
                if (reading != null) {
                    values.put(counter, reading);
                }
            }
            readings.put(key, new Readings(values));
        }
        return new Result(readings, reads.size() / 2 - keys.size(), (System.nanoTime() - start) / 1e9);
    }

    /** Runs a read; a port or agent that does not answer (timeout, error status) leaves its attribute out. */
    private static void tryRead(Runnable read) {
        try {
            read.run();
        } catch (RdmaException e) {
            // Counted as a failed port if its other attribute failed too; the engine counts the lost MADs.
        }
    }
}
