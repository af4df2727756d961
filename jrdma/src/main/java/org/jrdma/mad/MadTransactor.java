package org.jrdma.mad;

import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.BiConsumer;
import java.util.function.Function;
import java.util.function.Supplier;
import org.jrdma.devices.EndPort;
import org.jrdma.iba.Mad;
import org.jrdma.iba.mad.MadHeader;
import org.jrdma.iba.mad.SaFormat;
import org.jrdma.iba.sa.SaMultiPathRecord;
import org.jrdma.iba.sa.SaPathRecord;
import org.jrdma.iba.wire.Bits;
import org.jrdma.iba.wire.DecodedMad;
import org.jrdma.iba.wire.IbaStruct;
import org.jrdma.iba.wire.MadAttribute;
import org.jrdma.iba.wire.MadDecoder;
import org.jrdma.iba.wire.MalformedMadException;
import org.jrdma.path.IBPath;

/**
 * MAD RPCs on paths, python-rdma's {@code rdma.madtransactor.MADTransactor}: each IBA RPC
 * ({@code SubnGet}, {@code SubnAdmGetTable}, {@code PerformanceGet}, ...) is a method taking the
 * attribute to send (or its class, for a zero request), the path to the target and the
 * AttributeModifier, and returning the attribute the reply carries, in a new instance:
 *
 * <pre>{@code
 * MadTransactor mt = new MadTransactor(engine, endPort);
 * SmpPortInfo pinf = mt.subnGet(SmpPortInfo.class, IBDRPath.builder(endPort).build(), 1);
 * }</pre>
 *
 * <p><b>Requests.</b> The RPC must be legal for the attribute (its class and method mask) or an
 * {@link IllegalArgumentException} says why. SubnGet and SubnSet go as directed-route SMPs on an
 * {@link org.jrdma.path.IBDRPath} (its DrSLID, DrDLID and InitialPath) and as LID-routed SMPs to
 * the DLID of any other path, with the path's M_Key (IBA 14.2.1). SA requests carry the path's
 * SM_Key (IBA 15.2.1.1). GMPs go to the path's DLID, destination QP, Q_Key, P_Key and SL, with a
 * GRH to its DGID when it has one ({@link MadAddress#forPath}). A request of a class with the
 * RMPP header (SA, vendor 0x30-0x4F) whose attribute does not fit one MAD, other than a Get, is
 * sent by RMPP (IBA 13.6). Each request waits
 * {@link IBPath#madTimeout()} per attempt and is resent {@link IBPath#retries()} times, unless
 * {@link #withTimeouts} fixes both.
 *
 * <p><b>Replies.</b> A reply must answer the request (class, version, TID, method, attribute,
 * OUI); its status word (IBA 13.4.7) becomes a {@link MadClassException} for class-specific
 * codes and a {@link MadException} for the others; no reply at all is a
 * {@link MadTimeoutException}. Each carries the request, the reply and the path
 * ({@link MadException#describe()}). A busy responder is asked again by the engine; a GMP
 * redirected (status 0x0002) is sent again to the agent the reply's ClassPortInfo names, and
 * later requests of that class to that destination go there at once until it stops answering.
 * Multi-packet (RMPP) replies are reassembled by the transport or the engine.
 *
 * <p><b>Serving.</b> {@link #registerServer} makes this end port an agent for a class;
 * {@link MadEngine#receiveRequest} gives the requests, {@link #parseRequest} decodes them, and
 * {@link #sendReply}, {@link #sendErrorReply} and {@link #sendErrorException} answer, by RMPP when
 * the reply is longer than one MAD; requests that came by RMPP are handed over reassembled.
 *
 * <p><b>Asynchronous mode.</b> Any RPC, or any code making several, runs without blocking the
 * caller through {@link #async}, python-rdma's asynchronous {@code MADTransactor} and
 * {@code do_async}: the future completes when the engine has matched the reply (or failed the
 * request), with no {@link MadSchedule} needed; the engine still bounds the MADs in flight.
 *
 * <p><b>Lifecycle.</b> A transactor made by {@link #open} (as {@link org.jrdma.Rdma#getUmad} and
 * {@link org.jrdma.Rdma#getGmpMad} make them) owns its engine: {@link #close} closes the engine
 * and with it the transport, as python-rdma's {@code with rdma.get_umad(end_port) as umad:} does.
 * One made on an engine of the caller's leaves the engine open; so do those derived from it
 * ({@link #withTimeouts}, {@link #withSaPath}, {@link SaTransactor}).
 *
 * <p>Thread-safe: any number of threads (the {@link MadSchedule}'s tasks) may call it at once.
 * {@link SaTransactor} answers SubnGet from the SA instead.
 */
public sealed class MadTransactor implements AutoCloseable permits SaTransactor {
    /** Runs each {@link #async} call on a virtual thread of its own. */
    private static final Executor ASYNC = task -> Thread.ofVirtual().name("mad-async").start(task);
    /** How many redirections one request follows before giving up. */
    private static final int MAX_REDIRECTS = 4;
    private static final int TID_OFFSET = 8;
    private static final int VENDOR_OUI_OFFSET = 37;
    /** Where the class-specific status code sits in the status word (IBA 13.4.7: bits 8-14). */
    private static final int STATUS_CLASS_SHIFT = 8;
    /** The last transaction of the {@link #withReply} call under way in this thread, if one is. */
    private static final ScopedValue<AtomicReference<Transaction>> LAST_REPLY = ScopedValue.newInstance();

    private final MadEngine engine;
    private final EndPort endPort;
    private final IBPath saPath;
    private final Duration timeout;
    private final int retries;
    private final Redirects redirects;
    private final boolean ownsEngine;

