package org.jrdma.examples;

import java.util.Arrays;
import java.util.List;
import org.jrdma.verbs.Cq;
import org.jrdma.verbs.PreparedSend;
import org.jrdma.verbs.Qp;
import org.jrdma.verbs.SendFlags;
import org.jrdma.verbs.SendWr;
import org.jrdma.verbs.WcBuffer;
import org.jrdma.verbs.WrException;
import org.jrdma.verbs.WrOpcode;

/**
 * The sending side of {@link WriteBw} and {@link SendBw}: perftest's {@code perform_warm_up},
 * {@code run_iter_bw} and {@code print_report_bw} for one or more queue pairs ({@link Lane}s),
 * one work request per post, RDMA writes or SENDs (RC, or UD to an address handle). Up to
 * {@code tx-depth} requests are outstanding on each queue pair, which are served in turn; one in
 * {@code cq-mod} is signalled (and each queue pair's last); all complete on one completion queue,
 * each request's {@code wr_id} its queue pair's index. Messages up to half the cycle buffer walk
 * through it in cache-line steps, on both sides, as perftest's do. Each request is prepared once
 * ({@link PreparedSend}) and changed in place per post, as perftest changes its request. Times
 * are {@link System#nanoTime()} where perftest counts CPU cycles. The loops allocate nothing.
 */
final class BwWriter {
    /** perftest's {@code CTX_POLL_BATCH}: completions taken per poll. */
    private static final int POLL_BATCH = 16;
    /** Messages per call of {@code iterations} in the warm-up (at least 5, as {@code -n}). */
    private static final int WARMUP_CHUNK = 16;
    private static final long NANOS_PER_SECOND = 1_000_000_000L;
    private static final long MIB = 0x100000;
    private static final long GBIT = 125_000_000;

    /**
     * One queue pair's stream of messages.
     *
     * @param qp         the queue pair
     * @param request    its request: opcode, one scatter/gather element of {@code size} bytes at
     *                   {@code localBase}, the remote address and key of a write, the address
     *                   handle, QPN and Q_Key of a UD send
     * @param localBase  where its messages start in the local buffer
     * @param remoteBase where an RDMA write's messages start in the remote buffer (unused for sends)
     */
    record Lane(Qp qp, SendWr request, long localBase, long remoteBase) {
    }

    private final Cq cq;
    private final BwSettings settings;
    private final WcBuffer wcs = new WcBuffer(POLL_BATCH);
    /** Each lane's request, prepared once; each post moves its addresses and sets its flags. */
    private final PreparedSend[] requests;
    private final long[] localBase;
    private final long[] remoteBase;
    private final long[] localAddr;
    private final long[] remoteAddr;
    private final int[] flags;
    private final long[] scnt;
    private final long[] ccnt;
    private final boolean rdma;
    private final int rkey;
    private final int lanes;
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
     * A sender of {@code settings.size()}-byte messages on {@code lanes}, walking through
     * {@code cycleBuffer} bytes in steps of at least {@code cacheLine}.
     */
    BwWriter(Cq cq, BwSettings settings, List<Lane> lanes, int cycleBuffer, int cacheLine) {
        this.cq = cq;
        this.settings = settings;
        this.lanes = lanes.size();
        this.requests = new PreparedSend[this.lanes];
        this.localBase = new long[this.lanes];
        this.remoteBase = new long[this.lanes];
        this.localAddr = new long[this.lanes];
        this.remoteAddr = new long[this.lanes];
        this.flags = new int[this.lanes];
        this.scnt = new long[this.lanes];
        this.ccnt = new long[this.lanes];
        SendWr first = lanes.getFirst().request();
        this.rdma = first.opcode() == WrOpcode.RDMA_WRITE;
        this.rkey = first.rkey();
        for (int i = 0; i < this.lanes; i++) {
            Lane lane = lanes.get(i);
            localBase[i] = lane.localBase();
            remoteBase[i] = lane.remoteBase();
            requests[i] = lane.qp().prepareSend(lane.request().wrId(i));
        }
        int size = settings.size();
        this.step = size > cacheLine ? (size + cacheLine - 1) / cacheLine * cacheLine : cacheLine;
        this.stepsPerCycle = size <= cycleBuffer / 2 ? cycleBuffer / step : 0;
        int samples = settings.noPeak() ? 0 : Math.max(settings.iters(), settings.warmup()) * this.lanes;
        this.tposted = new long[samples];
        this.tcompleted = new long[samples];
    }

