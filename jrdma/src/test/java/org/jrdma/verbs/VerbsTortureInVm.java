package org.jrdma.verbs;

import static org.jrdma.testkit.vm.VmChecks.equal;
import static org.jrdma.testkit.vm.VmChecks.require;

import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.ref.WeakReference;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

import java.util.concurrent.atomic.LongAdder;
import java.util.concurrent.locks.LockSupport;
import java.util.regex.Pattern;
import org.jrdma.RdmaException;
import org.jrdma.iba.Gid;
import org.jrdma.iba.Mtu;
import org.jrdma.testkit.vm.VmChecks;

/**
 * Verbs misuse torture, run by {@code VerbsTortureInVmTest} inside the soft-RoCE VM
 * ({@code java ... org.jrdma.verbs.VerbsTortureInVm rxe0 ROUNDS}): threads, half of them virtual,
 * post sends and receives on the same RC queue pair (connected to itself), poll the same CQ and
 * close the QP, CQ, MR, PD and context at the same time, round after round, through a shared
 * context and through a confined one; a context closed under a thread blocked in a completion
 * channel's and one blocked in an asynchronous-event wait; objects dropped without close, then
 * garbage collected. Every failing call must throw {@link IllegalStateException} (closed, in use,
 * confined), {@link WrongThreadException} (a confined object used by another thread) or an
 * {@link RdmaException}; anything else, a hang or a JVM crash fails. {@code rdma resource show}
 * must count as many kernel objects at the end as at the start. Each check prints
 * {@code PASS name} or {@code FAIL name: reason}; the exit status is the number of failures.
 */
public final class VerbsTortureInVm {
    private static final int PORT = 1;
    private static final int GID_INDEX = 0;
    private static final int ACCESS = Access.LOCAL_WRITE | Access.REMOTE_WRITE | Access.REMOTE_READ;
    /** Threads per round: half platform, half virtual. */
    private static final int THREADS = 8;
    /**
     * The pause between a worker's calls. Parking or {@link Thread#yield}, virtual workers in a
     * loop can keep a virtual closer from the carrier until they stop; see {@link #SLOW}.
     */
    private static final long PAUSE_NANOS = 10_000;
    /**
     * How long a round's threads may take to stop (a closer: once the workers are stopped) before
     * it counts as a hang. A deadlock never ends; 10 s was once too short for a runnable virtual
     * thread to get the VM's one carrier while the host ran three other VMs and builds.
     */
    private static final Duration HANG = Duration.ofSeconds(30);
    /**
     * How long a closer may take before the round's workers are stopped to let it run. The
     * virtual thread scheduler has one carrier in the VM (one CPU seen by the JVM); the virtual
     * workers, each parking {@link #PAUSE_NANOS} between calls, keep a submission queue of that
     * scheduler (the one timer expiries come through) never empty, and its carrier drains that
     * queue before looking at others, so a virtual closer woken by a platform thread (the owner
     * of the lock it waited for, or the JDK's monitor unblocker) can wait there as long as the
     * workers run, and the workers used to run until the closers returned.
     */
    private static final Duration SLOW = Duration.ofSeconds(5);
    /** Whether a slow round's threads were printed already: once per run is enough. */
    private static final AtomicBoolean slowSeen = new AtomicBoolean();
    /** Closes of the current check that took longer than {@link #SLOW}. */
    private final LongAdder slowCloses = new LongAdder();
    /**
     * How soon a wait must return once its context is closed under it: far less than the waits'
     * minute or no time-out. A wait looks every 0.1 s, and returns within 0.9 s in a VM with
     * its CPUs; 3 s was once too short when the host ran six VMs on two cores (5.8 s, for a
     * platform thread).
     */
    private static final Duration PROMPTLY = Duration.ofSeconds(10);

    /** What an {@link IllegalStateException} from a misuse must say: the object, and that it is closed, busy or confined. */
    private static final Pattern CLEAR = Pattern.compile(".+ (is closed|not closed: .+|is in use by a call in another thread.*"
            + "|is confined to the thread that made it.*)");

