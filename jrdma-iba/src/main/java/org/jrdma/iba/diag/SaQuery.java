package org.jrdma.iba.diag;

import org.jrdma.iba.sa.SaLinkRecord;
import org.jrdma.iba.sa.SaNodeRecord;
import org.jrdma.iba.sa.SaPathRecord;
import org.jrdma.iba.sa.SaPortInfoRecord;
import org.jrdma.iba.sa.SaSmInfoRecord;

/**
 * What {@code saquery} (infiniband-diags 44) prints for one record, byte for byte; for several
 * records it prints each in turn. saquery prints no header line.
 */
public final class SaQuery {
    private SaQuery() {
    }

    /** {@code saquery NR [lid]}: {@link Tables#NODE_RECORD}. */
    public static String nodeRecord(SaNodeRecord record) {
        return Tables.NODE_RECORD.print(record);
    }

    /** {@code saquery PIR [lid[/port[/options]]]}: {@link Tables#PORT_INFO_RECORD} (M_Key hidden unless {@code showKeys}). */
    public static String portInfoRecord(SaPortInfoRecord record, DiagOptions options) {
        return Tables.PORT_INFO_RECORD.print(record, options);
    }

    /** {@code saquery PR}: {@link Tables#PATH_RECORD}. */
    public static String pathRecord(SaPathRecord record) {
        return Tables.PATH_RECORD.print(record);
    }

    /** {@code saquery LR}: {@link Tables#LINK_RECORD}. */
    public static String linkRecord(SaLinkRecord record) {
        return Tables.LINK_RECORD.print(record);
    }

    /** {@code saquery SMIR}: {@link Tables#SM_INFO_RECORD}. */
    public static String smInfoRecord(SaSmInfoRecord record) {
        return Tables.SM_INFO_RECORD.print(record);
    }
}