    /**
     * A transactor sending through {@code engine} from {@code endPort}, the port the engine's
     * transport is on (null if unknown: then SA paths, GID resolution and received paths lack it).
     */
    public MadTransactor(MadEngine engine, EndPort endPort) {
        this(engine, endPort, null, null, -1, new Redirects(), false);
    }

    /** A transactor sharing everything with {@code parent} but the engine's ownership, for {@link SaTransactor}. */
    MadTransactor(MadTransactor parent) {
        this(parent.engine, parent.endPort, parent.saPath, parent.timeout, parent.retries, parent.redirects, false);
    }

    private MadTransactor(MadEngine engine, EndPort endPort, IBPath saPath, Duration timeout, int retries, Redirects redirects,
            boolean ownsEngine) {
        this.engine = engine;
        this.endPort = endPort;
        this.saPath = saPath;
        this.timeout = timeout;
        this.retries = retries;
        this.redirects = redirects;
        this.ownsEngine = ownsEngine;
    }

    /**
     * A transactor on a new engine over {@code transport} that owns both: {@link #close} closes
     * the engine and the transport. If the engine cannot be made, the transport is closed.
     *
     * @param endPort        the end port the transport is on; null for the one the transport reports
     * @param maxOutstanding how many MADs the engine keeps in flight at once
     */
    public static MadTransactor open(MadTransport transport, EndPort endPort, int maxOutstanding) {
        MadEngine engine;
        try {
            engine = new MadEngine(transport, maxOutstanding);
        } catch (RuntimeException e) {
            try {
                transport.close();
            } catch (RuntimeException suppressed) {
                e.addSuppressed(suppressed);
            }
            throw e;
        }
        return new MadTransactor(engine, endPort != null ? endPort : transport.endPort().orElse(null), null, null, -1,
                new Redirects(), true);
    }

    /**
     * Closes the engine and its transport when this transactor owns them ({@link #open}); else
     * does nothing, the engine being its creator's. Idempotent.
     */
    @Override
    public void close() {
        if (ownsEngine) {
            engine.close();
        }
    }

    /**
     * A transactor like this one (same engine, end port and redirections) that waits
     * {@code timeout} for each attempt and resends {@code retries} times whatever the path says,
     * as the command-line tools' {@code -t} option asks.
     */
    public MadTransactor withTimeouts(Duration timeout, int retries) {
        if (timeout.isNegative() || timeout.isZero() || retries < 0) {
            throw new IllegalArgumentException("timeout " + timeout + " must be positive and retries " + retries + " at least 0");
        }
        return new MadTransactor(engine, endPort, saPath, timeout, retries, redirects, false);
    }

    /**
     * A transactor like this one whose SA requests without a path of their own, and those of
     * {@link SaTransactor} and {@link PathResolver}, go on {@code saPath}: a path with the SM_Key
     * of a trusted requester (the SA gives P_KeyTableRecords only to those, IBA 15.4.1), or other
     * timeouts.
     */
    public MadTransactor withSaPath(IBPath saPath) {
        return new MadTransactor(engine, endPort, Objects.requireNonNull(saPath, "saPath"), timeout, retries, redirects, false);
    }

    /** The engine this transactor sends through. */
    public MadEngine engine() {
        return engine;
    }

    /** The end port this transactor sends from, if known. */
    public Optional<EndPort> endPort() {
        return Optional.ofNullable(endPort);
    }

    /**
     * The path to the subnet administrator: the one {@link #withSaPath} set, else the end port's
     * ({@link IBPath#saPath}).
     *
     * @throws IllegalStateException if neither is known
     */
    public IBPath saPath() {
        if (saPath != null) {
            return saPath;
        }
        if (endPort == null) {
            throw new IllegalStateException("the SA path needs the end port, which this transactor does not know");
        }
        return IBPath.saPath(endPort);
    }

    /**
     * Runs {@code rpc} on this transactor without blocking the caller, python-rdma's asynchronous
     * mode ({@code is_async}, {@code do_async}): each RPC gets a {@link CompletableFuture} form,
     *
     * <pre>{@code
     * CompletableFuture<SmpNodeInfo> a = mt.async(m -> m.subnGet(SmpNodeInfo.class, pathA, 0));
     * CompletableFuture<SmpNodeInfo> b = mt.async(m -> m.subnGet(SmpNodeInfo.class, pathB, 0));
     * long guid = a.join().nodeGuid() ^ b.join().nodeGuid();
     * }</pre>
     *
     * and so does a whole sequence of them (a function making several RPCs, as a seed coroutine
     * would). The function runs on a virtual thread; the future completes with its result once
     * the engine has matched the replies by TID, or exceptionally with what it threw
     * ({@link MadTimeoutException}, {@link MadClassException}, ...). Any number may be under way
     * at once; the engine sends at most its {@link MadEngine#maxOutstanding()} MADs at a time.
     * Cancelling the future does not stop a MAD already sent.
     */
    public <R> CompletableFuture<R> async(Function<? super MadTransactor, ? extends R> rpc) {
        Objects.requireNonNull(rpc, "rpc");
        return CompletableFuture.supplyAsync(() -> rpc.apply(this), ASYNC);
    }

    /**
     * Runs {@code rpc} on this transactor in the calling thread and returns its result with the
     * last reply it processed: python-rdma's {@code reply_fmt} and {@code reply_path}, which the
     * seed keeps on the transactor, held here by the call that made the reply, so that threads
     * sharing a transactor never see each other's:
     *
     * <pre>{@code
     * MadReply<SmpPortInfo> r = mt.withReply(m -> m.subnGet(SmpPortInfo.class, path, 1));
     * int responder = r.path().slid();   // the reply's path, received semantics
     * int status = r.header().status();  // the reply's format
     * }</pre>
     *
     * RPCs {@code rpc} makes on other threads (through {@link #async}) are not seen.
     *
     * @throws IllegalStateException if {@code rpc} returned without a reply accepted
     */
    public <R> MadReply<R> withReply(Function<? super MadTransactor, ? extends R> rpc) {
        Objects.requireNonNull(rpc, "rpc");
        AtomicReference<Transaction> last = new AtomicReference<>();
        R result = ScopedValue.where(LAST_REPLY, last).call(() -> rpc.apply(this));
        Transaction transaction = last.get();
        if (transaction == null) {
            throw new IllegalStateException("the call made no RPC that got a reply");
        }
        ReceivedMad reply = transaction.reply();
        return new MadReply<>(result, reply, reply.from().receivedPath(endPort, reply.mad()[1] & 0xFF));
    }

