package org.jrdma.examples.demo;

import java.lang.foreign.Arena;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import org.jrdma.iba.Gid;
import org.jrdma.iba.Mtu;
import org.jrdma.testkit.vm.SoftRoceVm;
import org.jrdma.testkit.vm.VmResult;
import org.jrdma.verbs.Access;
import org.jrdma.verbs.AhAttr;
import org.jrdma.verbs.Context;
import org.jrdma.verbs.CqEx;
import org.jrdma.verbs.DeviceAttrEx;
import org.jrdma.verbs.GidEntry;
import org.jrdma.verbs.Mr;
import org.jrdma.verbs.Mw;
import org.jrdma.verbs.Pd;
import org.jrdma.verbs.PreparedRecv;
import org.jrdma.verbs.Qp;
import org.jrdma.verbs.QpAttr;
import org.jrdma.verbs.QpCap;
import org.jrdma.verbs.QpEx;
import org.jrdma.verbs.QpInitAttr;
import org.jrdma.verbs.QpState;
import org.jrdma.verbs.QpType;
import org.jrdma.verbs.RecvWr;
import org.jrdma.verbs.SendFlags;
import org.jrdma.verbs.SendOps;
import org.jrdma.verbs.UnsupportedVerbException;
import org.jrdma.verbs.Verbs;
import org.jrdma.verbs.WcFlagsEx;
import org.jrdma.verbs.WcStatus;

/**
 * The demo's extended-verbs step: in the soft-RoCE VM, {@code ibv_query_device_ex} and the GID
 * table of {@code rxe0}, a ping-pong between two RC queue pairs built with the {@code ibv_wr_*}
 * builder ({@link QpEx}) and polled with {@code ibv_start_poll} ({@link CqEx}), a type 2 memory
 * window bound by a work request and read through, and what rxe lacks refused with
 * {@link UnsupportedVerbException}.
 */
public final class ExtendedVerbsDemoStep {
    private static final int ROUND_TRIPS = 20_000;
    private static final int ACCESS = Access.LOCAL_WRITE | Access.REMOTE_WRITE | Access.REMOTE_READ | Access.MW_BIND;

    private ExtendedVerbsDemoStep() {
    }

    /** Boots the VM and runs {@link #main} there on {@code rxe0}. */
    public static void run() {
        System.out.println();
        System.out.println("=== Extended verbs on rxe0: query_device_ex, QP-ex and CQ-ex ping-pong, memory windows ===");
        if (!SoftRoceVm.isAvailable()) {
            System.out.println("skipped: " + SoftRoceVm.unavailabilityCause());
            return;
        }
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        VmResult result = SoftRoceVm.create().run(java + " --enable-native-access=ALL-UNNAMED -cp '"
                + System.getProperty("java.class.path") + "' " + ExtendedVerbsDemoStep.class.getName() + " rxe0",
                Duration.ofMinutes(5));
        System.out.print(result.output());
        System.out.printf("(VM run took %d ms, exit status %d)%n", result.elapsed().toMillis(), result.exitCode());
    }

