package org.jrdma.verbs;

import static org.jrdma.testkit.vm.VmChecks.equal;
import static org.jrdma.testkit.vm.VmChecks.require;

import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.jrdma.SysException;
import org.jrdma.iba.Gid;
import org.jrdma.iba.Mtu;
import org.jrdma.testkit.ThreadCounters;
import org.jrdma.testkit.vm.VmChecks;
import org.jrdma.verbs.ffi.IbvXrcd;

/**
 * The extended-verbs checks that need a real device, run by {@code VerbsExInVmTest} inside the
 * soft-RoCE VM after the C program {@code xverbs_oracle.c} ran there on the same device
 * ({@code java ... org.jrdma.verbs.VerbsExInVm rxe0 ORACLE ROUND-TRIPS}, which runs it first): what {@code query_device_ex}
 * and the other queries give is compared with what C printed, a verb C saw refused must be refused
 * here with {@link UnsupportedVerbException} and the same errno, and extended QPs and CQs carry
 * real traffic (ping-pong, RDMA, atomics, memory windows) between two RC queue pairs of this
 * process, both on port 1, addressed by GRH to GID index 0. Each check prints {@code PASS name} or
 * {@code FAIL name: reason}; the exit status is the number of failures.
 */
public final class VerbsExInVm {
    private static final int PORT = 1;
    private static final int GID_INDEX = 0;
    private static final int ALL_ACCESS = Access.LOCAL_WRITE | Access.REMOTE_WRITE | Access.REMOTE_READ
            | Access.REMOTE_ATOMIC | Access.MW_BIND;
    private static final int BUFFER = 8192;
    private static final int UD_QKEY = 0x11111111;
    private static final long WAIT_NANOS = TimeUnit.SECONDS.toNanos(5);
    private static final long SEND_OPS = SendOps.SEND | SendOps.SEND_WITH_IMM | SendOps.RDMA_WRITE
            | SendOps.RDMA_WRITE_WITH_IMM | SendOps.RDMA_READ | SendOps.ATOMIC_CMP_AND_SWP
            | SendOps.ATOMIC_FETCH_AND_ADD | SendOps.BIND_MW | SendOps.LOCAL_INV | SendOps.SEND_WITH_INV;
    private static final int WC_FLAGS = WcFlagsEx.BYTE_LEN | WcFlagsEx.IMM | WcFlagsEx.QP_NUM | WcFlagsEx.SRC_QP;

    private final String device;
    private final Map<String, String> c;
    private final Arena arena = Arena.ofShared();
    private final VmChecks checks = new VmChecks();

    private Context ctx;
    private Gid gid;
    private Pd pd;
    private CqEx cqA;
    private CqEx cqB;
    private QpEx qpA;
    private QpEx qpB;
    private Mr mrA;
    private Mr mrB;
    private QpEx udA;

    private VerbsExInVm(String device, Map<String, String> c) {
        this.device = device;
        this.c = c;
    }