    // Subnet management (IBA 14.2)

    /** SubnGet: the attribute of the node (port) at the end of {@code path}; {@code attribute} is sent as the request's data. */
    public <T extends IbaStruct & MadAttribute> T subnGet(T attribute, IBPath path, long attributeModifier) {
        return call(Rpc.SUBN_GET, attribute, path, attributeModifier, 0, 0);
    }

    /** {@link #subnGet(IbaStruct, IBPath, long) subnGet} with AttributeModifier 0, the seed's default. */
    public <T extends IbaStruct & MadAttribute> T subnGet(T attribute, IBPath path) {
        return subnGet(attribute, path, 0);
    }

    /** SubnGet with a zero request. */
    public <T extends IbaStruct & MadAttribute> T subnGet(Class<T> type, IBPath path, long attributeModifier) {
        return subnGet(zero(type), path, attributeModifier);
    }

    /** {@link #subnGet(Class, IBPath, long) subnGet} with AttributeModifier 0, the seed's default. */
    public <T extends IbaStruct & MadAttribute> T subnGet(Class<T> type, IBPath path) {
        return subnGet(type, path, 0);
    }

    /** SubnSet: writes {@code attribute}; returns the node's answer, its value after the Set. */
    public <T extends IbaStruct & MadAttribute> T subnSet(T attribute, IBPath path, long attributeModifier) {
        return call(Rpc.SUBN_SET, attribute, path, attributeModifier, 0, 0);
    }

    /** {@link #subnSet(IbaStruct, IBPath, long) subnSet} with AttributeModifier 0, the seed's default. */
    public <T extends IbaStruct & MadAttribute> T subnSet(T attribute, IBPath path) {
        return subnSet(attribute, path, 0);
    }

    // Subnet administration (IBA 15.2, 15.4)

    /**
     * SubnAdmGet: the one record matching {@code template} in the components
     * {@code componentMask} selects (the record's {@code *_COMPONENT_MASK} constants).
     */
    public <T extends IbaStruct & MadAttribute> T subnAdmGet(T template, long componentMask, IBPath path) {
        return call(Rpc.SUBN_ADM_GET, template, path, 0, componentMask, 0);
    }

    /** SubnAdmGet to the end port's SA ({@link #saPath()}). */
    public <T extends IbaStruct & MadAttribute> T subnAdmGet(T template, long componentMask) {
        return subnAdmGet(template, componentMask, saPath());
    }

    /**
     * SubnAdmGetTable: every record matching {@code template} in the components
     * {@code componentMask} selects; empty when none does (also when the SA says so with the
     * status No Records).
     */
    public <T extends IbaStruct & MadAttribute> List<T> subnAdmGetTable(T template, long componentMask, IBPath path) {
        return subnAdmGetTable(template, componentMask, path, Attributes.factoryOf(template));
    }

    /** SubnAdmGetTable to the end port's SA ({@link #saPath()}). */
    public <T extends IbaStruct & MadAttribute> List<T> subnAdmGetTable(T template, long componentMask) {
        return subnAdmGetTable(template, componentMask, saPath());
    }

    /**
     * SubnAdmGetTable with an attribute modifier, which some records give a meaning: for
     * PortInfoRecord, bit 31 asks for the ports having any of the template's CapabilityMask bits
     * rather than exactly them (IBA 15.2.5.3, as saquery {@code -s} asks).
     */
    public <T extends IbaStruct & MadAttribute> List<T> subnAdmGetTable(T template, long componentMask, long attributeModifier,
            IBPath path) {
        return subnAdmGetTable(template, componentMask, attributeModifier, path, Attributes.factoryOf(template));
    }

    /** SubnAdmGetTable making the records with {@code factory}. */
    <T extends IbaStruct & MadAttribute> List<T> subnAdmGetTable(T template, long componentMask, IBPath path, Supplier<T> factory) {
        return subnAdmGetTable(template, componentMask, 0, path, factory);
    }

    private <T extends IbaStruct & MadAttribute> List<T> subnAdmGetTable(T template, long componentMask, long attributeModifier,
            IBPath path, Supplier<T> factory) {
        try {
            return transact(MadCall.of(Rpc.SUBN_ADM_GET_TABLE, template, path, attributeModifier, componentMask, 0), path)
                    .records(factory);
        } catch (MadClassException e) {
            if ((e.status().orElse(0) & Mad.STATUS_CLASS_MASK) == Mad.STATUS_SA_NO_RECORDS) {
                return List.of();
            }
            throw e;
        }
    }

    /** SubnAdmSet: creates or updates the record (a ServiceRecord, an MCMemberRecord join, ...); returns the SA's record. */
    public <T extends IbaStruct & MadAttribute> T subnAdmSet(T record, long componentMask, IBPath path) {
        return call(Rpc.SUBN_ADM_SET, record, path, 0, componentMask, 0);
    }

    /** SubnAdmSet to the end port's SA ({@link #saPath()}), the seed's default path. */
    public <T extends IbaStruct & MadAttribute> T subnAdmSet(T record, long componentMask) {
        return subnAdmSet(record, componentMask, saPath());
    }

