package org.jrdma.tools;

import java.time.Duration;
import java.util.List;
import java.util.function.Supplier;
import org.jrdma.iba.mad.MadClassPortInfo;
import org.jrdma.iba.wire.IbaStruct;
import org.jrdma.iba.wire.MadAttribute;
import org.jrdma.mad.MadClassException;
import org.jrdma.mad.MadEngine;
import org.jrdma.mad.MadTimeoutException;
import org.jrdma.mad.MadTransactor;
import org.jrdma.path.IBPath;

/**
 * saquery's {@code sa_handle}: the subnet administrator at the SM's LID (or on python-rdma's
 * {@code --sa-path}), asked with SubnAdmGet and SubnAdmGetTable carrying the SM_Key of
 * {@code --smkey}, its failures reported as saquery reports
 * them ({@code ERROR: Query result returned 0x0200, ...} on standard error, status EIO; a query the
 * SA does not answer, as OpenSM ignores a wrong SM_Key: {@code sa_query}'s warning and {@code Query
 * SA failed: Connection timed out}, status ETIMEDOUT).
 */
final class SaHandle {
    /** errno EIO: what saquery returns when the SA answers with an error status. */
    static final int EIO = 5;
    /** errno ETIMEDOUT: what saquery returns when the SA does not answer. */
    static final int ETIMEDOUT = 110;
    private static final String[] SA_ERRORS = {"SA_NO_ERROR", "SA_ERR_NO_RESOURCES", "SA_ERR_REQ_INVALID", "SA_ERR_NO_RECORDS",
        "SA_ERR_TOO_MANY_RECORDS", "SA_ERR_REQ_INVALID_GID", "SA_ERR_REQ_INSUFFICIENT_COMPONENTS", "SA_ERR_REQ_DENIED",
        "SA_ERR_STATUS_PRIO_SUGGESTED", "SA_ERR_UNKNOWN"};
    private static final String[] MAD_INVALID_FIELDS = {"MAD No invalid fields", "MAD Bad version",
        "MAD Method specified is not supported", "MAD Method/Attribute combination is not supported", "MAD Reserved",
        "MAD Reserved", "MAD Reserved", "MAD Invalid value in Attribute field(s) or Attribute Modifier", "MAD UNKNOWN ERROR"};

    private final MadTransactor transactor;
    private final IBPath sa;

    /**
     * @param sa the path to the SA (at the SM's LID unless {@code --sa-path} says otherwise), with
     *           the SM_Key every query carries (0: untrusted)
     */
    SaHandle(MadEngine engine, Duration timeout, int retries, IBPath sa) {
        this.transactor = new MadTransactor(engine, null).withTimeouts(timeout, retries);
        this.sa = sa;
    }

    /** SubnAdmGetTable of the records matching {@code template} in the components of {@code componentMask}. */
    <T extends IbaStruct & MadAttribute> List<T> getTable(T template, long componentMask, long attributeModifier) {
        return query(template.attributeId(), () -> transactor.subnAdmGetTable(template, componentMask, attributeModifier, sa));
    }

    /** Every record of a type: SubnAdmGetTable with no component selected. */
    <T extends IbaStruct & MadAttribute> List<T> all(T template) {
        return getTable(template, 0, 0);
    }

    /** The SA's ClassPortInfo (SubnAdmGet); on failure saquery's {@code Failed to query SA:ClassPortInfo} follows its reason. */
    MadClassPortInfo classPortInfo() {
        try {
            MadClassPortInfo template = new MadClassPortInfo();
            return query(template.attributeId(), () -> transactor.subnAdmGet(template, 0, sa));
        } catch (DiagError e) {
            throw e.stderrLine("Failed to query SA:ClassPortInfo");
        }
    }

    private static <T> T query(int attributeId, Supplier<T> query) {
        try {
            return query.get();
        } catch (MadClassException e) {
            int status = e.status().orElse(0);
            throw DiagError.stderr(statusError(status), EIO, e);
        } catch (MadTimeoutException e) {
            // libibumad's receive times out: sa_query's warning (its text ends with a newline of its own), then saquery's line.
            throw DiagError.stderr("Query SA failed: Connection timed out", ETIMEDOUT, null).prepend(
                    DiagError.ibwarn("sa_query", "umad_recv failed: attr 0x" + Integer.toHexString(attributeId) + ": Connection timed out\n"));
        }
    }

    /** libibdiag's {@code sa_report_err}: the MAD status, its MAD-common bits and its SA class code spelled out. */
    static String statusError(int status) {
        int common = status & 0xff;
        String mad = common == 0 ? "" : " (" + ((common & 1) != 0 ? "BUSY" : "") + "; " + ((common & 2) != 0 ? "Redirection Required" : "")
                + "; " + MAD_INVALID_FIELDS[Math.min(common >> 2, MAD_INVALID_FIELDS.length - 1)] + ")";
        int saCode = status >> 8;
        String saText = saCode == 0 ? "" : " SA(" + SA_ERRORS[Math.min(saCode, SA_ERRORS.length - 1)] + ")";
        return String.format("ERROR: Query result returned 0x%04x, %s%s", status, mad, saText);
    }
}
