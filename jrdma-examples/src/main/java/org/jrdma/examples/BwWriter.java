package org.jrdma.examples;

import java.util.Arrays;
import org.jrdma.verbs.Cq;
import org.jrdma.verbs.PreparedSend;
import org.jrdma.verbs.Qp;
import org.jrdma.verbs.SendFlags;
import org.jrdma.verbs.SendWr;
import org.jrdma.verbs.Sge;
import org.jrdma.verbs.WcBuffer;
import org.jrdma.verbs.WrException;
import org.jrdma.verbs.WrOpcode;

/**
 * The writing side of {@link WriteBw}: perftest's {@code perform_warm_up}, {@code run_iter_bw}
 * and {@code print_report_bw} for one RC queue pair and one work request per post. Up to
 * {@code tx-depth} writes are outstanding; one in {@code cq-mod} is signalled (and the last);
 * messages up to half the cycle buffer walk through it in cache-line steps, on both sides, as
 * perftest's do. The write is prepared once ({@link PreparedSend}) and changed in place per post,
 * as perftest changes its request. Times are {@link System#nanoTime()} where perftest counts CPU
 * cycles. The loops allocate nothing.
 */
final class BwWriter {
    /** perftest's {@code CTX_POLL_BATCH}: completions taken per poll. */
    private static final int POLL_BATCH = 16;
    /** Writes per call of {@code iterations} in the warm-up (at least 5, as {@code -n}). */
    private static final int WARMUP_CHUNK = 16;
    private static final long NANOS_PER_SECOND = 1_000_000_000L;
    private static final long MIB = 0x100000;
    private static final long GBIT = 125_000_000;

    private final Cq cq;
    private final BwSettings settings;
    private final WcBuffer wcs = new WcBuffer(POLL_BATCH);
    /** The one RDMA write, prepared once; each post moves its two addresses and sets its flags. */
    private final PreparedSend write;
    private final long localBase;
    private final long remoteBase;
    private final int rkey;
    private long localAddr;
    private long remoteAddr;
    private int flags;
    private final int step;
    private final int stepsPerCycle;
    private final long[] tposted;
    private final long[] tcompleted;
    private long firstPosted;
    private long lastCompleted;
    private long sampled;
    private long ops;
    private final AllocationMeter meter = new AllocationMeter();
    private long allocated;

    /**
     * A writer of {@code settings.size()}-byte messages from {@code localBase} (key {@code lkey})
     * to {@code remoteBase} (key {@code rkey}), walking through {@code cycleBuffer} bytes in
     * steps of at least {@code cacheLine}.
     */
    BwWriter(Qp qp, Cq cq, BwSettings settings, long localBase, int lkey, long remoteBase, int rkey, int cycleBuffer,
            int cacheLine) {
        this.cq = cq;
        this.settings = settings;
        this.localBase = localBase;
        this.remoteBase = remoteBase;
        int size = settings.size();
        this.step = size > cacheLine ? (size + cacheLine - 1) / cacheLine * cacheLine : cacheLine;
        this.stepsPerCycle = size <= cycleBuffer / 2 ? cycleBuffer / step : 0;
        this.rkey = rkey;
        this.write = qp.prepareSend(new SendWr().wrId(0).opcode(WrOpcode.RDMA_WRITE).sge(new Sge(localBase, size, lkey))
                .rdma(remoteBase, rkey));
        int samples = settings.noPeak() ? 0 : Math.max(settings.iters(), settings.warmup());
        this.tposted = new long[samples];
        this.tcompleted = new long[samples];
    }

    /** {@code ctx_set_send_wqes}: the request signalled, at the start of both buffers. */
    private void reset() {
        flags(SendFlags.SIGNALED);
        at(localBase, remoteBase);
    }

    /** Sets the write's flags. */
    private void flags(int value) {
        flags = value;
        write.flags(value);
    }

    /** Points the write at {@code local} and {@code remote}. */
    private void at(long local, long remote) {
        localAddr = local;
        remoteAddr = remote;
        write.sgeAddr(0, local).remoteAddr(remote, rkey);
    }