    /** {@code ctx_set_send_wqes}: each request signalled, at the start of both buffers. */
    private void reset() {
        for (int i = 0; i < lanes; i++) {
            flags(i, SendFlags.SIGNALED);
            at(i, localBase[i], remoteBase[i]);
        }
    }

    /** Sets the flags of lane {@code i}'s request. */
    private void flags(int i, int value) {
        flags[i] = value;
        requests[i].flags(value);
    }

    /** Points lane {@code i}'s request at {@code local} and, for a write, {@code remote}. */
    private void at(int i, long local, long remote) {
        localAddr[i] = local;
        remoteAddr[i] = remote;
        requests[i].sgeAddr(0, local);
        if (rdma) {
            requests[i].remoteAddr(remote, rkey);
        }
    }

    /**
     * {@code perform_warm_up}: on each queue pair in turn, {@code tx-depth} signalled requests
     * to the same addresses, waited for.
     */
    void warmUp() throws BwException {
        reset();
        for (int lane = 0; lane < lanes; lane++) {
            for (int i = 0; i < settings.txDepth(); i++) {
                send(lane, i);
            }
            for (int left = settings.txDepth(); left > 0; ) {
                int ne = cq.poll(wcs);
                for (int i = 0; i < ne; i++) {
                    check(i, settings.txDepth(), settings.txDepth() - left);
                    left--;
                }
            }
        }
    }

    /**
     * Runs {@code iters} messages per queue pair unreported: the Java-only {@code --warmup},
     * through the very code of the measured run, so that the JIT has compiled that loop, as the
     * measured run uses it, before the clock starts; in calls of {@link #WARMUP_CHUNK} messages,
     * so that the loop is compiled as a method, which every measured run enters, and not only on
     * its stack.
     */
    void untimed(int iters) throws BwException {
        for (int done = 0; done < iters; ) {
            // the last call takes the rest with it, so that no call is left too short to signal
            int n = iters - done < 2 * WARMUP_CHUNK ? iters - done : WARMUP_CHUNK;
            iterations(n);
            done += n;
        }
    }

    /** The measured run, {@code -n} messages per queue pair or {@code -D} seconds, and its report. */
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

    /** {@code run_iter_bw} for {@code iters} messages per queue pair, with per-message times for the peak. */
    private void iterations(int iters) throws BwException {
        reset();
        boolean peak = !settings.noPeak();
        int cqMod = settings.cqMod();
        long total = (long) iters * lanes;
        long totscnt = 0;
        long totccnt = 0;
        Arrays.fill(scnt, 0);
        Arrays.fill(ccnt, 0);
        firstPosted = System.nanoTime();
        if (peak) {
            Arrays.fill(tcompleted, Long.MAX_VALUE);
        }
        while (totscnt < total || totccnt < total) {
            for (int lane = 0; lane < lanes; lane++) {
                while (scnt[lane] < iters && scnt[lane] - ccnt[lane] < settings.txDepth()) {
                    if (scnt[lane] % cqMod == 0 && cqMod > 1 && scnt[lane] != iters - 1) {
                        flags(lane, flags[lane] & ~SendFlags.SIGNALED);
                    }
                    if (peak) {
                        tposted[(int) totscnt] = System.nanoTime();
                    }
                    post(lane, scnt[lane]);
                    scnt[lane]++;
                    totscnt++;
                    if (scnt[lane] % cqMod == cqMod - 1 || scnt[lane] == iters - 1) {
                        flags(lane, flags[lane] | SendFlags.SIGNALED);
                    }
                }
            }
            if (totccnt < total) {
                int ne = cq.poll(wcs);
                ops += ne;
                for (int i = 0; i < ne; i++) {
                    check(i, totscnt, totccnt);
                    ccnt[(int) wcs.wrId(i)] += cqMod;
                    totccnt += cqMod;
                    if (peak) {
                        tcompleted[totccnt >= total - 1 ? (int) total - 1 : (int) totccnt - 1] = System.nanoTime();
                    }
                }
            }
        }
        lastCompleted = System.nanoTime();
    }

