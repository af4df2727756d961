package org.jrdma.mad;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;
import org.jrdma.MadClassException;
import org.jrdma.MadException;
import org.jrdma.iba.Mad;
import org.jrdma.iba.mad.MadHeader;
import org.jrdma.iba.mad.RmppHeader;
import org.jrdma.iba.mad.SaFormat;
import org.jrdma.iba.wire.IbaStruct;
import org.jrdma.iba.wire.MadAttribute;
import org.jrdma.iba.wire.MadDecoder;

/**
 * General management packets over QP1 (IBA 13.4, 15.2, 16.1): PerformanceGet/Set to a port's
 * performance management agent, and SubnAdmGet/GetTable to the subnet administrator.
 *
 * <p>SA table responses larger than one MAD travel by RMPP (IBA 13.6). The kernel's umad
 * reassembles them, so the transport hands over one long MAD and every record is read. A segment
 * that says more follow but arrives alone raises a {@link MadException} rather than returning
 * part of a table. Over ibsim no RMPP layer sits between OpenSM and the client: libumad2sim
 * forwards at most one MAD of each write with its true length and never completes the RMPP header
 * (version 0, no First/Last, no PayloadLength), so a table response is read up to that length,
 * and one that filled the whole MAD may have lost records, as it does for the C tools.
 */
public final class GmpClient {
    /** PerfMgt class version (IBA 16.1.1). */
    public static final int PM_CLASS_VERSION = 1;
    /** SubnAdm class version (IBA 15.2.1). */
    public static final int SA_CLASS_VERSION = 2;
    /** The SA MAD header's own bytes counted in an RMPP PayloadLength (SM_Key, AttributeOffset, ComponentMask). */
    private static final int SA_HEADER_BYTES = 20;
    private static final int RMPP_ACTIVE = 0x01;
    private static final int RMPP_LAST = 0x04;

    private final MadEngine engine;
    private final Duration timeout;
    private final int retries;

    /**
     * @param engine  the engine to send through
     * @param timeout how long to wait for each attempt
     * @param retries how many times to resend an unanswered request
     */
    public GmpClient(MadEngine engine, Duration timeout, int retries) {
        this.engine = engine;
        this.timeout = timeout;
        this.retries = retries;
    }

    /** PerformanceGet: reads a PerfMgt attribute of the port at {@code lid}. */
    public <T extends IbaStruct & MadAttribute> T performanceGet(T attribute, int lid, long attributeModifier) {
        return performance(Mad.METHOD_GET, attribute, lid, attributeModifier);
    }

    /** PerformanceSet: writes a PerfMgt attribute (e.g. PortCounters to reset counters); the answer is written back. */
    public <T extends IbaStruct & MadAttribute> T performanceSet(T attribute, int lid, long attributeModifier) {
        return performance(Mad.METHOD_SET, attribute, lid, attributeModifier);
    }

    private <T extends IbaStruct & MadAttribute> T performance(int method, T attribute, int lid, long modifier) {
        byte[] mad = request(Mad.CLASS_PERF_MGMT, PM_CLASS_VERSION, method, attribute, modifier);
        attribute.pack(mad, MadDecoder.dataOffset(Mad.CLASS_PERF_MGMT));
        ReceivedMad reply = exchange(mad, MadAddress.gmp(lid), "Performance" + (method == Mad.METHOD_GET ? "Get(" : "Set(")
                + attribute.ibaName() + ") to LID " + lid);
        attribute.unpack(reply.mad(), MadDecoder.dataOffset(Mad.CLASS_PERF_MGMT));
        return attribute;
    }

    /**
     * SubnAdmGet: the one record matching {@code template} in the components {@code componentMask}
     * selects (the record's {@code *_COMPONENT_MASK} constants).
     */
    public <T extends IbaStruct & MadAttribute> T subnAdmGet(T template, long componentMask, int saLid) {
        template.unpack(subnAdm(Mad.METHOD_GET, template, componentMask, saLid).mad(), MadDecoder.SA_DATA_OFFSET);
        return template;
    }