    /** {@code perform_warm_up}: {@code tx-depth} signalled writes to the same addresses, waited for. */
    void warmUp() throws BwException {
        reset();
        for (int i = 0; i < settings.txDepth(); i++) {
            send(i);
        }
        for (int left = settings.txDepth(); left > 0; ) {
            int ne = cq.poll(wcs);
            for (int i = 0; i < ne; i++) {
                check(i, settings.txDepth(), settings.txDepth() - left);
                left--;
            }
        }
    }

    /**
     * Runs {@code iters} writes unreported: the Java-only {@code --warmup}, through the very
     * code of the measured run, so that the JIT has compiled that loop, as the measured run uses
     * it, before the clock starts; in calls of {@link #WARMUP_CHUNK} writes, so that the loop is
     * compiled as a method, which every measured run enters, and not only on its stack.
     */
    void untimed(int iters) throws BwException {
        for (int done = 0; done < iters; ) {
            // the last call takes the rest with it, so that no call is left too short to signal
            int n = iters - done < 2 * WARMUP_CHUNK ? iters - done : WARMUP_CHUNK;
            iterations(n);
            done += n;
        }
    }

    /** The measured run, {@code -n} writes or {@code -D} seconds, and its report. */
    BwReport run() throws BwException {
        meter.start();
        ops = 0;
        if (settings.duration() > 0) {
            duration();
        } else {
            iterations(settings.iters());
        }
        allocated = meter.stop();
        return report();
    }

    /** The bytes the loop of the last {@link #run} allocated. */
    long allocated() {
        return allocated;
    }

    /** The work requests posted and completions polled in the last {@link #run}. */
    long ops() {
        return ops;
    }

    /** {@code run_iter_bw} for {@code iters} writes, with per-write times for the peak. */
    private void iterations(int iters) throws BwException {
        reset();
        boolean peak = !settings.noPeak();
        int cqMod = settings.cqMod();
        long scnt = 0;
        long ccnt = 0;
        firstPosted = System.nanoTime();
        if (peak) {
            Arrays.fill(tcompleted, Long.MAX_VALUE);
        }
        while (scnt < iters || ccnt < iters) {
            while (scnt < iters && scnt - ccnt < settings.txDepth()) {
                if (scnt % cqMod == 0 && cqMod > 1) {
                    flags(flags & ~SendFlags.SIGNALED);
                }
                if (peak) {
                    tposted[(int) scnt] = System.nanoTime();
                }
                post(scnt);
                scnt++;
                if (scnt % cqMod == cqMod - 1 || scnt == iters - 1) {
                    flags(flags | SendFlags.SIGNALED);
                }
            }
            if (ccnt < iters) {
                int ne = cq.poll(wcs);
                ops += ne;
                for (int i = 0; i < ne; i++) {
                    check(i, scnt, ccnt);
                    ccnt += cqMod;
                    if (peak) {
                        tcompleted[ccnt >= iters - 1 ? iters - 1 : (int) ccnt - 1] = System.nanoTime();
                    }
                }
            }
        }
        lastCompleted = System.nanoTime();
    }