    private final String device;
    private final int rounds;
    /** Time bound of each concurrent check; rounds stop early when it is spent. */
    private final Duration budget;
    private final VmChecks checks = new VmChecks();
    private final Arena arena = Arena.ofShared();
    /** Exceptions seen, by class and the start of their message: the allowed ones. */
    private final Map<String, LongAdder> seen = new ConcurrentHashMap<>();
    /** Exceptions of a kind no misuse may raise, with their stack traces. */
    private final List<Throwable> unexpected = Collections.synchronizedList(new ArrayList<>());
    private Gid gid;

    private VerbsTortureInVm(String device, int rounds, Duration budget) {
        this.device = device;
        this.rounds = rounds;
        this.budget = budget;
    }

    /**
     * Runs every check on the device named by the first argument, the second giving the rounds of
     * each concurrent check and the third its time bound in seconds.
     */
    public static void main(String[] args) throws Exception {
        VerbsTortureInVm program = new VerbsTortureInVm(args[0], Integer.parseInt(args[1]),
                Duration.ofSeconds(Integer.parseInt(args[2])));
        program.run();
        program.checks.exit();
    }

    private void run() throws Exception {
        Map<String, Integer> before = rdmaResources();
        System.out.println("rdma resource show before: " + before);
        try (Context ctx = Verbs.open(device)) {
            gid = ctx.queryGid(PORT, GID_INDEX);
        }
        checks.check("concurrent post, poll and close through a shared context", () -> torture(false));
        checks.check("concurrent post, poll and close through a confined context", () -> torture(true));
        checks.check("context closed under a blocked completion channel wait and async event wait", this::closeUnderWaits);
        checks.check("objects dropped without close are destroyed with their context", this::dropped);
        checks.check("no kernel objects left", () -> {
            Map<String, Integer> after = rdmaResources();
            System.out.println("rdma resource show after: " + after);
            equal(before, after, "rdma resource counts (before, after)");
        });
        arena.close();
    }

    /** One round's objects, all made by the thread that runs the round. */
    private record Round(Context ctx, Pd pd, Mr mr, Cq cq, Qp qp) {
        List<Resource> all() {
            return List.of(qp, cq, mr, pd, ctx);
        }
    }

    private Round open(boolean confined) {
        Context ctx = confined ? Verbs.openConfined(device) : Verbs.open(device);
        Pd pd = ctx.pd();
        Mr mr = pd.mr(arena.allocate(4096, 4096), ACCESS);
        Cq cq = ctx.cq(64);
        Qp qp = pd.qp(new QpInitAttr(QpType.RC, cq, cq).cap(new QpCap(16, 16, 1, 1, 0)));
        qp.modify(new QpAttr().qpState(QpState.INIT).pkeyIndex(0).portNum(PORT).qpAccessFlags(ACCESS));
        qp.modify(new QpAttr().qpState(QpState.RTR).pathMtu(Mtu.MTU_1024).destQpNum(qp.qpNum()).rqPsn(0)
                .maxDestRdAtomic(1).minRnrTimer(1).ahAttr(new AhAttr().grh(gid, GID_INDEX, 1).portNum(PORT)));
        qp.modify(new QpAttr().qpState(QpState.RTS).sqPsn(0).timeout(14).retryCnt(1).rnrRetry(1).maxRdAtomic(1));
        return new Round(ctx, pd, mr, cq, qp);
    }

    /**
     * Rounds of {@link #THREADS} threads: two post sends, two post receives, two poll the CQ and
     * two close one of the objects each, chosen at random, after a random pause; one of each pair
     * is a platform thread, the other virtual. With a confined context, the round's own thread is
     * a closer too, the only one that can close.
     */
    private void torture(boolean confined) throws Exception {
        seen.clear();
        slowCloses.reset();
        unexpected.clear();
        long deadline = System.nanoTime() + budget.toNanos();
        int done = 0;
        long operations = 0;
        while (done < rounds && System.nanoTime() < deadline) {
            operations += round(open(confined), confined);
            done++;
        }
        System.out.println("  " + done + " rounds of " + THREADS + " threads, " + operations + " calls, " + slowCloses.sum()
                + " close(s) slower than " + SLOW + "; exceptions:");
        new TreeMap<>(seen).forEach((what, n) -> System.out.println("    " + n + " x " + what));
        if (!unexpected.isEmpty()) {
            unexpected.getFirst().printStackTrace(System.out);
        }
        equal(List.of(), unexpected.stream().map(Throwable::toString).distinct().toList(), "unexpected exceptions");
        require(done >= 1, "not one round in " + budget);
        require(seen.keySet().stream().anyMatch(k -> k.contains("closed")), "no use after close was seen: " + seen.keySet());
    }