    /**
     * Runs the C program named by the second argument on the device named by the first (with the
     * third, the ping-pong's round trips), then every check against what it printed.
     */
    public static void main(String[] args) throws Exception {
        Process oracle = new ProcessBuilder(args[1], args[0], args[2]).redirectErrorStream(true).start();
        String out = new String(oracle.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        System.out.println("C oracle (exit " + oracle.waitFor() + "):\n" + out);
        Map<String, String> c = new LinkedHashMap<>();
        for (String line : out.lines().toList()) {
            int eq = line.indexOf('=');
            if (eq > 0) {
                c.put(line.substring(0, eq), line.substring(eq + 1));
            }
        }
        VerbsExInVm program = new VerbsExInVm(args[0], c);
        program.run();
        program.checks.exit();
    }

    /** Runs a check; a poll it left open by failing is ended, so that the next check starts clean. */
    private void check(String name, VmChecks.Check check) {
        checks.check(name, check);
        for (CqEx cq : new CqEx[] {cqA, cqB}) {
            if (cq != null && !cq.cq().isClosed() && cq.polling()) {
                cq.endPoll();
            }
        }
    }

    private void run() throws Exception {
        int resourcesBefore = RdmaResources.count(device);
        check("fork_init as in C", () -> {
            equal("0", c.get("fork_init"), "C's ibv_fork_init");
            ForkStatus status = Verbs.forkInit();
            equal(c.get("fork_status"), Integer.toString(status.value()), "ibv_is_fork_initialized (C, Java " + status + ")");
            System.out.println("  " + status);
        });
        ctx = Verbs.open(device);
        gid = ctx.queryGid(PORT, GID_INDEX);
        check("C ping-pong through ibv_wr_* and ibv_start_poll", () -> {
            require("1".equals(c.get("done")), "the C program did not finish: " + c);
            equal("0", c.get("pingpong_errors"), "C ping-pong errors");
            System.out.println("  C: " + c.get("pingpong_iters") + " round trips, " + c.get("pingpong_usec_per_iter")
                    + " usec each");
        });
        check("query_device_ex matches C", this::queryDeviceEx);
        check("query_rt_values_ex refused as in C", () -> refusedAsC("query_rt_values_ex", ctx::queryRtValuesEx));
        check("gid table and query_gid_ex match C", this::gidTable);
        check("cq_ex with completion timestamps refused as in C",
                () -> refusedAsC("cq_ex_timestamp", () -> ctx.cqEx(16, null, 0, WcFlagsEx.COMPLETION_TIMESTAMP)));
        check("xrcd refused as in C", () -> refusedAsC("open_xrcd", ctx::xrcd));
        check("thread domain refused as in C", () -> refusedAsC("alloc_td", ctx::td));

        pd = ctx.pd();
        mrA = pd.mr(arena.allocate(BUFFER, 4096), ALL_ACCESS);
        mrB = pd.mr(arena.allocate(BUFFER, 4096), ALL_ACCESS);
        check("advise_mr refused as in C", () -> refusedAsC("advise_mr", () -> pd.adviseMr(0, 0, mrA, 0, 4096)));
        check("on-demand paging registration refused", () -> {
            try {
                pd.mrOnDemand(arena.allocate(4096, 4096), Access.LOCAL_WRITE).close();
                throw new AssertionError("rxe registered on-demand paging memory");
            } catch (UnsupportedVerbException expected) {
                require(expected.capability().contains("IBV_ODP_SUPPORT"), expected.getMessage());
                System.out.println("  " + expected.getMessage());
            }
        });
        check("connect qp_ex pair on cq_ex", this::connect);
        check("qp_ex ping-pong polled through cq_ex", this::pingPong);
        check("qp_ex rdma write with imm, rdma read, atomics", this::rdmaAndAtomics);
        check("qp_ex batch, sge list and inline data", this::batch);
        check("misuse of qp_ex and cq_ex", this::misuse);
        check("reg_mr_iova, remote write and local send at the chosen address", this::iova);
        check("steady-state allocation of the qp_ex/cq_ex ping-pong", this::allocation);
        check("memory window type 1, bind and remote write", this::mwType1);
        check("memory window type 2, bind by qp_ex, remote read, send with invalidate", this::mwType2);
        check("memory window type 2, local invalidate", this::mwLocalInvalidate);
        check("ud through wr_set_ud_addr, payload by wr_set_inline_data_list, as in C", this::ud);
        check("a poll holds its completions' slots until it ends", this::pollHoldsSlots);
        check("tso qp_ex refused as in C", () -> refusedAsC("qp_ex_tso", () -> pd.qpEx(udInit(cqA),
                SendOps.SEND | SendOps.TSO)));
        check("xrc_send qp_ex refused as in C", () -> refusedAsC("qp_ex_xrc_send",
                () -> pd.qpEx(new QpInitAttr(QpType.XRC_SEND, cqA.cq(), cqA.cq()).cap(new QpCap(4, 4, 1, 1, 64)),
                        SendOps.SEND)));
        check("rereg_mr refused as in C", () -> {
            refusedAsC("rereg_mr", () -> mrA.reregAccess(Access.LOCAL_WRITE));
            System.out.println("  C's ibv_rereg_mr returned " + c.get("rereg_mr_rc"));
        });
        check("reg_dmabuf_mr refused as in C",
                () -> refusedAsC("reg_dmabuf_mr", () -> pd.mrDmabuf(0, 4096, 0, -1, Access.LOCAL_WRITE)));
        check("parent domain refused as in C", () -> refusedAsC("alloc_parent_domain", pd::parentDomain));
        check("create_flow refused as in C", () -> refusedAsC("create_flow", () -> udA.qp().flow(Flow.SNIFFER, 0, PORT, 0)));
        check("create_flow with eth, ipv4, tcp, tag and ipv6, udp, drop specifications refused as in C",
                this::flowSpecs);
        check("basic srq through create_srq_ex with a cq carries traffic, get_srq_num refused as in C",
                this::srqEx);
        check("tag-matching srq refused as in C", () -> failedAsC("srq_ex_tm",
                () -> pd.srqTagMatching(new SrqAttr(16, 1, 0), cqA.cq(), 16)));
        check("xrc target qp, open_qp and wr_set_xrc_srqn without a domain refused as in C", this::xrcWithoutDomain);
        check("rereg_mr of translation and domain refused as in C, bad arguments as in C", this::rereg);
        check("import_device, import_pd, import_mr refused as in C", () -> {
            refusedAsC("import_device", () -> Verbs.importDevice(ctx.cmdFd()));
            refusedAsC("import_pd", () -> ctx.importPd(pd.kernelHandle()));
            refusedAsC("import_mr", () -> pd.importMr(mrA.kernelHandle()));
        });
        check("close qp_ex and cq_ex with their context", () -> {
            ctx.close();
            require(qpA.qp().isClosed() && cqA.cq().isClosed() && mrA.isClosed(), "children closed");
            try {
                cqA.startPoll();
                throw new AssertionError("polled a closed CQ");
            } catch (IllegalStateException expected) {
                // the Cq is closed
            }
        });
        check("no kernel objects left", () -> equal(resourcesBefore, RdmaResources.count(device), "rdma resource objects"));
        arena.close();
    }

    private void queryDeviceEx() {
        DeviceAttrEx a = ctx.queryDeviceEx();
        System.out.println("  " + a);
        Map<String, Long> java = new LinkedHashMap<>();
        java.put("orig_attr.max_qp", (long) a.origAttr().maxQp());
        java.put("orig_attr.max_cqe", (long) a.origAttr().maxCqe());
        java.put("orig_attr.max_mw", (long) a.origAttr().maxMw());
        java.put("orig_attr.device_cap_flags", Integer.toUnsignedLong(a.origAttr().deviceCapFlags()));
        java.put("comp_mask", a.compMask());
        java.put("odp_caps.general_caps", a.odpCaps().generalCaps());
        java.put("odp_caps.per_transport_caps.rc_odp_caps", a.odpCaps().rcOdpCaps());
        java.put("odp_caps.per_transport_caps.uc_odp_caps", a.odpCaps().ucOdpCaps());
        java.put("odp_caps.per_transport_caps.ud_odp_caps", a.odpCaps().udOdpCaps());
        java.put("completion_timestamp_mask", a.completionTimestampMask());
        java.put("hca_core_clock", a.hcaCoreClock());
        java.put("device_cap_flags_ex", a.deviceCapFlagsEx());
        java.put("tso_caps.max_tso", a.tsoCaps().maxTso());
        java.put("tso_caps.supported_qpts", a.tsoCaps().supportedQpts());
        java.put("rss_caps.supported_qpts", a.rssCaps().supportedQpts());
        java.put("rss_caps.max_rwq_indirection_tables", a.rssCaps().maxRwqIndirectionTables());
        java.put("rss_caps.max_rwq_indirection_table_size", a.rssCaps().maxRwqIndirectionTableSize());
        java.put("rss_caps.rx_hash_fields_mask", a.rssCaps().rxHashFieldsMask());
        java.put("rss_caps.rx_hash_function", (long) a.rssCaps().rxHashFunction());
        java.put("max_wq_type_rq", a.maxWqTypeRq());
        java.put("packet_pacing_caps.qp_rate_limit_min", a.packetPacingCaps().qpRateLimitMin());
        java.put("packet_pacing_caps.qp_rate_limit_max", a.packetPacingCaps().qpRateLimitMax());
        java.put("packet_pacing_caps.supported_qpts", a.packetPacingCaps().supportedQpts());
        java.put("raw_packet_caps", a.rawPacketCaps());
        java.put("tm_caps.max_rndv_hdr_size", a.tmCaps().maxRndvHdrSize());
        java.put("tm_caps.max_num_tags", a.tmCaps().maxNumTags());
        java.put("tm_caps.flags", a.tmCaps().flags());
        java.put("tm_caps.max_ops", a.tmCaps().maxOps());
        java.put("tm_caps.max_sge", a.tmCaps().maxSge());
        java.put("cq_mod_caps.max_cq_count", (long) a.cqModCaps().maxCqCount());
        java.put("cq_mod_caps.max_cq_period", (long) a.cqModCaps().maxCqPeriod());
        java.put("max_dm_size", a.maxDmSize());
        java.put("pci_atomic_caps.fetch_add", (long) a.pciAtomicCaps().fetchAdd());
        java.put("pci_atomic_caps.swap", (long) a.pciAtomicCaps().swap());
        java.put("pci_atomic_caps.compare_swap", (long) a.pciAtomicCaps().compareSwap());
        java.put("xrc_odp_caps", a.xrcOdpCaps());
        java.put("phys_port_cnt_ex", a.physPortCntEx());
        equal("0", c.get("query_device_ex"), "C's ibv_query_device_ex");
        int compared = 0;
        for (Map.Entry<String, Long> e : java.entrySet()) {
            equal(c.get("dev." + e.getKey()), Long.toUnsignedString(e.getValue()), e.getKey() + " (C, Java)");
            compared++;
        }
        equal(compared, (int) c.keySet().stream().filter(k -> k.startsWith("dev.")).count(), "fields C printed");
        System.out.println("  " + compared + " fields equal to C's");
    }

    /** C printed {@code key=errno} (0 for success): Java must fail with that errno as an UnsupportedVerbException. */
    private void refusedAsC(String key, VmChecks.Check action) throws Exception {
        int errno = Integer.parseInt(c.get(key));
        require(errno != 0, "C did not fail " + key + "; test it with traffic instead");
        try {
            action.run();
            throw new AssertionError(key + " worked in Java, C got errno " + errno);
        } catch (UnsupportedVerbException expected) {
            equal(errno, expected.errno(), "errno of " + expected.getMessage());
            System.out.println("  " + expected.getMessage());
        }
    }

    /**
     * Like {@link #refusedAsC} for a verb that may fail otherwise: the same errno as C's, and
     * {@link UnsupportedVerbException} when that errno says "not supported".
     */
    private SysException failedAsC(String key, VmChecks.Check action) throws Exception {
        int errno = Integer.parseInt(c.get(key));
        require(errno != 0, "C did not fail " + key + "; test it with traffic instead");
        try {
            action.run();
        } catch (SysException e) {
            equal(errno, e.errno(), "errno of " + e.getMessage());
            require(!(errno == UnsupportedVerbException.EOPNOTSUPP || errno == UnsupportedVerbException.ENOSYS)
                    || e instanceof UnsupportedVerbException, "not an UnsupportedVerbException: " + e);
            System.out.println("  " + e.getMessage());
            return e;
        }
        throw new AssertionError(key + " worked in Java, C got errno " + errno);
    }

    /** A downcall below the API fails with C's errno (as a plain {@link SysException}: the API translates it). */
    private void downcallFailedAsC(String key, VmChecks.Check action) throws Exception {
        int errno = Integer.parseInt(c.get(key));
        require(errno != 0, "C did not fail " + key);
        try {
            action.run();
        } catch (SysException e) {
            equal(errno, e.errno(), "errno of " + e.getMessage());
            System.out.println("  " + e.getMessage());
            return;
        }
        throw new AssertionError(key + " worked in Java, C got errno " + errno);
    }

    /** The two rules of C's, made of the same specifications, on the same UD QP. */
    private void flowSpecs() throws Exception {
        FlowSpec.Eth ipv4Frames = new FlowSpec.Eth(new FlowSpec.EthFilter(0, 0, 0x0800, 0),
                new FlowSpec.EthFilter(0, 0, 0xffff, 0), false);
        FlowSpec.Ipv4 toHost = new FlowSpec.Ipv4(new FlowSpec.Ipv4Filter(0, 0x0a000001), new FlowSpec.Ipv4Filter(0, -1),
                false);
        FlowSpec.TcpUdp roce = new FlowSpec.TcpUdp(false, new FlowSpec.TcpUdpFilter(4791, 0),
                new FlowSpec.TcpUdpFilter(0xffff, 0), false);
        refusedAsC("create_flow_l4_tag", () -> udA.qp().flow(0, PORT, 0, ipv4Frames, toHost, roce, new FlowSpec.Tag(7)));
        byte[] any = new byte[16];
        FlowSpec.Ipv6 udp6 = new FlowSpec.Ipv6(new FlowSpec.Ipv6Filter(any, any, 0, 17, 0, 0),
                new FlowSpec.Ipv6Filter(any, any, 0, 0xff, 0, 0), false);
        FlowSpec.TcpUdp roceUdp = new FlowSpec.TcpUdp(true, new FlowSpec.TcpUdpFilter(4791, 0),
                new FlowSpec.TcpUdpFilter(0xffff, 0), false);
        refusedAsC("create_flow_ipv6_drop", () -> udA.qp().flow(0, PORT, 0, udp6, roceUdp, new FlowSpec.Drop()));
    }

    /**
     * A basic SRQ made by the provider's {@code create_srq_ex} (a CQ given, as C's): a UD send
     * arrives in it; {@code ibv_get_srq_num} (XRC only) is refused on it as in C.
     */
    private void srqEx() throws Exception {
        equal("0", c.get("srq_ex_basic"), "C's ibv_create_srq_ex of a basic SRQ with a CQ");
        CqEx cqS = ctx.cqEx(16, null, 0, WcFlagsEx.BYTE_LEN);
        CqEx cqT = ctx.cqEx(16, null, 0, WcFlagsEx.BYTE_LEN);
        try (Srq srq = pd.srq(new SrqAttr(16, 1, 0), cqS.cq());
                QpEx receiver = pd.qpEx(udInit(cqS).srq(srq), SendOps.SEND);
                QpEx sender = pd.qpEx(udInit(cqT), SendOps.SEND);
                Ah ah = pd.ah(new AhAttr().grh(gid, GID_INDEX, 1).portNum(PORT))) {
            require(srq.granted().maxWr() >= 16, "granted " + srq.granted());
            udReady(receiver.qp());
            udReady(sender.qp());
            mrB.memory().asSlice(7168, 1024).fill((byte) 0);
            srq.postRecv(new RecvWr().wrId(90).sge(mrB.sge(7168, 40 + 64)));
            mrA.memory().setString(7168, "to an SRQ made by ibv_create_srq_ex", StandardCharsets.US_ASCII);
            sender.start().wrId(91).wrFlags(SendFlags.SIGNALED).send().udAddr(ah, receiver.qp().qpNum(), UD_QKEY)
                    .sge(mrA.lkey(), mrA.addr() + 7168, 64).complete();
            await(cqT, WcOpcode.SEND, 91);
            cqT.endPoll();
            await(cqS, WcOpcode.RECV, 90);
            int len = cqS.byteLen();
            cqS.endPoll();
            equal(104, len, "bytes received, GRH included");
            equal("to an SRQ made by ibv_create_srq_ex", mrB.memory().getString(7168 + 40, StandardCharsets.US_ASCII),
                    "payload");
            refusedAsC("get_srq_num", srq::srqNum);
        } finally {
            cqS.close();
            cqT.close();
        }
    }

    /**
     * rxe opens no XRC domain, so {@link Xrcd#targetQp()}, {@link Xrcd#openQp} and {@link Xrcd#srq}
     * cannot be reached; below them the same downcalls given no domain fail as C's do (the
     * provider refuses before reading it), and {@code wr_set_xrc_srqn}, which rxe leaves empty
     * (C would call a null pointer), is refused.
     */
    private void xrcWithoutDomain() throws Exception {
        refusedAsC("open_xrcd_no_create", () -> ctx.xrcd(-1, 0));
        downcallFailedAsC("qp_ex_xrc_recv", () -> IbvXrcd.createTargetQp(ctx.handle(), null).close());
        downcallFailedAsC("open_qp", () -> IbvXrcd.openQp(ctx.handle(), null, udA.qp().qpNum()).close());
        qpA.start().wrId(95).send();
        try {
            expect(UnsupportedVerbException.class, () -> qpA.xrcSrqn(1), "wr_set_xrc_srqn on rxe");
        } finally {
            qpA.abort();
        }
    }

    /** Each of C's {@code ibv_rereg_mr} cases: the same errno and the same {@code ibv_rereg_mr_err_code}. */
    private void rereg() throws Exception {
        MemorySegment other = arena.allocate(4096, 4096);
        try (Pd pd2 = ctx.pd()) {
            int all = Mr.REREG_CHANGE_TRANSLATION | Mr.REREG_CHANGE_PD | Mr.REREG_CHANGE_ACCESS;
            reregAsC("rereg_translation", Mr.REREG_CHANGE_TRANSLATION, null, other, 0);
            reregAsC("rereg_pd", Mr.REREG_CHANGE_PD, pd2, null, 0);
            reregAsC("rereg_all", all, pd2, other, Access.LOCAL_WRITE);
            reregAsC("rereg_empty", Mr.REREG_CHANGE_TRANSLATION, null, other.asSlice(0, 0), 0);
            reregAsC("rereg_access_unasked", Mr.REREG_CHANGE_PD, pd2, null, Access.LOCAL_WRITE);
            reregAsC("rereg_unknown_flag", 1 << 3, null, null, 0);
        }
        require(mrA.pd() == pd && !mrA.isClosed() && mrA.memory().byteSize() == BUFFER, "mrA unchanged: " + mrA);
    }

    private void reregAsC(String key, int flags, Pd newPd, MemorySegment memory, int access) throws Exception {
        SysException e = failedAsC(key, () -> mrA.rereg(flags, newPd, memory, access));
        String libibverbs = e instanceof UnsupportedVerbException ? e.getCause().getMessage() : e.getMessage();
        require(libibverbs.contains("ibv_rereg_mr_err_code " + c.get(key + "_rc") + ")"),
                "C's code " + c.get(key + "_rc") + " in " + libibverbs);
    }

    private void gidTable() {
        List<GidEntry> table = ctx.queryGidTable();
        equal(c.get("gid_table"), Integer.toString(table.size()), "entries");
        for (GidEntry e : table) {
            String expected = c.get("gid." + e.portNum() + "." + e.gidIndex());
            String java = "type " + e.gidType() + " ifindex " + e.ndevIfindex() + " "
                    + HexFormat.of().formatHex(e.gid().toBytes());
            equal(expected, java, "gid " + e.gidIndex());
            equal(e, ctx.queryGidEx(e.portNum(), e.gidIndex()), "ibv_query_gid_ex " + e.gidIndex());
            equal(ctx.queryGid(e.portNum(), e.gidIndex()), e.gid(), "ibv_query_gid " + e.gidIndex());
        }
        System.out.println("  " + table);
    }

    private void connect() {
        cqA = ctx.cqEx(64, null, 0, WC_FLAGS);
        cqB = ctx.cqEx(64, null, 0, WC_FLAGS);
        qpA = pd.qpEx(new QpInitAttr(QpType.RC, cqA.cq(), cqA.cq()).cap(new QpCap(32, 32, 4, 4, 64)), SEND_OPS);
        qpB = pd.qpEx(new QpInitAttr(QpType.RC, cqB.cq(), cqB.cq()).cap(new QpCap(32, 32, 4, 4, 64)), SEND_OPS);
        connect(qpA.qp(), qpB.qp());
        connect(qpB.qp(), qpA.qp());
        equal(QpState.RTS, qpA.qp().query().qpState(), "state");
        equal(qpA.qp(), ctx.qp(qpA.qp().qpNum()), "qp by number");
    }

    private void connect(Qp qp, Qp remote) {
        qp.modify(new QpAttr().qpState(QpState.INIT).pkeyIndex(0).portNum(PORT).qpAccessFlags(ALL_ACCESS));
        qp.modify(new QpAttr().qpState(QpState.RTR).pathMtu(Mtu.MTU_1024).destQpNum(remote.qpNum()).rqPsn(0)
                .maxDestRdAtomic(4).minRnrTimer(1).ahAttr(new AhAttr().grh(gid, GID_INDEX, 1).portNum(PORT)));
        qp.modify(new QpAttr().qpState(QpState.RTS).sqPsn(0).timeout(14).retryCnt(7).rnrRetry(7).maxRdAtomic(4));
    }

    /** Waits for one completion on {@code cq}, checks its status, opcode and wr_id, leaves the poll open. */
    private void await(CqEx cq, WcOpcode opcode, long wrId) {
        long deadline = System.nanoTime() + WAIT_NANOS;
        while (!cq.startPoll()) {
            require(System.nanoTime() < deadline, "no completion on " + cq + " within 5 s");
        }
        try {
            String got = cq.status() == WcStatus.SUCCESS ? cq.opcode() + " " + cq.wrId() + " " + cq.status()
                    : "wr " + cq.wrId() + " " + cq.status();
            equal(opcode + " " + wrId + " " + WcStatus.SUCCESS, got, "completion (opcode, wr_id, status)");
        } catch (AssertionError e) {
            cq.endPoll();
            throw e;
        }
    }

    private void pingPong() {
        int iters = Integer.parseInt(c.get("pingpong_iters"));
        RecvWr recvA = new RecvWr().wrId(1).sge(mrA.sge(0, 64));
        RecvWr recvB = new RecvWr().wrId(2).sge(mrB.sge(4096, 64));
        long start = System.nanoTime();
        for (int i = 0; i < iters; i++) {
            mrA.memory().set(ValueLayout.JAVA_INT, 128, i);
            qpB.qp().postRecv(recvB);
            qpA.qp().postRecv(recvA);
            qpA.start().wrId(3).wrFlags(SendFlags.SIGNALED).send().sge(mrA.lkey(), mrA.addr() + 128, 64).complete();
            await(cqA, WcOpcode.SEND, 3);
            cqA.endPoll();
            await(cqB, WcOpcode.RECV, 2);
            equal(64, cqB.byteLen(), "byte_len");
            equal(qpB.qp().qpNum(), cqB.qpNum(), "qp_num");
            cqB.endPoll();
            equal(i, mrB.memory().get(ValueLayout.JAVA_INT, 4096), "data at B");
            qpB.start().wrId(4).wrFlags(SendFlags.SIGNALED).send().sge(mrB.lkey(), mrB.addr() + 4096, 64).complete();
            await(cqB, WcOpcode.SEND, 4);
            cqB.endPoll();
            await(cqA, WcOpcode.RECV, 1);
            cqA.endPoll();
            equal(i, mrA.memory().get(ValueLayout.JAVA_INT, 0), "data back at A");
        }
        System.out.printf("  Java: %d round trips, %.2f usec each (checks included); C: %s usec%n", iters,
                (System.nanoTime() - start) / 1e3 / iters, c.get("pingpong_usec_per_iter"));
    }

    private void rdmaAndAtomics() {
        mrA.memory().setString(256, "written by wr_rdma_write_imm", StandardCharsets.US_ASCII);
        qpB.qp().postRecv(new RecvWr().wrId(10).sge(mrB.sge(0, 16)));
        qpA.start().wrId(11).wrFlags(SendFlags.SIGNALED).rdmaWriteImm(mrB.rkey(), mrB.addr() + 512, 0x7eadbeef)
                .sge(mrA.lkey(), mrA.addr() + 256, 32).complete();
        await(cqA, WcOpcode.RDMA_WRITE, 11);
        cqA.endPoll();
        await(cqB, WcOpcode.RECV_RDMA_WITH_IMM, 10);
        equal(0x7eadbeef, cqB.immData(), "imm_data");
        require((cqB.wcFlagsOfCompletion() & WcBuffer.WITH_IMM) != 0, "IBV_WC_WITH_IMM");
        cqB.endPoll();
        equal("written by wr_rdma_write_imm", mrB.memory().getString(512, StandardCharsets.US_ASCII), "written");

        mrB.memory().setString(1024, "read by wr_rdma_read", StandardCharsets.US_ASCII);
        qpA.start().wrId(12).wrFlags(SendFlags.SIGNALED).rdmaRead(mrB.rkey(), mrB.addr() + 1024)
                .sge(mrA.lkey(), mrA.addr() + 1024, 32).complete();
        await(cqA, WcOpcode.RDMA_READ, 12);
        equal(32, cqA.byteLen(), "bytes read");
        cqA.endPoll();
        equal("read by wr_rdma_read", mrA.memory().getString(1024, StandardCharsets.US_ASCII), "read");

        mrB.memory().set(ValueLayout.JAVA_LONG, 2048, 40);
        qpA.start().wrId(13).wrFlags(SendFlags.SIGNALED).atomicFetchAdd(mrB.rkey(), mrB.addr() + 2048, 2)
                .sge(mrA.lkey(), mrA.addr() + 2048, 8).complete();
        await(cqA, WcOpcode.FETCH_ADD, 13);
        cqA.endPoll();
        equal(40L, mrA.memory().get(ValueLayout.JAVA_LONG, 2048), "fetched");
        equal(42L, mrB.memory().get(ValueLayout.JAVA_LONG, 2048), "added");
        qpA.start().wrId(14).wrFlags(SendFlags.SIGNALED).atomicCmpSwp(mrB.rkey(), mrB.addr() + 2048, 42, 7)
                .sge(mrA.lkey(), mrA.addr() + 2056, 8).complete();
        await(cqA, WcOpcode.COMP_SWAP, 14);
        cqA.endPoll();
        equal(42L, mrA.memory().get(ValueLayout.JAVA_LONG, 2056), "compared");
        equal(7L, mrB.memory().get(ValueLayout.JAVA_LONG, 2048), "swapped");
    }

    private void batch() {
        SgeList gather = new SgeList(arena, 2).set(0, mrA.sge(3000, 4)).set(1, mrA.sge(3100, 4));
        mrA.memory().setString(3000, "abcd", StandardCharsets.US_ASCII);
        mrA.memory().setString(3100, "efgh", StandardCharsets.US_ASCII);
        MemorySegment inline = arena.allocate(8);
        inline.setString(0, "inline!", StandardCharsets.US_ASCII);
        qpB.qp().postRecv(new RecvWr().wrId(20).sge(mrB.sge(3000, 16)));
        qpB.qp().postRecv(new RecvWr().wrId(21).sge(mrB.sge(3100, 16)));
        qpA.start()
                .wrId(22).wrFlags(0).rdmaWrite(mrB.rkey(), mrB.addr() + 3200).sgeList(gather, 2)
                .wrId(23).wrFlags(SendFlags.INLINE).send().inlineData(inline)
                .wrId(24).wrFlags(SendFlags.SIGNALED).sendImm(99).sge(mrA.lkey(), mrA.addr() + 3000, 8)
                .complete();
        await(cqA, WcOpcode.SEND, 24);
        require(!cqA.nextPoll(), "only the signaled request completes");
        require(!cqA.polling(), "an empty next_poll ends the poll");
        require(!cqA.startPoll(), "the queue is empty after the batch");
        await(cqB, WcOpcode.RECV, 20);
        equal(8, cqB.byteLen(), "inline bytes");
        require(cqB.nextPoll(), "second receive");
        equal(21L, cqB.wrId(), "wr_id");
        equal(99, cqB.immData(), "imm");
        cqB.endPoll();
        equal("abcdefgh", mrB.memory().getString(3200, StandardCharsets.US_ASCII).substring(0, 8), "gathered write");
        equal("inline!", mrB.memory().getString(3000, StandardCharsets.US_ASCII), "inline data");
        equal("abcd", mrB.memory().getString(3100, StandardCharsets.US_ASCII), "send with imm data");
    }

    private static QpInitAttr udInit(CqEx cq) {
        return new QpInitAttr(QpType.UD, cq.cq(), cq.cq()).cap(new QpCap(4, 4, 1, 1, 64));
    }

    private void udReady(Qp qp) {
        qp.modify(new QpAttr().qpState(QpState.INIT).pkeyIndex(0).portNum(PORT).qkey(UD_QKEY));
        qp.modify(new QpAttr().qpState(QpState.RTR));
        qp.modify(new QpAttr().qpState(QpState.RTS).sqPsn(0));
    }

    /**
     * What C did over UD, each send addressed by {@code wr_set_ud_addr}: 64 bytes by
     * {@code wr_set_sge} arrive after their GRH, then a send gathered from two buffers by
     * {@code wr_set_inline_data_list} arrives as C's did. rdma-core 44's rxe never adds up the
     * list's length and sends it empty (GRH only), in C as here; a fixed provider delivers the 55
     * bytes.
     */
    private void ud() {
        equal("0", c.get("ud_errors"), "C's UD send and receive");
        CqEx cqU = ctx.cqEx(16, null, 0, WcFlagsEx.BYTE_LEN);
        CqEx cqV = ctx.cqEx(16, null, 0, WcFlagsEx.BYTE_LEN);
        udA = pd.qpEx(udInit(cqU), SendOps.SEND);
        QpEx udB = pd.qpEx(udInit(cqV), SendOps.SEND);
        udReady(udA.qp());
        udReady(udB.qp());
        Ah ah = pd.ah(new AhAttr().grh(gid, GID_INDEX, 1).portNum(PORT));
        MemorySegment part1 = arena.allocateFrom("a UD send gathered from two ", StandardCharsets.US_ASCII);
        MemorySegment part2 = arena.allocateFrom("buffers by inline_data_list", StandardCharsets.US_ASCII);
        DataBufList parts = new DataBufList(arena, 2).set(0, part1.asSlice(0, part1.byteSize() - 1)).set(1, part2);
        mrA.memory().setString(5120, "64 bytes to a UD QP through wr_set_ud_addr", StandardCharsets.US_ASCII);
        for (String key : List.of("ud", "ud_list")) {
            mrB.memory().asSlice(6144, 1024).fill((byte) 0);
            udB.qp().postRecv(new RecvWr().wrId(5).sge(mrB.sge(6144, 40 + 64)));
            boolean list = key.equals("ud_list");
            udA.start().wrId(6).wrFlags(SendFlags.SIGNALED | (list ? SendFlags.INLINE : 0)).send()
                    .udAddr(ah, udB.qp().qpNum(), UD_QKEY);
            if (list) {
                udA.inlineDataList(parts, 2);
            } else {
                udA.sge(mrA.lkey(), mrA.addr() + 5120, 64);
            }
            udA.complete();
            await(cqU, WcOpcode.SEND, 6);
            cqU.endPoll();
            await(cqV, WcOpcode.RECV, 5);
            int len = cqV.byteLen();
            cqV.endPoll();
            equal(c.get(key + "_recv_len"), Integer.toString(len), key + ": bytes received, GRH included (C, Java)");
            String payload = mrB.memory().getString(6144 + 40, StandardCharsets.US_ASCII);
            equal(c.get(key + "_payload"), payload, key + ": payload (C, Java)");
            System.out.println("  " + key + ": " + len + " bytes: '" + payload + "'");
        }
        equal("104", c.get("ud_recv_len"), "C's UD send by wr_set_sge: 40 bytes of GRH and 64 of payload");
        udB.close();
        ah.close();
    }

    /**
     * What {@link CqEx}'s Javadoc tells users to bound their polls by: the completions a poll has
     * read keep their slots until it ends. On a queue asked for 3 entries (soft-RoCE makes a ring
     * of 4, room for 3), a poll kept open over one completion while three more are made loses the
     * last ({@code IBV_EVENT_CQ_ERR}); the same six sends taken three a poll, each poll ended, all
     * complete. The sends are UD datagrams to a QP with no receive posted: only sends complete.
     */
    private void pollHoldsSlots() throws InterruptedException {
        Ah ah = pd.ah(new AhAttr().grh(gid, GID_INDEX, 1).portNum(PORT));
        try (CqEx small = ctx.cqEx(3, null, 0, 0);
             CqEx sink = ctx.cqEx(4, null, 0, 0);
             QpEx sender = pd.qpEx(new QpInitAttr(QpType.UD, small.cq(), small.cq()).cap(new QpCap(8, 1, 1, 1, 64)),
                     SendOps.SEND);
             QpEx nobody = pd.qpEx(udInit(sink), SendOps.SEND)) {
            udReady(sender.qp());
            udReady(nobody.qp());
            Runnable send = () -> sender.start().wrId(30).wrFlags(SendFlags.SIGNALED).send()
                    .udAddr(ah, nobody.qp().qpNum(), UD_QKEY).sge(mrA.lkey(), mrA.addr() + 5120, 64).complete();
            for (int round = 0; round < 2; round++) {
                for (int i = 0; i < 3; i++) {
                    send.run();
                }
                Thread.sleep(300);
                require(small.startPoll(), "round " + round + ": a completion");
                int taken = 1;
                while (small.nextPoll()) {
                    taken++;
                }
                equal(3, taken, "round " + round + ": three sends taken in one poll, which is then over");
            }
            require(cqError(small, Duration.ofMillis(300)) == null, "no CQ error while each poll ended");
            send.run();
            Thread.sleep(300);
            require(small.startPoll(), "a completion");
            for (int i = 0; i < 3; i++) {
                send.run();
            }
            Thread.sleep(300);
            int taken = 1;
            while (small.nextPoll()) {
                taken++;
            }
            equal(3, taken, "four sends made while the poll held the first: the queue had room for three");
            AsyncEvent event = cqError(small, Duration.ofSeconds(2));
            require(event != null, "IBV_EVENT_CQ_ERR for the lost completion");
            System.out.println("  poll open over 4 completions on a 3-entry queue: " + taken + " taken, "
                    + event.type() + " on " + event.subject());
        } finally {
            ah.close();
        }
    }

    /** The first {@code IBV_EVENT_CQ_ERR} of {@code cq} within {@code timeout}, skipping other events; or null. */
    private AsyncEvent cqError(CqEx cq, Duration timeout) {
        long deadline = System.nanoTime() + timeout.toNanos();
        for (long left; (left = deadline - System.nanoTime()) > 0; ) {
            AsyncEvent event = ctx.getAsyncEvent(Duration.ofNanos(left));
            if (event != null && event.type() == EventType.CQ_ERR && event.cq() == cq.cq()) {
                return event;
            }
        }
        return null;
    }

    private void iova() {
        MemorySegment memory = arena.allocate(4096, 4096);
        long iova = 0x4000_0000_0000L;
        try (Mr mr = pd.mrIova(memory, iova, ALL_ACCESS)) {
            equal(iova, mr.addr(), "addr");
            mrA.memory().setString(4500, "written at an iova", StandardCharsets.US_ASCII);
            qpA.start().wrId(70).wrFlags(SendFlags.SIGNALED).rdmaWrite(mr.rkey(), iova + 16)
                    .sge(mrA.lkey(), mrA.addr() + 4500, 32).complete();
            await(cqA, WcOpcode.RDMA_WRITE, 70);
            cqA.endPoll();
            equal("written at an iova", memory.getString(16, StandardCharsets.US_ASCII), "written");
            qpA.qp().postRecv(new RecvWr().wrId(71).sge(mrA.sge(4600, 32)));
            qpB.start().wrId(72).wrFlags(SendFlags.SIGNALED).send().sge(mr.sge(16, 32)).complete();
            await(cqB, WcOpcode.SEND, 72);
            cqB.endPoll();
            await(cqA, WcOpcode.RECV, 71);
            cqA.endPoll();
            equal("written at an iova", mrA.memory().getString(4600, StandardCharsets.US_ASCII), "sent from the iova");
        }
    }

    private void misuse() {
        expect(IllegalStateException.class, () -> qpA.send(), "send outside a batch");
        expect(IllegalStateException.class, () -> qpA.complete(), "complete outside a batch");
        expect(IllegalStateException.class, () -> cqA.wrId(), "read outside a poll");
        expect(IllegalStateException.class, () -> cqA.endPoll(), "end without start");
        qpA.start();
        expect(IllegalStateException.class, () -> qpA.start(), "nested start");
        expect(IllegalStateException.class, () -> qpA.postSend(32, 0, mrA.lkey(), mrA.addr(), 4), "postSend in a batch");
        qpA.abort();
        try (QpEx sendOnly = pd.qpEx(new QpInitAttr(QpType.RC, cqA.cq(), cqA.cq()), SendOps.SEND);
                QpEx writeOnly = pd.qpEx(new QpInitAttr(QpType.RC, cqA.cq(), cqA.cq()), SendOps.RDMA_WRITE);
                CqEx plain = ctx.cqEx(4, null, 0, 0)) {
            sendOnly.start();
            expect(IllegalStateException.class, () -> sendOnly.rdmaWrite(1, 2), "operation not in send_ops_flags");
            sendOnly.abort();
            expect(IllegalStateException.class, () -> writeOnly.postSend(32, 0, mrA.lkey(), mrA.addr(), 4),
                    "postSend without SendOps.SEND");
            qpB.qp().postRecv(new RecvWr().wrId(30).sge(mrB.sge(0, 16)));
            qpA.start().wrId(31).wrFlags(SendFlags.SIGNALED).send().sge(mrA.lkey(), mrA.addr(), 4).complete();
            await(cqA, WcOpcode.SEND, 31);
            cqA.endPoll();
            await(cqB, WcOpcode.RECV, 30);
            expect(IllegalStateException.class, () -> cqB.startPoll(), "start during a poll");
            cqB.endPoll();
            require(!plain.startPoll(), "empty queue");
            expect(IllegalStateException.class, () -> plain.byteLen(), "field outside a poll");
        }
        CqEx closed = ctx.cqEx(4, null, 0, WcFlagsEx.BYTE_LEN);
        closed.close();
        closed.close();
        expect(IllegalStateException.class, closed::startPoll, "poll after close");
    }

    private static void expect(Class<? extends Throwable> type, Runnable action, String what) {
        try {
            action.run();
        } catch (Throwable t) {
            require(type.isInstance(t), what + ": " + t);
            return;
        }
        throw new AssertionError(what + " did not fail");
    }

    private void mwType1() {
        try (Mw mw = pd.mw(Mw.TYPE_1)) {
            equal(Mw.TYPE_1, mw.type(), "type");
            int rkey = mw.bind(qpB.qp(), 40, SendFlags.SIGNALED, mrB, 4096, 256, Access.REMOTE_WRITE);
            await(cqB, WcOpcode.BIND_MW, 40);
            cqB.endPoll();
            mrA.memory().setString(4000, "through a type 1 window", StandardCharsets.US_ASCII);
            qpA.start().wrId(41).wrFlags(SendFlags.SIGNALED).rdmaWrite(rkey, mrB.addr() + 4096 + 16)
                    .sge(mrA.lkey(), mrA.addr() + 4000, 32).complete();
            await(cqA, WcOpcode.RDMA_WRITE, 41);
            cqA.endPoll();
            equal("through a type 1 window", mrB.memory().getString(4096 + 16, StandardCharsets.US_ASCII), "written");
            System.out.printf("  type 1 window rkey 0x%x over MR rkey 0x%x%n", rkey, mrB.rkey());
        }
    }

    private int bindType2(Mw mw, long wrId) {
        int rkey = mw.nextRkey();
        qpB.start().wrId(wrId).wrFlags(SendFlags.SIGNALED)
                .bindMw(mw, rkey, mrB, mrB.addr() + 6000, 512, Access.REMOTE_READ | Access.REMOTE_WRITE).complete();
        await(cqB, WcOpcode.BIND_MW, wrId);
        cqB.endPoll();
        return rkey;
    }

    private void mwType2() {
        try (Mw mw = pd.mw(Mw.TYPE_2)) {
            int rkey = bindType2(mw, 50);
            mrB.memory().setString(6100, "read through a type 2 window", StandardCharsets.US_ASCII);
            qpA.start().wrId(51).wrFlags(SendFlags.SIGNALED).rdmaRead(rkey, mrB.addr() + 6100)
                    .sge(mrA.lkey(), mrA.addr() + 5000, 32).complete();
            await(cqA, WcOpcode.RDMA_READ, 51);
            cqA.endPoll();
            equal("read through a type 2 window", mrA.memory().getString(5000, StandardCharsets.US_ASCII), "read");
            qpB.qp().postRecv(new RecvWr().wrId(52).sge(mrB.sge(0, 16)));
            qpA.start().wrId(53).wrFlags(SendFlags.SIGNALED).sendInv(rkey).sge(mrA.lkey(), mrA.addr(), 8).complete();
            await(cqA, WcOpcode.SEND, 53);
            cqA.endPoll();
            await(cqB, WcOpcode.RECV, 52);
            int flags = cqB.wcFlagsOfCompletion();
            equal(rkey, cqB.invalidatedRkey(), "invalidated rkey");
            cqB.endPoll();
            int again = bindType2(mw, 54);
            require(again != rkey, "a new key");
            System.out.printf("  type 2 window rkey 0x%x bound, read through, invalidated by the remote send"
                    + " (wc_flags 0x%x), bound again as 0x%x%n", rkey, flags, again);
        }
    }

    private void mwLocalInvalidate() {
        try (Mw mw = pd.mw(Mw.TYPE_2)) {
            int rkey = bindType2(mw, 60);
            qpB.start().wrId(61).wrFlags(SendFlags.SIGNALED).localInv(rkey).complete();
            await(cqB, WcOpcode.LOCAL_INV, 61);
            cqB.endPoll();
            int again = bindType2(mw, 62);
            require(again != rkey, "a new key after invalidation");
            System.out.printf("  type 2 window rkey 0x%x invalidated locally, bound again as 0x%x%n", rkey, again);
        }
    }

    private void allocation() {
        RecvWr recvA = new RecvWr().wrId(1).sge(mrA.sge(0, 64));
        RecvWr recvB = new RecvWr().wrId(2).sge(mrB.sge(4096, 64));
        PreparedRecv preparedA = qpA.qp().prepareRecv(recvA);
        PreparedRecv preparedB = qpB.qp().prepareRecv(recvB);
        int lkeyA = mrA.lkey();
        int lkeyB = mrB.lkey();
        long addrA = mrA.addr();
        long addrB = mrB.addr();
        Runnable roundTrip = () -> {
            preparedB.post();
            preparedA.post();
            qpA.start().wrId(3).wrFlags(SendFlags.SIGNALED).send().sge(lkeyA, addrA + 128, 64).complete();
            drain(cqA, 1);
            drain(cqB, 1);
            qpB.postSend(4, SendFlags.SIGNALED, lkeyB, addrB + 4096, 64);
            drain(cqB, 1);
            drain(cqA, 1);
        };
        long start = System.nanoTime();
        for (int i = 0; i < 20_000; i++) {
            roundTrip.run();
        }
        int measured = 5_000;
        long bytes = ThreadCounters.allocatedBy(() -> {
            for (int i = 0; i < measured; i++) {
                roundTrip.run();
            }
        });
        System.out.printf("  %d bytes allocated in %d round trips, %.1f usec per round trip%n", bytes, measured,
                (System.nanoTime() - start) / 1e3 / (20_000 + measured));
        require(bytes < measured, bytes + " bytes allocated in " + measured + " round trips");
    }

    /** Takes {@code n} completions from {@code cq}, spinning, failing on an error status. */
    private static void drain(CqEx cq, int n) {
        int taken = 0;
        long deadline = System.nanoTime() + WAIT_NANOS;
        while (taken < n) {
            require(System.nanoTime() < deadline, "no completion within 5 s");
            if (cq.startPoll()) {
                do {
                    if (cq.status() != WcStatus.SUCCESS) {
                        cq.endPoll();
                        throw new AssertionError("completion " + cq.wrId() + " failed: " + cq.status());
                    }
                    taken++;
                } while (taken < n && cq.nextPoll());
                if (cq.polling()) {
                    cq.endPoll();
                }
            }
        }
    }
}