    /** SubnAdmDelete: removes the record the components select; returns the record removed. */
    public <T extends IbaStruct & MadAttribute> T subnAdmDelete(T record, long componentMask, IBPath path) {
        return call(Rpc.SUBN_ADM_DELETE, record, path, 0, componentMask, 0);
    }

    /** SubnAdmDelete to the end port's SA ({@link #saPath()}). */
    public <T extends IbaStruct & MadAttribute> T subnAdmDelete(T record, long componentMask) {
        return subnAdmDelete(record, componentMask, saPath());
    }

    /**
     * SubnAdmGetMulti (IBA 15.2.5.20): the path records between the sources and destinations of
     * a MultiPathRecord. The request goes as a single RMPP segment.
     */
    public List<SaPathRecord> subnAdmGetMulti(SaMultiPathRecord request, long componentMask, IBPath path) {
        return transact(MadCall.of(Rpc.SUBN_ADM_GET_MULTI, request, path, 0, componentMask, 0), path).records(SaPathRecord::new);
    }

    // General services (IBA 16)

    /** PerformanceGet: a PerfMgt attribute of the port's performance management agent (IBA 16.1). */
    public <T extends IbaStruct & MadAttribute> T performanceGet(T attribute, IBPath path, long attributeModifier) {
        return call(Rpc.PERFORMANCE_GET, attribute, path, attributeModifier, 0, 0);
    }

    /** {@link #performanceGet(IbaStruct, IBPath, long) performanceGet} with AttributeModifier 0, the seed's default. */
    public <T extends IbaStruct & MadAttribute> T performanceGet(T attribute, IBPath path) {
        return performanceGet(attribute, path, 0);
    }

    /** PerformanceGet with a zero request. */
    public <T extends IbaStruct & MadAttribute> T performanceGet(Class<T> type, IBPath path, long attributeModifier) {
        return performanceGet(zero(type), path, attributeModifier);
    }

    /** {@link #performanceGet(Class, IBPath, long) performanceGet} with AttributeModifier 0, the seed's default. */
    public <T extends IbaStruct & MadAttribute> T performanceGet(Class<T> type, IBPath path) {
        return performanceGet(type, path, 0);
    }

    /** PerformanceSet: writes a PerfMgt attribute (PortCounters to clear counters, ...). */
    public <T extends IbaStruct & MadAttribute> T performanceSet(T attribute, IBPath path, long attributeModifier) {
        return call(Rpc.PERFORMANCE_SET, attribute, path, attributeModifier, 0, 0);
    }

    /** {@link #performanceSet(IbaStruct, IBPath, long) performanceSet} with AttributeModifier 0, the seed's default. */
    public <T extends IbaStruct & MadAttribute> T performanceSet(T attribute, IBPath path) {
        return performanceSet(attribute, path, 0);
    }

    /** BMGet: a baseboard management attribute (IBA 16.2). */
    public <T extends IbaStruct & MadAttribute> T bmGet(T attribute, IBPath path, long attributeModifier) {
        return call(Rpc.BM_GET, attribute, path, attributeModifier, 0, 0);
    }

    /** {@link #bmGet(IbaStruct, IBPath, long) bmGet} with AttributeModifier 0, the seed's default. */
    public <T extends IbaStruct & MadAttribute> T bmGet(T attribute, IBPath path) {
        return bmGet(attribute, path, 0);
    }

    /** BMGet with a zero request. */
    public <T extends IbaStruct & MadAttribute> T bmGet(Class<T> type, IBPath path, long attributeModifier) {
        return bmGet(zero(type), path, attributeModifier);
    }

    /** {@link #bmGet(Class, IBPath, long) bmGet} with AttributeModifier 0, the seed's default. */
    public <T extends IbaStruct & MadAttribute> T bmGet(Class<T> type, IBPath path) {
        return bmGet(type, path, 0);
    }

    /** BMSet: writes a baseboard management attribute. */
    public <T extends IbaStruct & MadAttribute> T bmSet(T attribute, IBPath path, long attributeModifier) {
        return call(Rpc.BM_SET, attribute, path, attributeModifier, 0, 0);
    }

    /** {@link #bmSet(IbaStruct, IBPath, long) bmSet} with AttributeModifier 0, the seed's default. */
    public <T extends IbaStruct & MadAttribute> T bmSet(T attribute, IBPath path) {
        return bmSet(attribute, path, 0);
    }

    /** DevMgtGet: a device management attribute (IBA 16.3). */
    public <T extends IbaStruct & MadAttribute> T devMgtGet(T attribute, IBPath path, long attributeModifier) {
        return call(Rpc.DEV_MGT_GET, attribute, path, attributeModifier, 0, 0);
    }

    /** {@link #devMgtGet(IbaStruct, IBPath, long) devMgtGet} with AttributeModifier 0, the seed's default. */
    public <T extends IbaStruct & MadAttribute> T devMgtGet(T attribute, IBPath path) {
        return devMgtGet(attribute, path, 0);
    }

    /** DevMgtGet with a zero request. */
    public <T extends IbaStruct & MadAttribute> T devMgtGet(Class<T> type, IBPath path, long attributeModifier) {
        return devMgtGet(zero(type), path, attributeModifier);
    }

    /** {@link #devMgtGet(Class, IBPath, long) devMgtGet} with AttributeModifier 0, the seed's default. */
    public <T extends IbaStruct & MadAttribute> T devMgtGet(Class<T> type, IBPath path) {
        return devMgtGet(type, path, 0);
    }

    /** DevMgtSet: writes a device management attribute. */
    public <T extends IbaStruct & MadAttribute> T devMgtSet(T attribute, IBPath path, long attributeModifier) {
        return call(Rpc.DEV_MGT_SET, attribute, path, attributeModifier, 0, 0);
    }