    /** Runs one round on {@code o}, then closes what is left and checks that every object refuses use; returns the calls made. */
    private long round(Round o, boolean confined) throws Exception {
        AtomicBoolean stop = new AtomicBoolean();
        CountDownLatch start = new CountDownLatch(1);
        LongAdder calls = new LongAdder();
        List<Thread> workers = new ArrayList<>();
        List<Thread> closers = new ArrayList<>();
        for (int i = 0; i < THREADS; i++) {
            int role = i % 4;
            Runnable body = () -> {
                try {
                    start.await();
                    if (role == 3) {
                        pauseAndClose(o);
                        return;
                    }
                    WcBuffer wcs = new WcBuffer(16);
                    while (!stop.get()) {
                        calls.increment();
                        attempt(() -> {
                            switch (role) {
                                case 0 -> o.qp().postSend(new SendWr().wrId(1).opcode(WrOpcode.SEND)
                                        .sge(o.mr().sge(0, 64)).flags(SendFlags.SIGNALED));
                                case 1 -> o.qp().postRecv(new RecvWr().wrId(2).sge(o.mr().sge(64, 64)));
                                default -> o.cq().poll(wcs);
                            }
                        });
                        LockSupport.parkNanos(PAUSE_NANOS);
                    }
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                } catch (Throwable t) {
                    unexpected.add(t);
                }
            };
            Thread thread = (i < THREADS / 2 ? Thread.ofPlatform().daemon() : Thread.ofVirtual()).unstarted(body);
            (role == 3 ? closers : workers).add(thread);
            thread.start();
        }
        start.countDown();
        try {
            if (confined) {
                pauseAndClose(o);
            }
            for (Thread closer : closers) {
                joinCloser(closer, stop, closers, workers);
            }
            Thread.sleep(ThreadLocalRandom.current().nextInt(3));
        } finally {
            stop.set(true);
        }
        for (Thread worker : workers) {
            joinWorker(worker, closers, workers);
        }
        o.ctx().close();
        for (Resource r : o.all()) {
            require(r.isClosed(), r + " open after its context closed");
        }
        expectClosed(() -> o.qp().postSend(new SendWr().wrId(3).opcode(WrOpcode.SEND).sge(o.mr().sge(0, 8))), "post send");
        expectClosed(() -> o.qp().postRecv(new RecvWr().wrId(4)), "post recv");
        expectClosed(() -> o.cq().poll(new WcBuffer(1)), "poll");
        expectClosed(() -> o.pd().mr(arena.allocate(64), ACCESS), "reg mr");
        expectClosed(() -> o.ctx().pd(), "alloc pd");
        expectClosed(() -> o.qp().modify(new QpAttr().qpState(QpState.ERR)), "modify qp");
        return calls.sum();
    }

    /**
     * Waits for {@code thread}, a closer. Past {@link #SLOW} it stops the round's workers (whose
     * virtual threads, parking a few microseconds at a time, can keep the virtual thread
     * scheduler's only carrier from a virtual closer woken by another thread), printing the
     * round's threads the first time; if the closer has still not returned {@link #HANG} later, it
     * prints them with the scheduler's state and every thread of the JVM, and fails.
     */
    @SafeVarargs
    private void joinCloser(Thread thread, AtomicBoolean stop, List<Thread>... round) throws InterruptedException {
        if (thread.join(SLOW)) {
            return;
        }
        long start = System.nanoTime();
        stop.set(true);
        slowCloses.increment();
        if (!slowSeen.getAndSet(true)) {
            System.out.println("  SLOW: a close has not returned in " + SLOW + " (" + thread + "); workers stopped");
            printRound(round);
        }
        if (thread.join(HANG)) {
            System.out.println("  SLOW: the close returned " + Duration.ofNanos(System.nanoTime() - start).toMillis()
                    + " ms after the workers were stopped");
            return;
        }
        hang("a close", thread, round);
    }