    /**
     * {@code run_iter_bw} for {@code -D} seconds: a quarter-duration margin (whole seconds) to
     * settle, then the writes completed until the last margin are counted and timed.
     */
    private void duration() throws BwException {
        reset();
        int cqMod = settings.cqMod();
        long begin = System.nanoTime();
        long sampleFrom = begin + settings.margin() * NANOS_PER_SECOND;
        long sampleTo = begin + (settings.duration() - settings.margin()) * NANOS_PER_SECOND;
        long end = begin + settings.duration() * NANOS_PER_SECOND;
        boolean sampling = false;
        sampled = 0;
        long scnt = 0;
        long ccnt = 0;
        for (long now = begin; now < end; now = System.nanoTime()) {
            if (!sampling && now >= sampleFrom && now < sampleTo) {
                sampling = true;
                sampled = 0;
                firstPosted = now;
            } else if (sampling && now >= sampleTo) {
                sampling = false;
                lastCompleted = now;
            }
            while (scnt - ccnt < settings.txDepth()) {
                if (scnt % cqMod == 0 && cqMod > 1) {
                    flags(flags & ~SendFlags.SIGNALED);
                }
                post(scnt);
                scnt++;
                if (scnt % cqMod == cqMod - 1) {
                    flags(flags | SendFlags.SIGNALED);
                }
            }
            if (ccnt < scnt) {
                int ne = cq.poll(wcs);
                ops += ne;
                for (int i = 0; i < ne; i++) {
                    check(i, scnt, ccnt);
                    ccnt += cqMod;
                    if (sampling) {
                        sampled += cqMod;
                    }
                }
            }
        }
        if (sampling) {
            lastCompleted = System.nanoTime();
        }
    }

    /** Posts the request, then moves both addresses on as {@code increase_loc_addr}/{@code increase_rem_addr} do. */
    private void post(long scnt) throws BwException {
        send(scnt);
        if (stepsPerCycle > 0) {
            if ((scnt + 1) % stepsPerCycle == 0) {
                at(localBase, remoteBase);
            } else {
                at(localAddr + step, remoteAddr + step);
            }
        }
    }

    /** Posts the request as it is. */
    private void send(long scnt) throws BwException {
        try {
            write.post();
            ops++;
        } catch (WrException e) {
            throw new BwException("Couldn't post send: qp 0 scnt=" + scnt + ": " + e.getMessage());
        }
    }

    private void check(int i, long scnt, long ccnt) throws BwException {
        if (!wcs.isSuccess(i)) {
            throw new BwException(" Completion with error at client\n Failed status " + wcs.status(i).value() + ": wr_id "
                    + wcs.wrId(i) + " syndrom 0x" + Integer.toHexString(wcs.vendorErr(i)) + "\n scnt=" + scnt
                    + ", ccnt=" + ccnt + " (" + wcs.status(i).text() + ")");
        }
    }

    /** {@code print_report_bw}'s figures, without the per-port ones. */
    private BwReport report() {
        long iters = settings.duration() > 0 ? sampled : settings.iters();
        long format = settings.gbits() ? GBIT : MIB;
        long size = settings.size();
        double nanos = settings.noPeak() ? lastCompleted - firstPosted : tcompleted[(int) iters - 1] - tposted[0];
        double average = (double) size * iters * NANOS_PER_SECOND / (nanos * format);
        double msgRate = (double) iters * NANOS_PER_SECOND / (nanos * 1_000_000);
        double peak = settings.noPeak() ? 0 : (double) (size * NANOS_PER_SECOND) / (peakDelta((int) iters) * format);
        return new BwReport(size, iters, peak, average, msgRate);
    }

    /**
     * The shortest time per write over any run of consecutive writes ending on a signalled one
     * (perftest's {@code opt_delta}), in whole nanoseconds.
     */
    private long peakDelta(int iters) {
        int cqMod = settings.cqMod();
        long best = tcompleted[0] - tposted[0];
        for (int i = 0; i < iters; i++) {
            for (int j = (i + cqMod) / cqMod * cqMod - 1; j < iters; j += cqMod) {
                best = Math.min(best, delta(i, j));
            }
            if (iters % cqMod != 0) {
                best = Math.min(best, delta(i, iters - 1));
            }
        }
        return best;
    }

    /** Nanoseconds per write from posting {@code i} to completing {@code j}; huge when {@code j} never completed alone. */
    private long delta(int i, int j) {
        return tcompleted[j] == Long.MAX_VALUE ? Long.MAX_VALUE : (tcompleted[j] - tposted[i]) / (j - i + 1);
    }

    /** A failure of the data path, in perftest's words. */
    static final class BwException extends Exception {
        private static final long serialVersionUID = 1L;

        BwException(String message) {
            super(message);
        }
    }
}