    /** {@link #devMgtSet(IbaStruct, IBPath, long) devMgtSet} with AttributeModifier 0, the seed's default. */
    public <T extends IbaStruct & MadAttribute> T devMgtSet(T attribute, IBPath path) {
        return devMgtSet(attribute, path, 0);
    }

    /** CommMgtGet: a communication management attribute, ClassPortInfo (IBA 12.6). */
    public <T extends IbaStruct & MadAttribute> T commMgtGet(T attribute, IBPath path, long attributeModifier) {
        return call(Rpc.COMM_MGT_GET, attribute, path, attributeModifier, 0, 0);
    }

    /** {@link #commMgtGet(IbaStruct, IBPath, long) commMgtGet} with AttributeModifier 0, the seed's default. */
    public <T extends IbaStruct & MadAttribute> T commMgtGet(T attribute, IBPath path) {
        return commMgtGet(attribute, path, 0);
    }

    /** CommMgtGet with a zero request. */
    public <T extends IbaStruct & MadAttribute> T commMgtGet(Class<T> type, IBPath path, long attributeModifier) {
        return commMgtGet(zero(type), path, attributeModifier);
    }

    /** {@link #commMgtGet(Class, IBPath, long) commMgtGet} with AttributeModifier 0, the seed's default. */
    public <T extends IbaStruct & MadAttribute> T commMgtGet(Class<T> type, IBPath path) {
        return commMgtGet(type, path, 0);
    }

    /** CommMgtSet: writes a communication management attribute. */
    public <T extends IbaStruct & MadAttribute> T commMgtSet(T attribute, IBPath path, long attributeModifier) {
        return call(Rpc.COMM_MGT_SET, attribute, path, attributeModifier, 0, 0);
    }

    /** {@link #commMgtSet(IbaStruct, IBPath, long) commMgtSet} with AttributeModifier 0, the seed's default. */
    public <T extends IbaStruct & MadAttribute> T commMgtSet(T attribute, IBPath path) {
        return commMgtSet(attribute, path, 0);
    }

    /**
     * CommMgtSend: sends a CM message (REQ, REP, RTU, ...; IBA 12.6) with a fresh TID. A Send gets
     * no response; the CM's answers are Sends of their own.
     *
     * @return the request as sent, with its TID
     */
    public <T extends IbaStruct & MadAttribute> byte[] commMgtSend(T message, IBPath path, long attributeModifier) {
        MadCall<T> call = MadCall.of(Rpc.COMM_MGT_SEND, message, path, attributeModifier, 0, 0);
        byte[] request = call.request(path);
        Bits.u64(request, TID_OFFSET, engine.newTransactionId());
        engine.send(request, MadAddress.forPath(path, call.mgmtClass()));
        return request;
    }

    /** {@link #commMgtSend(IbaStruct, IBPath, long) commMgtSend} with AttributeModifier 0, the seed's default. */
    public <T extends IbaStruct & MadAttribute> byte[] commMgtSend(T message, IBPath path) {
        return commMgtSend(message, path, 0);
    }

    /** VendGet: an attribute of vendor class 0x09-0x0F, whose MADs carry no OUI (IBA 16.5). */
    public <T extends IbaStruct & MadAttribute> T vendGet(T attribute, IBPath path, long attributeModifier) {
        return call(Rpc.VEND_GET, attribute, path, attributeModifier, 0, 0);
    }

    /** {@link #vendGet(IbaStruct, IBPath, long) vendGet} with AttributeModifier 0, the seed's default. */
    public <T extends IbaStruct & MadAttribute> T vendGet(T attribute, IBPath path) {
        return vendGet(attribute, path, 0);
    }

    /** VendGet with a zero request. */
    public <T extends IbaStruct & MadAttribute> T vendGet(Class<T> type, IBPath path, long attributeModifier) {
        return vendGet(zero(type), path, attributeModifier);
    }

    /** {@link #vendGet(Class, IBPath, long) vendGet} with AttributeModifier 0, the seed's default. */
    public <T extends IbaStruct & MadAttribute> T vendGet(Class<T> type, IBPath path) {
        return vendGet(type, path, 0);
    }

    /**
     * VendGet in a vendor class 0x30-0x4F: the MADs carry the vendor's OUI (VendorOuiFormat) and
     * may answer by RMPP, so the attribute may be longer than one MAD (the request then carries
     * its leading bytes).
     */
    public <T extends IbaStruct & MadAttribute> T vendGet(T attribute, int oui, IBPath path, long attributeModifier) {
        return call(Rpc.VEND_GET, attribute, path, attributeModifier, 0, oui);
    }

    /** VendGet with OUI and a zero request. */
    public <T extends IbaStruct & MadAttribute> T vendGet(Class<T> type, int oui, IBPath path, long attributeModifier) {
        return vendGet(zero(type), oui, path, attributeModifier);
    }

    /** VendSet: writes an attribute of vendor class 0x09-0x0F. */
    public <T extends IbaStruct & MadAttribute> T vendSet(T attribute, IBPath path, long attributeModifier) {
        return call(Rpc.VEND_SET, attribute, path, attributeModifier, 0, 0);
    }

    /** {@link #vendSet(IbaStruct, IBPath, long) vendSet} with AttributeModifier 0, the seed's default. */
    public <T extends IbaStruct & MadAttribute> T vendSet(T attribute, IBPath path) {
        return vendSet(attribute, path, 0);
    }

    /** VendSet in a vendor class 0x30-0x4F, with the vendor's OUI. */
    public <T extends IbaStruct & MadAttribute> T vendSet(T attribute, int oui, IBPath path, long attributeModifier) {
        return call(Rpc.VEND_SET, attribute, path, attributeModifier, 0, oui);
    }

    private <T extends IbaStruct & MadAttribute> T call(Rpc rpc, T attribute, IBPath path, long attributeModifier,
            long componentMask, int oui) {
        return transact(MadCall.of(rpc, attribute, path, attributeModifier, componentMask, oui), path)
                .attribute(Attributes.factoryOf(attribute));
    }