    /** Waits {@link #HANG} for {@code thread}, a worker told to stop; if it is still running, prints and fails. */
    @SafeVarargs
    private static void joinWorker(Thread thread, List<Thread>... round) throws InterruptedException {
        if (!thread.join(HANG)) {
            hang("a post or poll", thread, round);
        }
    }

    /**
     * Prints the round's threads, the virtual thread scheduler's state ({@code jcmd
     * Thread.vthread_scheduler}), every platform thread with the locks it holds ({@code jcmd
     * Thread.print -l -e}) and every thread, virtual ones included ({@code jcmd
     * Thread.dump_to_file -format=json}); then fails.
     */
    @SafeVarargs
    private static void hang(String what, Thread thread, List<Thread>... round) {
        System.out.println("  HANG: " + what + " has not returned in " + HANG + " (" + thread + ")");
        printRound(round);
        jcmd("Thread.vthread_scheduler");
        jcmd("Thread.print", "-l", "-e");
        Path json = Path.of("/tmp", "torture-threads-" + ProcessHandle.current().pid() + ".json");
        jcmd("Thread.dump_to_file", "-overwrite", "-format=json", json.toString());
        try {
            System.out.println(Files.readString(json));
        } catch (IOException e) {
            System.out.println("  no JSON thread dump: " + e);
        }
        throw new AssertionError(what + " did not return in " + HANG + " (" + thread + ")");
    }

    /** Prints each thread of a round with its state and stack. */
    @SafeVarargs
    private static void printRound(List<Thread>... round) {
        for (List<Thread> threads : round) {
            for (Thread t : threads) {
                System.out.println("  " + t + " " + t.getState());
                for (StackTraceElement e : t.getStackTrace()) {
                    System.out.println("\tat " + e);
                }
            }
        }
    }