    /**
     * SubnAdmGetTable: every record matching {@code template} in the components {@code componentMask}
     * selects; an empty list when there is none.
     *
     * @param factory makes the records of the result
     */
    public <T extends IbaStruct & MadAttribute> List<T> subnAdmGetTable(T template, long componentMask, int saLid,
            Supplier<T> factory) {
        ReceivedMad received;
        try {
            received = subnAdm(Mad.METHOD_GET_TABLE, template, componentMask, saLid);
        } catch (MadClassException e) {
            if ((e.status().orElse(0) & Mad.STATUS_CLASS_MASK) == Mad.STATUS_SA_NO_RECORDS) {
                return List.of();
            }
            throw e;
        }
        byte[] reply = received.mad();
        SaFormat sa = new SaFormat(reply, 0);
        RmppHeader rmpp = sa.rmppHeader();
        boolean segmented = (rmpp.rmppFlags() & RMPP_ACTIVE) != 0 && rmpp.rmppVersion() != 0;
        boolean whole = received.length() > MadDecoder.MAD_SIZE;
        if (!whole && segmented && (rmpp.rmppFlags() & RMPP_LAST) == 0) {
            throw new MadException("SubnAdmGetTable(" + template.ibaName() + ") via " + engine.transport().describe()
                    + ": the response continues in further RMPP segments this transport did not reassemble");
        }
        int end = received.length();
        if (!whole && segmented && rmpp.data2() >= SA_HEADER_BYTES) {
            // One complete segment: its PayloadLength counts the SA header's 20 bytes and the records.
            end = (int) Math.min(end, MadDecoder.SA_DATA_OFFSET - SA_HEADER_BYTES + rmpp.data2());
        }
        int stride = sa.attributeOffset() * 8;
        List<T> records = new ArrayList<>();
        for (int at = MadDecoder.SA_DATA_OFFSET; stride > 0 && at + template.size() <= end; at += stride) {
            T record = factory.get();
            record.unpack(reply, at);
            records.add(record);
        }
        return records;
    }

    private <T extends IbaStruct & MadAttribute> ReceivedMad subnAdm(int method, T template, long componentMask, int saLid) {
        byte[] mad = request(Mad.CLASS_SUBN_ADM, SA_CLASS_VERSION, method, template, 0);
        SaFormat sa = new SaFormat(mad, 0);
        sa.componentMask(componentMask);
        template.pack(mad, MadDecoder.SA_DATA_OFFSET);
        return exchange(mad, MadAddress.gmp(saLid), "SubnAdm" + (method == Mad.METHOD_GET ? "Get(" : "GetTable(")
                + template.ibaName() + String.format(", mask 0x%x) to SA at LID %d", componentMask, saLid));
    }

    private static byte[] request(int mgmtClass, int classVersion, int method, IbaStruct attribute, long modifier) {
        byte[] mad = new byte[MadDecoder.MAD_SIZE];
        new MadHeader(mad, 0).baseVersion(1).mgmtClass(mgmtClass).classVersion(classVersion).method(method)
                .attributeId(((MadAttribute) attribute).attributeId()).attributeModifier(modifier);
        return mad;
    }

    private ReceivedMad exchange(byte[] mad, MadAddress to, String what) {
        ReceivedMad reply = engine.execute(mad, to, timeout, retries);
        MadHeader h = new MadHeader(reply.mad(), 0);
        int status = h.status();
        if ((status & Mad.STATUS_CLASS_MASK) != 0) {
            throw new MadClassException(what + " failed: " + Mad.statusToString(h.mgmtClass(), status), h.mgmtClass(), status);
        }
        if (status != 0) {
            throw new MadException(what + " failed: " + Mad.statusToString(h.mgmtClass(), status), status);
        }
        return reply;
    }
}