    /**
     * {@code rpc} of {@code attribute} on {@code path} without waiting: {@code done} gets the
     * attribute the reply carries, or the failure {@link #call} would have thrown, on the engine's
     * receiver thread ({@link MadEngine#submit}). SMPs, and GMPs of classes without the RMPP
     * header (PerfMgt, DevMgt, BM, CommMgt, vendor 0x09-0x0F): a GMP goes where its class's
     * requests to that destination are redirected, and a reply that redirects it is followed on a
     * virtual thread of its own (the path to a GID-only redirection comes from the SA, a blocking
     * query), as {@link #transact} follows it.
     *
     * @throws IllegalArgumentException if the class has the RMPP header (SA, vendor 0x30-0x4F), or the request is longer than one MAD
     */
    <T extends IbaStruct & MadAttribute> void submit(Rpc rpc, T attribute, IBPath path, long attributeModifier,
            BiConsumer<T, RuntimeException> done) {
        MadCall<T> call = MadCall.of(rpc, attribute, path, attributeModifier, 0, 0);
        IBPath target = redirects.target(call.mgmtClass(), path);
        byte[] request = call.request(target);
        engine.submit(request, MadAddress.forPath(target, call.mgmtClass()), timeout(target), retries(target), (reply, failure) -> {
            T result;
            try {
                if (failure instanceof MadException e) {
                    if (e instanceof MadTimeoutException && target != path) {
                        redirects.forget(call.mgmtClass(), path);
                    }
                    throw inContext(e, call + " to " + target, new MadException.Exchange(request, e.reply().orElse(null), target));
                }
                if (failure != null) {
                    throw failure;
                }
                Transaction transaction = new Transaction(call, request, reply, target);
                if (transaction.check() != 0) {
                    ASYNC.execute(() -> redirected(call, path, transaction, attribute, done));
                    return;
                }
                result = transaction.attribute(Attributes.factoryOf(attribute));
            } catch (RuntimeException e) {
                done.accept(null, e);
                return;
            }
            done.accept(result, null);
        });
    }

    /** The rest of a submitted GMP whose first reply redirected it, blocking as {@link #transact} does. */
    private <T extends IbaStruct & MadAttribute> void redirected(MadCall<T> call, IBPath path, Transaction redirection, T attribute,
            BiConsumer<T, RuntimeException> done) {
        T result;
        try {
            result = transact(call, path, follow(redirection, path), 1).attribute(Attributes.factoryOf(attribute));
        } catch (RuntimeException e) {
            done.accept(null, e);
            return;
        }
        done.accept(result, null);
    }

    /**
     * Makes {@code call} on {@code path}, or where the class's requests to that destination are
     * redirected, following redirections; returns the checked transaction.
     */
    Transaction transact(MadCall<?> call, IBPath path) {
        return transact(call, path, redirects.target(call.mgmtClass(), path), 0);
    }

    /** {@link #transact(MadCall, IBPath)} from {@code target}, after {@code redirected} redirections. */
    private Transaction transact(MadCall<?> call, IBPath path, IBPath target, int redirected) {
        for (; ; redirected++) {
            byte[] request = call.request(target);
            ReceivedMad reply;
            try {
                reply = engine.execute(request, MadAddress.forPath(target, call.mgmtClass()), timeout(target), retries(target));
            } catch (MadException e) {
                if (e instanceof MadTimeoutException && target != path) {
                    redirects.forget(call.mgmtClass(), path);
                }
                throw inContext(e, call + " to " + target, new MadException.Exchange(request, e.reply().orElse(null), target));
            }
            Transaction transaction = new Transaction(call, request, reply, target);
            if (transaction.check() == 0) {
                if (LAST_REPLY.isBound()) {
                    LAST_REPLY.get().set(transaction);
                }
                return transaction;
            }
            if (redirected == MAX_REDIRECTS) {
                throw new MadException(transaction + " was redirected more than " + MAX_REDIRECTS + " times", transaction.exchange());
            }
            target = follow(transaction, path);
        }
    }

    /** Where the redirection {@code transaction} answered with sends requests to {@code path}'s agent, remembered. */
    private IBPath follow(Transaction transaction, IBPath path) {
        return redirects.follow(transaction, path, gid -> PathResolver.resolvePath(this, IBPath.builder(endPort).dgid(gid).build(), true));
    }

    // Serving requests (the seed's parse_request, send_reply, send_error_reply, send_error_exc)

    /**
     * Makes this end port an agent serving a class: requests of {@code mgmtClass} and
     * {@code classVersion} whose method is in {@code methodMask} (bit N for method N) and, for
     * vendor classes 0x30-0x4F, whose OUI is {@code oui} come out of
     * {@link MadEngine#receiveRequest} ({@link MadTransport#registerServer}).
     */
    public void registerServer(int mgmtClass, int classVersion, long methodMask, int oui) {
        engine.registerServer(mgmtClass, classVersion, methodMask, oui);
    }

    /**
     * Makes this end port the agent serving the methods of {@code type}, python-rdma's
     * {@code register_server_fmt}: the class, class version and method mask are the
     * attribute's (the version jrdma speaks for its class; for vendor classes 0x30-0x4F use
     * {@link #registerServer(int, int, long, int)} with the OUI).
     */
    public <T extends IbaStruct & MadAttribute> void registerServer(Class<T> type) {
        T attribute = zero(type);
        int mgmtClass = attribute.mgmtClass();
        registerServer(mgmtClass, Rpc.classVersion(mgmtClass), attribute.methodMask(), 0);
    }

