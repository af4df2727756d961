package org.jrdma.mad;

import java.time.Duration;
import java.util.List;
import java.util.function.BiConsumer;
import java.util.function.Supplier;
import org.jrdma.iba.wire.IbaStruct;
import org.jrdma.iba.wire.MadAttribute;
import org.jrdma.path.IBPath;

/**
 * General management packets to a LID's QP1 (IBA 13.4, 15.2, 16.1) with one timeout and retry
 * count for all: PerformanceGet/Set to a port's performance management agent, and
 * SubnAdmGet/GetTable to the subnet administrator; a {@link MadTransactor} on paths built from the
 * LIDs.
 *
 * <p>SA table responses larger than one MAD travel by RMPP (IBA 13.6). The kernel's umad
 * reassembles them, so the transport hands over one long MAD and every record is read. A segment
 * that says more follow but arrives alone raises a {@link org.jrdma.mad.MadException} rather than
 * returning part of a table. Over ibsim no RMPP layer sits between OpenSM and the client: libumad2sim
 * forwards at most one MAD of each write with its true length and never completes the RMPP header
 * (version 0, no First/Last, no PayloadLength), so a table response is read up to that length,
 * and one that filled the whole MAD may have lost records, as it does for the C tools.
 */
public final class GmpClient {
    /** PerfMgt class version (IBA 16.1.1). */
    public static final int PM_CLASS_VERSION = 1;
    /** SubnAdm class version (IBA 15.2.1). */
    public static final int SA_CLASS_VERSION = 2;

    private final MadTransactor transactor;

    /**
     * @param engine  the engine to send through
     * @param timeout how long to wait for each attempt
     * @param retries how many times to resend an unanswered request
     */
    public GmpClient(MadEngine engine, Duration timeout, int retries) {
        this.transactor = new MadTransactor(engine, null).withTimeouts(timeout, retries);
    }

    /** PerformanceGet: reads a PerfMgt attribute of the port at {@code lid}. */
    public <T extends IbaStruct & MadAttribute> T performanceGet(T attribute, int lid, long attributeModifier) {
        return Attributes.into(attribute, transactor.performanceGet(attribute, path(lid), attributeModifier));
    }

    /** PerformanceSet: writes a PerfMgt attribute (e.g. PortCounters to reset counters); the answer is written back. */
    public <T extends IbaStruct & MadAttribute> T performanceSet(T attribute, int lid, long attributeModifier) {
        return Attributes.into(attribute, transactor.performanceSet(attribute, path(lid), attributeModifier));
    }

    /**
     * PerformanceGet without waiting, for callers with many to make (a fabric's counters): the
     * answer is read into {@code attribute} and {@code done} gets it, or gets the failure
     * {@link #performanceGet} would have thrown, on the engine's receiver thread
     * ({@link MadEngine#submit}), which {@code done} must not block. A reply redirecting the
     * request to another agent is followed on a virtual thread, and {@code done} runs there.
     */
    public <T extends IbaStruct & MadAttribute> void performanceGetAsync(T attribute, int lid, long attributeModifier,
            BiConsumer<? super T, RuntimeException> done) {
        submit(Rpc.PERFORMANCE_GET, attribute, lid, attributeModifier, done);
    }

    /** PerformanceSet without waiting, as {@link #performanceGetAsync}: {@code done} gets the answer written back, or the failure. */
    public <T extends IbaStruct & MadAttribute> void performanceSetAsync(T attribute, int lid, long attributeModifier,
            BiConsumer<? super T, RuntimeException> done) {
        submit(Rpc.PERFORMANCE_SET, attribute, lid, attributeModifier, done);
    }

    private <T extends IbaStruct & MadAttribute> void submit(Rpc rpc, T attribute, int lid, long attributeModifier,
            BiConsumer<? super T, RuntimeException> done) {
        transactor.submit(rpc, attribute, path(lid), attributeModifier,
                (answer, failure) -> done.accept(failure == null ? Attributes.into(attribute, answer) : null, failure));
    }

    /**
     * SubnAdmGet: the one record matching {@code template} in the components {@code componentMask}
     * selects (the record's {@code *_COMPONENT_MASK} constants).
     */
    public <T extends IbaStruct & MadAttribute> T subnAdmGet(T template, long componentMask, int saLid) {
        return Attributes.into(template, transactor.subnAdmGet(template, componentMask, path(saLid)));
    }

    /**
     * SubnAdmGetTable: every record matching {@code template} in the components {@code componentMask}
     * selects; an empty list when there is none.
     *
     * @param factory makes the records of the result
     */
    public <T extends IbaStruct & MadAttribute> List<T> subnAdmGetTable(T template, long componentMask, int saLid,
            Supplier<T> factory) {
        return transactor.subnAdmGetTable(template, componentMask, path(saLid), factory);
    }

    private static IBPath path(int lid) {
        return IBPath.builder(null).dlid(lid).build();
    }
}