    /**
     * {@code run_iter_bw} for {@code -D} seconds: a quarter-duration margin (whole seconds) to
     * settle, then the messages completed until the last margin are counted and timed.
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
        long totscnt = 0;
        long totccnt = 0;
        Arrays.fill(scnt, 0);
        Arrays.fill(ccnt, 0);
        for (long now = begin; now < end; now = System.nanoTime()) {
            if (!sampling && now >= sampleFrom && now < sampleTo) {
                sampling = true;
                sampled = 0;
                firstPosted = now;
            } else if (sampling && now >= sampleTo) {
                sampling = false;
                lastCompleted = now;
            }
            for (int lane = 0; lane < lanes; lane++) {
                while (scnt[lane] - ccnt[lane] < settings.txDepth()) {
                    if (scnt[lane] % cqMod == 0 && cqMod > 1) {
                        flags(lane, flags[lane] & ~SendFlags.SIGNALED);
                    }
                    post(lane, scnt[lane]);
                    scnt[lane]++;
                    totscnt++;
                    if (scnt[lane] % cqMod == cqMod - 1) {
                        flags(lane, flags[lane] | SendFlags.SIGNALED);
                    }
                }
            }
            if (totccnt < totscnt) {
                int ne = cq.poll(wcs);
                ops += ne;
                for (int i = 0; i < ne; i++) {
                    check(i, totscnt, totccnt);
                    ccnt[(int) wcs.wrId(i)] += cqMod;
                    totccnt += cqMod;
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

    /**
     * Posts lane {@code lane}'s request, then moves its addresses on as
     * {@code increase_loc_addr}/{@code increase_rem_addr} do.
     */
    private void post(int lane, long count) throws BwException {
        send(lane, count);
        if (stepsPerCycle > 0) {
            if ((count + 1) % stepsPerCycle == 0) {
                at(lane, localBase[lane], remoteBase[lane]);
            } else {
                at(lane, localAddr[lane] + step, remoteAddr[lane] + step);
            }
        }
    }

    /** Posts lane {@code lane}'s request as it is. */
    private void send(int lane, long count) throws BwException {
        try {
            requests[lane].post();
            ops++;
        } catch (WrException e) {
            throw new BwException("Couldn't post send: qp " + lane + " scnt=" + count + ": " + e.getMessage());
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
        long iters = settings.duration() > 0 ? sampled : (long) settings.iters() * lanes;
        long format = settings.gbits() ? GBIT : MIB;
        long size = settings.size();
        double nanos = settings.noPeak() ? lastCompleted - firstPosted : tcompleted[(int) iters - 1] - tposted[0];
        double average = (double) size * iters * NANOS_PER_SECOND / (nanos * format);
        double msgRate = (double) iters * NANOS_PER_SECOND / (nanos * 1_000_000);
        double peak = settings.noPeak() ? 0 : (double) (size * NANOS_PER_SECOND) / (peakDelta((int) iters) * format);
        return new BwReport(size, iters, peak, average, msgRate);
    }

    /**
     * The shortest time per message over any run of consecutive messages ending on a signalled
     * one (perftest's {@code opt_delta}), in whole nanoseconds.
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

    /** Nanoseconds per message from posting {@code i} to completing {@code j}; huge when {@code j} never completed alone. */
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