    /**
     * The key requests are matched on to find their server, python-rdma's
     * {@code get_request_match_key(buf)}: the management class with the vendor's OUI above it for
     * vendor classes 0x30-0x4F, the base and class versions, and the AttributeID.
     *
     * @throws IllegalArgumentException if {@code mad} is shorter than a MAD header (or, for vendor
     *                                  classes 0x30-0x4F, than the OUI)
     */
    public static RequestMatchKey requestMatchKey(byte[] mad) {
        if (mad.length < MadHeader.SIZE) {
            throw new IllegalArgumentException("a MAD header is " + MadHeader.SIZE + " bytes, not " + mad.length);
        }
        int mgmtClass = mad[1] & 0xFF;
        long oui = 0;
        if (mgmtClass >= Mad.CLASS_VENDOR_RANGE2_START && mgmtClass <= Mad.CLASS_VENDOR_RANGE2_END) {
            if (mad.length < VENDOR_OUI_OFFSET + 3) {
                throw new IllegalArgumentException("a vendor MAD of " + mad.length + " bytes ends before its OUI");
            }
            oui = Bits.get(mad, VENDOR_OUI_OFFSET, 0, 24);
        }
        return new RequestMatchKey(oui << 8 | mgmtClass, (mad[0] & 0xFF) << 8 | (mad[2] & 0xFF), Bits.u16(mad, 16));
    }

    /**
     * The seed's match key of a request: {@code ((oui << 8) | mgmtClass, (baseVersion << 8) |
     * classVersion, attributeID)}.
     *
     * @param ouiClass    the OUI (0 but for vendor classes 0x30-0x4F) shifted 8 bits, or the class
     * @param versions    the base version shifted 8 bits, or the class version
     * @param attributeId the AttributeID
     */
    public record RequestMatchKey(long ouiClass, int versions, int attributeId) {
    }

    /**
     * Decodes a request from {@link MadEngine#receiveRequest}: its header, its attribute where jrdma
     * knows it, and the path it came on, built from the sender's address and this end port.
     *
     * @throws MadException when the MAD is not a request that can be parsed, with the status an
     *                      error reply should carry ({@link #sendErrorException}): Bad Version,
     *                      Invalid attribute/modifier for undecodable attribute data, Method/Attribute
     *                      combo not supported for a method the attribute does not allow
     */
    public IncomingRequest parseRequest(ReceivedMad in) {
        byte[] mad = in.mad();
        IBPath path = in.from().receivedPath(endPort, in.length() > 1 ? mad[1] & 0xFF : 0);
        MadException.Exchange exchange = new MadException.Exchange(Arrays.copyOf(mad, in.length()), null, path);
        if (in.length() < MadHeader.SIZE) {
            throw new MadException("a request of " + in.length() + " bytes is shorter than a MAD header", exchange);
        }
        int method = mad[3] & 0xFF;
        if (Mad.isResponse(method)) {
            throw new MadException(String.format("method 0x%02x is a response, not a request", method), exchange);
        }
        if (mad[0] != Mad.BASE_VERSION) {
            throw new MadException("MAD base version " + (mad[0] & 0xFF) + " is not 1", Mad.STATUS_BAD_VERSION, exchange);
        }
        DecodedMad decoded;
        try {
            decoded = MadDecoder.decode(mad, 0, in.length());
        } catch (MalformedMadException e) {
            throw new MadException("undecodable request: " + e.getMessage(), Mad.STATUS_INVALID_ATTR_OR_MODIFIER, exchange);
        }
        if (decoded.attribute() instanceof MadAttribute a && (a.methodMask() >>> method & 1) == 0) {
            throw new MadException(Mad.methodName(mad[1] & 0xFF, method) + " is not a method of " + decoded.attribute().ibaName(),
                    Mad.STATUS_UNSUP_METHOD_ATTR_COMBO, exchange);
        }
        return new IncomingRequest(in, decoded, path);
    }

    /**
     * Answers a request with {@code attribute}: the response method, status 0, the attribute as
     * data. An attribute longer than one MAD goes by RMPP (classes with the RMPP header only).
     *
     * @throws IllegalArgumentException if the request gets no response, or the attribute does not fit a class without RMPP
     * @throws MadException             if an RMPP transfer of the reply fails
     */
    public void sendReply(IncomingRequest request, IbaStruct attribute) {
        sendReply(request, attribute, Mad.STATUS_SUCCESS);
    }

    /**
     * Answers a request with {@code attribute} and the status word {@code status}, as a redirect
     * (0x0002 with the ClassPortInfo of the agent to ask) or a busy or error reply that carries data.
     *
     * @throws IllegalArgumentException if the request gets no response, or the attribute does not fit a class without RMPP
     * @throws MadException             if an RMPP transfer of the reply fails
     */
    public void sendReply(IncomingRequest request, IbaStruct attribute, int status) {
        sendReply(request, attribute, request.attributeModifier(), status, 0);
    }

    /**
     * Answers a request with {@code attribute}, python-rdma's {@code send_reply(ofmt, payload,
     * path, attributeModifier, status, class_code)}: the reply carries {@code attributeModifier}
     * and the status word made of {@code status} (the common bits, IBA 13.4.7) and
     * {@code classCode} (the class-specific code, bits 8-14).
     *
     * @throws IllegalArgumentException if the modifier exceeds 32 bits, {@code status} has bits
     *                                  outside the common ones, {@code classCode} exceeds 7 bits, the
     *                                  request gets no response, or the attribute does not fit a class without RMPP
     * @throws MadException             if an RMPP transfer of the reply fails
     */
    public void sendReply(IncomingRequest request, IbaStruct attribute, long attributeModifier, int status, int classCode) {
        if ((attributeModifier & ~0xFFFF_FFFFL) != 0) {
            throw new IllegalArgumentException("attribute modifier 0x" + Long.toHexString(attributeModifier) + " does not fit in 32 bits");
        }
        int statusWord = statusWord(status, classCode);
        byte[] reply = MadReplies.response(request.mad().mad(), statusWord);
        new MadHeader(reply, 0).attributeModifier(attributeModifier);
        int mgmtClass = request.mgmtClass();
        int offset = MadDecoder.dataOffset(mgmtClass);
        if (attribute.size() <= MadCall.room(mgmtClass)) {
            attribute.pack(reply, offset);
            engine.send(reply, MadAddress.forPath(request.replyPath(), mgmtClass));
            return;
        }
        if (!Rmpp.hasRmppHeader(mgmtClass)) {
            throw new IllegalArgumentException(attribute.ibaName() + " (" + attribute.size() + " bytes) does not fit one "
                    + Mad.className(mgmtClass) + " MAD, and the class has no RMPP");
        }
        byte[] transfer = Arrays.copyOf(reply, offset + attribute.size());
        attribute.pack(transfer, offset);
        sendTransfer(transfer, request);
    }