    /** The step inside the VM, on the device named by the first argument. */
    public static void main(String[] args) {
        try (Context ctx = Verbs.openConfined(args[0]); Arena arena = Arena.ofConfined()) {
            DeviceAttrEx attr = ctx.queryDeviceEx();
            System.out.printf("ibv_query_device_ex: device_cap_flags_ex 0x%x (memory windows %s, type 2B %s, XRC %s),"
                    + " ODP general caps 0x%x, completion timestamp mask 0x%x, hca_core_clock %d kHz, phys_port_cnt_ex %d%n",
                    attr.deviceCapFlagsEx(), attr.has(DeviceAttrEx.MEM_WINDOW), attr.has(DeviceAttrEx.MEM_WINDOW_TYPE_2B),
                    attr.has(DeviceAttrEx.XRC), attr.odpCaps().generalCaps(), attr.completionTimestampMask(),
                    attr.hcaCoreClock(), attr.physPortCntEx());
            for (GidEntry e : ctx.queryGidTable()) {
                System.out.printf("ibv_query_gid_table: port %d index %d %s (type %d, ifindex %d)%n", e.portNum(),
                        e.gidIndex(), e.gid(), e.gidType(), e.ndevIfindex());
            }
            refused("XRC domain", ctx::xrcd);
            refused("completion timestamps", () -> ctx.cqEx(16, null, 0, WcFlagsEx.COMPLETION_TIMESTAMP));
            refused("thread domain", ctx::td);
            Gid gid = ctx.queryGid(1, 0);
            Pd pd = ctx.pd();
            refused("on-demand paging", () -> pd.mrOnDemand(arena.allocate(4096, 4096), Access.LOCAL_WRITE));
            Mr mrA = pd.mr(arena.allocate(8192, 4096), ACCESS);
            Mr mrB = pd.mr(arena.allocate(8192, 4096), ACCESS);
            CqEx cqA = ctx.cqEx(64, null, 0, WcFlagsEx.BYTE_LEN);
            CqEx cqB = ctx.cqEx(64, null, 0, WcFlagsEx.BYTE_LEN);
            long ops = SendOps.SEND | SendOps.RDMA_READ | SendOps.BIND_MW;
            QpEx qpA = pd.qpEx(new QpInitAttr(QpType.RC, cqA.cq(), cqA.cq()).cap(new QpCap(16, 16, 1, 1, 0)), ops);
            QpEx qpB = pd.qpEx(new QpInitAttr(QpType.RC, cqB.cq(), cqB.cq()).cap(new QpCap(16, 16, 1, 1, 0)), ops);
            connect(qpA.qp(), qpB.qp(), gid);
            connect(qpB.qp(), qpA.qp(), gid);
            PreparedRecv recvA = qpA.qp().prepareRecv(new RecvWr().wrId(1).sge(mrA.sge(0, 64)));
            PreparedRecv recvB = qpB.qp().prepareRecv(new RecvWr().wrId(2).sge(mrB.sge(0, 64)));
            long start = 0;
            for (int i = 0; i < 2 * ROUND_TRIPS; i++) {
                if (i == ROUND_TRIPS) {
                    start = System.nanoTime();
                }
                recvB.post();
                recvA.post();
                qpA.start().wrId(3).wrFlags(SendFlags.SIGNALED).send().sge(mrA.lkey(), mrA.addr() + 64, 64).complete();
                take(cqA);
                take(cqB);
                qpB.start().wrId(4).wrFlags(SendFlags.SIGNALED).send().sge(mrB.lkey(), mrB.addr() + 64, 64).complete();
                take(cqB);
                take(cqA);
            }
            System.out.printf("QP-ex/CQ-ex ping-pong (ibv_wr_send, ibv_start_poll): %d round trips of 64 bytes after"
                    + " as many to warm up, %.1f usec each%n", ROUND_TRIPS, (System.nanoTime() - start) / 1e3 / ROUND_TRIPS);
            try (Mw mw = pd.mw(Mw.TYPE_2)) {
                int rkey = mw.nextRkey();
                qpB.start().wrId(5).wrFlags(SendFlags.SIGNALED)
                        .bindMw(mw, rkey, mrB, mrB.addr() + 4096, 256, Access.REMOTE_READ).complete();
                take(cqB);
                mrB.memory().setString(4096, "read through a type 2 memory window", StandardCharsets.US_ASCII);
                qpA.start().wrId(6).wrFlags(SendFlags.SIGNALED).rdmaRead(rkey, mrB.addr() + 4096)
                        .sge(mrA.lkey(), mrA.addr() + 4096, 64).complete();
                take(cqA);
                System.out.printf("memory window type 2, rkey 0x%x bound by ibv_wr_bind_mw: \"%s\"%n", rkey,
                        mrA.memory().getString(4096, StandardCharsets.US_ASCII));
            }
        }
    }

    private static void refused(String what, Runnable action) {
        try {
            action.run();
            System.out.println(what + ": supported");
        } catch (UnsupportedVerbException e) {
            System.out.println(what + " refused: " + e.getMessage());
        }
    }

    private static void connect(Qp qp, Qp remote, Gid gid) {
        qp.modify(new QpAttr().qpState(QpState.INIT).pkeyIndex(0).portNum(1).qpAccessFlags(ACCESS));
        qp.modify(new QpAttr().qpState(QpState.RTR).pathMtu(Mtu.MTU_1024).destQpNum(remote.qpNum()).rqPsn(0)
                .maxDestRdAtomic(4).minRnrTimer(1).ahAttr(new AhAttr().grh(gid, 0, 1).portNum(1)));
        qp.modify(new QpAttr().qpState(QpState.RTS).sqPsn(0).timeout(14).retryCnt(7).rnrRetry(7).maxRdAtomic(4));
    }

    /** Takes one completion from {@code cq}, spinning; fails on an error status. */
    private static void take(CqEx cq) {
        long deadline = System.nanoTime() + 5_000_000_000L;
        while (!cq.startPoll()) {
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException("no completion within 5 s");
            }
        }
        WcStatus status = cq.status();
        long wrId = cq.wrId();
        cq.endPoll();
        if (status != WcStatus.SUCCESS) {
            throw new IllegalStateException("work request " + wrId + " failed: " + status);
        }
    }
}
