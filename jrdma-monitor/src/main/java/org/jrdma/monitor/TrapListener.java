package org.jrdma.monitor;

import java.time.Duration;
import java.util.List;
import java.util.function.Consumer;
import org.jrdma.RdmaException;
import org.jrdma.iba.Gid;
import org.jrdma.iba.Mad;
import org.jrdma.iba.smp.SmpInformInfo;
import org.jrdma.iba.smp.SmpNotice;
import org.jrdma.iba.smp.SmpNoticeTrap128;
import org.jrdma.iba.smp.SmpNoticeTrap144;
import org.jrdma.iba.smp.SmpNoticeTrap64;
import org.jrdma.mad.IncomingRequest;
import org.jrdma.mad.MadEngine;
import org.jrdma.mad.MadException;
import org.jrdma.mad.MadTransactor;
import org.jrdma.mad.ReceivedMad;

/**
 * The monitor's subscription to the SM's traps (IBA 13.4.8, 14.2.5.1): for each of {@link #TRAPS}
 * an InformInfo SubnAdmSet with Subscribe 1 (every source LID, every producer), then a thread of its
 * own serving the SA class's Report method on this port: each SubnAdmReport(Notice) is answered with
 * its SubnAdmReportResp (the Notice echoed, as IBA 13.4.8.1 has the subscriber acknowledge it)
 * and handed to a consumer (the monitor re-reads what it names, {@link TargetedReads}, rather
 * than waiting for its next cycle). {@link #close()} cancels the subscriptions (Subscribe 0).
 */
final class TrapListener implements AutoCloseable {
    /** GID in service (64), GID out of service (65), link state change of a switch port (128), a port's local change (144). */
    static final List<Integer> TRAPS = List.of(64, 65, 128, 144);
    /** IBA 13.4.8.3: "all" in InformInfo's LIDRangeBegin, Type and ProducerType. */
    private static final int ALL_LIDS = 0xFFFF;
    private static final int ALL_TYPES = 0xFFFF;
    private static final int ALL_PRODUCERS = 0xFFFFFF;

    /**
     * A trap the SA forwarded: its number, the LID or GID it concerns as text, the issuer's LID, the
     * LID it names (128, 144; else 0) and the port GUID it names (64, 65: the GID's interface ID; else null).
     */
    record Trap(int number, String subject, int issuerLid, int lid, String portGuid) {
        static Trap of(SmpNotice notice) {
            int number = notice.trapNumberOrDeviceId();
            byte[] details = notice.dataDetails();
            return switch (number) {
                case 64, 65 -> {
                    Gid gid = SmpNoticeTrap64.decode(details, 0).gidAddr();
                    yield new Trap(number, "GID " + gid, notice.issuerLid(), 0, gid.guid().toHexString());
                }
                case 128 -> {
                    int lid = SmpNoticeTrap128.decode(details, 0).lidAddr();
                    yield new Trap(number, "switch LID " + lid, notice.issuerLid(), lid, null);
                }
                case 144 -> {
                    int lid = SmpNoticeTrap144.decode(details, 0).lidAddr();
                    yield new Trap(number, "LID " + lid, notice.issuerLid(), lid, null);
                }
                default -> new Trap(number, "", notice.issuerLid(), 0, null);
            };
        }
    }

    private final MadTransactor mt;
    private final MadEngine engine;
    private final Consumer<Trap> consumer;
    private final Thread thread;
    private volatile boolean stopped;

    private TrapListener(MadTransactor mt, MadEngine engine, Consumer<Trap> consumer) {
        this.mt = mt;
        this.engine = engine;
        this.consumer = consumer;
        this.thread = Thread.ofVirtual().name("jrdma-monitor-traps").unstarted(this::serve);
    }

    /**
     * Registers this port as the SA class's Report agent, subscribes to {@link #TRAPS} with the
     * SM's SA, and starts serving Reports.
     *
     * @throws RdmaException if the SA refuses or does not answer a subscription
     */
    static TrapListener subscribe(MadTransactor mt, MadEngine engine, Consumer<Trap> consumer) {
        mt.registerServer(Mad.CLASS_SUBN_ADM, 2, 1L << Mad.METHOD_REPORT, 0);
        TrapListener listener = new TrapListener(mt, engine, consumer);
        listener.thread.start();
        for (int trap : TRAPS) {
            mt.subnAdmSet(informInfo(trap, true), 0);
        }
        return listener;
    }

    private static SmpInformInfo informInfo(int trap, boolean subscribe) {
        return new SmpInformInfo().lidRangeBegin(ALL_LIDS).lidRangeEnd(0).isGeneric(1).subscribe(subscribe ? 1 : 0)
                .type(ALL_TYPES).trapNumberOrDeviceId(trap).qpn(1).respTimeValue(18).producerTypeOrVendorId(ALL_PRODUCERS);
    }

    private void serve() {
        while (!stopped) {
            ReceivedMad in;
            try {
                in = engine.receiveRequest(Duration.ofMillis(200));
            } catch (RdmaException e) {
                return;     // the engine closed under us
            }
            if (in == null) {
                continue;
            }
            try {
                IncomingRequest request = mt.parseRequest(in);
                if (request.method() != Mad.METHOD_REPORT || !(request.attribute().orElse(null) instanceof SmpNotice notice)) {
                    continue;
                }
                mt.sendReply(request, notice);
                Trap trap = Trap.of(notice);
                consumer.accept(trap);
            } catch (MadException e) {
                // Not a Report we can read: nothing to answer (the SA retries a Report it gets no answer to).
            }
        }
    }

    @Override
    public void close() {
        stopped = true;
        try {
            for (int trap : TRAPS) {
                mt.subnAdmSet(informInfo(trap, false), 0);
            }
        } catch (RdmaException e) {
            // The SA is gone or does not answer: its subscriptions lapse with it.
        } finally {
            try {
                thread.join(Duration.ofSeconds(2));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }
}