    /**
     * Answers an SA table request (GetTable, GetTraceTable, GetMulti) with {@code records}, all of
     * one kind: SubnAdmGetTableResp with AttributeOffset their size in 8-byte words, by RMPP as
     * IBA 15.4 has it, however many records there are.
     *
     * @throws IllegalArgumentException if the request is not an SA request, or the records differ in size
     * @throws MadException             if the RMPP transfer fails
     */
    public void sendReply(IncomingRequest request, List<? extends IbaStruct> records) {
        if (request.mgmtClass() != Mad.CLASS_SUBN_ADM) {
            throw new IllegalArgumentException("only SA requests are answered with records, not class 0x"
                    + Integer.toHexString(request.mgmtClass()));
        }
        int size = records.isEmpty() ? 0 : records.getFirst().size();
        int stride = (size + 7) / 8 * 8;
        byte[] reply = MadReplies.response(request.mad().mad(), Mad.STATUS_SUCCESS);
        new SaFormat(reply, 0).attributeOffset(stride / 8);
        byte[] transfer = Arrays.copyOf(reply, MadDecoder.SA_DATA_OFFSET + records.size() * stride);
        for (int i = 0; i < records.size(); i++) {
            if (records.get(i).size() != size) {
                throw new IllegalArgumentException("record " + i + " is a " + records.get(i).ibaName() + ", not of " + size + " bytes");
            }
            records.get(i).pack(transfer, MadDecoder.SA_DATA_OFFSET + i * stride);
        }
        sendTransfer(transfer, request);
    }

    private void sendTransfer(byte[] transfer, IncomingRequest request) {
        IBPath path = request.replyPath();
        try {
            engine.sendTransfer(transfer, MadAddress.forPath(path, request.mgmtClass()), timeout(path), retries(path));
        } catch (MadException e) {
            throw inContext(e, "RMPP reply to " + MadDump.summary(request.mad().mad()) + " on " + path,
                    new MadException.Exchange(request.mad().mad(), e.reply().orElse(null), path));
        }
    }

    /**
     * Answers a request with an error: the whole request returned with the response method and
     * {@code status} (common and class-specific bits; IBA 13.4.7), to the requester.
     *
     * @throws IllegalArgumentException if requests of its method get no response
     */
    public void sendErrorReply(ReceivedMad request, int status) {
        sendErrorReply(request, status, 0);
    }

    /**
     * python-rdma's {@code send_error_reply(buf, path, status, class_code)}: answers a request with
     * the common status bits {@code status} and the class-specific code {@code classCode} (bits
     * 8-14 of the status word, IBA 13.4.7).
     *
     * @throws IllegalArgumentException if the codes do not fit their bits, or requests of its method get no response
     */
    public void sendErrorReply(ReceivedMad request, int status, int classCode) {
        status = statusWord(status, classCode);
        int mgmtClass = request.mad()[1] & 0xFF;
        engine.send(MadReplies.response(request.mad(), status),
                MadAddress.forPath(request.from().receivedPath(endPort, mgmtClass).reverse(true), mgmtClass));
    }

    /**
     * Answers a request with the error {@code e} describes, python-rdma's {@code send_error_exc}:
     * its status word, or Invalid attribute/modifier (0x001C) when it has none. A request that gets
     * no response (a Send, a Trap) is not answered.
     */
    public void sendErrorException(ReceivedMad request, MadException e) {
        if (MadReplies.expectsResponse(request.mad()[3] & 0xFF)) {
            sendErrorReply(request, e.status().orElse(Mad.STATUS_INVALID_ATTR_OR_MODIFIER));
        }
    }

    /** The status word of {@code status} (common bits) and {@code classCode} (class-specific bits 8-14). */
    private static int statusWord(int status, int classCode) {
        if (classCode < 0 || classCode > Mad.STATUS_CLASS_MASK >> STATUS_CLASS_SHIFT) {
            throw new IllegalArgumentException("class-specific status code " + classCode + " outside 0..127");
        }
        if (classCode != 0 && (status & ~0xFF) != 0) {
            throw new IllegalArgumentException(String.format("status 0x%04x has bits beyond the common ones", status));
        }
        return status | classCode << STATUS_CLASS_SHIFT;
    }

    private Duration timeout(IBPath path) {
        return timeout != null ? timeout : path.madTimeout();
    }

    private int retries(IBPath path) {
        return retries >= 0 ? retries : path.retries();
    }

    private static <T extends IbaStruct> T zero(Class<T> type) {
        return Attributes.factory(type).get();
    }

    /** {@code e} with {@code what} in front of its message and the full exchange. */
    private static MadException inContext(MadException e, String what, MadException.Exchange exchange) {
        String message = what + ": " + e.getMessage();
        MadException wrapped = e instanceof MadTimeoutException ? new MadTimeoutException(message, exchange)
                : new MadException(message, exchange);
        wrapped.initCause(e);
        return wrapped;
    }
}