    /** Prints what {@code jcmd} says when run on this JVM with {@code command}. */
    private static void jcmd(String... command) {
        List<String> line = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "jcmd").toString(),
                Long.toString(ProcessHandle.current().pid())));
        line.addAll(List.of(command));
        try {
            Process process = new ProcessBuilder(line).redirectErrorStream(true).start();
            String out = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            process.waitFor();
            System.out.println("  === jcmd " + String.join(" ", command) + " (" + Instant.now() + ")\n" + out);
        } catch (IOException e) {
            System.out.println("  === jcmd " + String.join(" ", command) + " failed: " + e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** After a random pause of up to a millisecond, closes one of {@code o}'s objects, recording what that raised. */
    private void pauseAndClose(Round o) {
        ThreadLocalRandom random = ThreadLocalRandom.current();
        long until = System.nanoTime() + random.nextLong(1_000_000);
        while (System.nanoTime() < until) {
            Thread.onSpinWait();
        }
        List<Resource> all = o.all();
        Resource victim = all.get(random.nextInt(all.size()));
        attempt(victim::close);
    }

    /** Runs a call that may fail as a misuse must: the exception is counted, or recorded as unexpected. */
    private void attempt(Runnable call) {
        try {
            call.run();
        } catch (IllegalStateException | WrongThreadException | RdmaException e) {
            count(e);
        } catch (Throwable t) {
            unexpected.add(t);
        }
    }

    private void count(RuntimeException e) {
        String message = String.valueOf(e.getMessage());
        if (e instanceof IllegalStateException) {
            require(CLEAR.matcher(message).matches(), "unclear: " + e);
        }
        String kind = e.getClass().getSimpleName() + " " + message.replaceAll("0x[0-9a-f]+", "N")
                .replaceAll("\\d+", "N");
        seen.computeIfAbsent(kind, k -> new LongAdder()).increment();
    }

    private static void expectClosed(Runnable call, String what) {
        try {
            call.run();
        } catch (IllegalStateException expected) {
            require(String.valueOf(expected.getMessage()).endsWith(" is closed"), what + " after close: " + expected);
            return;
        }
        throw new AssertionError(what + " after close did not throw");
    }

    /**
     * One thread waits for a completion event, another for an asynchronous event, both with a
     * minute's time-out, a third for either through an {@link EventWaiter} without time-out; the
     * context is closed under them: all must return promptly with {@link IllegalStateException}.
     */
    private void closeUnderWaits() throws Exception {
        Context ctx = Verbs.open(device);
        CompChannel channel = ctx.compChannel();
        Cq cq = ctx.cq(8, channel);
        cq.reqNotify(false);
        Map<String, Wait> waits = new LinkedHashMap<>();
        waits.put("completion channel get event (1 min)", () -> channel.getEvent(Duration.ofMinutes(1)));
        waits.put("async event (1 min)", () -> ctx.getAsyncEvent(Duration.ofMinutes(1)));
        waits.put("event waiter, completion or async event (no time-out)", () -> new EventWaiter(channel, true).await(-1));
        Map<String, Object> outcomes = new ConcurrentHashMap<>();
        Map<String, Long> ended = new ConcurrentHashMap<>();
        List<Thread> waiters = new ArrayList<>();
        boolean virtual = false;
        for (Map.Entry<String, Wait> wait : waits.entrySet()) {
            waiters.add((virtual ? Thread.ofVirtual() : Thread.ofPlatform().daemon()).start(() -> {
                outcomes.put(wait.getKey(), outcome(wait.getValue()));
                ended.put(wait.getKey(), System.nanoTime());
            }));
            virtual = !virtual;
        }
        Thread.sleep(500);
        require(outcomes.isEmpty(), "waits returned before the close: " + outcomes);
        long closed = System.nanoTime();
        ctx.close();
        for (Thread waiter : waiters) {
            waiter.join(HANG);
        }
        for (String wait : waits.keySet()) {
            Long end = ended.get(wait);
            require(end != null, wait + " still blocked " + HANG + " after the close");
            long millis = TimeUnit.NANOSECONDS.toMillis(end - closed);
            System.out.println("  " + wait + " returned " + millis + " ms after the close: " + outcomes.get(wait));
            require(millis <= PROMPTLY.toMillis(), wait + " returned " + millis + " ms after the close");
            require(outcomes.get(wait) instanceof IllegalStateException e && e.getMessage().contains(" is closed"),
                    wait + " ended without a clear IllegalStateException: " + outcomes.get(wait));
        }
    }

    private interface Wait {
        Object call() throws Exception;
    }

    private static Object outcome(Wait wait) {
        try {
            return wait.call();
        } catch (Throwable t) {
            return t;
        }
    }

    /**
     * Objects dropped without close: their parent keeps them (no Cleaner), so garbage collection
     * destroys nothing; closing the context destroys them all, and only then are they collected.
     */
    private void dropped() throws Exception {
        Map<String, Integer> before = rdmaResources();
        Context ctx = Verbs.open(device);
        WeakReference<Qp> qp = dropSome(ctx, 5);
        for (int i = 0; i < 3; i++) {
            System.gc();
            Thread.sleep(100);
        }
        Map<String, Integer> held = rdmaResources();
        System.out.println("  with the dropped objects after GC: " + held);
        require(qp.get() != null, "a dropped QP was collected while its context is open");
        equal(before.get("qp") + 5, held.get("qp"), "kernel QPs after GC, its context open");
        equal(before.get("mr") + 5, held.get("mr"), "kernel MRs after GC, its context open");
        ctx.close();
        equal(before, rdmaResources(), "rdma resource counts once the context closed");
        for (int i = 0; i < 10 && qp.get() != null; i++) {
            System.gc();
            Thread.sleep(100);
        }
        require(qp.get() == null, "a closed, dropped QP was never collected");
    }

    /** Makes {@code n} PDs, each with an MR, a CQ and a QP, keeping none; returns a weak reference to the last QP. */
    private WeakReference<Qp> dropSome(Context ctx, int n) {
        Qp last = null;
        for (int i = 0; i < n; i++) {
            Pd pd = ctx.pd();
            pd.mr(arena.allocate(4096, 4096), ACCESS);
            Cq cq = ctx.cq(8);
            last = pd.qp(new QpInitAttr(QpType.RC, cq, cq));
        }
        return new WeakReference<>(last);
    }

    /** {@code rdma resource show}'s counts for this device: {@code pd}, {@code cq}, {@code qp}, {@code mr}, ... */
    private Map<String, Integer> rdmaResources() throws IOException, InterruptedException {
        Map<String, Integer> counts = RdmaResources.counts(device);
        require(counts.containsKey("qp"), "rdma resource show has no qp count for " + device + ": " + counts);
        return counts;
    }
}
