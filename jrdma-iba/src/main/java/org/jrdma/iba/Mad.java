package org.jrdma.iba;

import java.util.StringJoiner;
import java.util.function.IntFunction;

/**
 * Numbers of the common MAD header (IBA 13.4.2): management classes, methods and the status
 * word, with the names infiniband-diags and libibumad ({@code umad_types.h}, {@code umad_str.c})
 * give them, so that {@code Mad.METHOD_GET_RESP} reads like {@code UMAD_METHOD_GET_RESP} and
 * python-rdma's {@code IBA.MAD_METHOD_GET_RESP}.
 *
 * <pre>
 *   status word (IBA 13.4.7), 16 bits:
 *    15  14 ........ 8  7 .. 5  4 ... 2   1          0
 *   +---+-------------+-------+-------+----------+------+
 *   | D | class code  | rsvd  | field | redirect | busy |
 *   +---+-------------+-------+-------+----------+------+
 *   D: directed-route SMPs only (IBA 14.2.1.2), set in a response
 *   field: 0 none, 1 bad version, 2 unsupported method, 3 unsupported method/attribute,
 *          7 invalid attribute or modifier
 * </pre>
 */
public final class Mad {
    /** MAD BaseVersion of every IBA MAD. */
    public static final int BASE_VERSION = 1;

    /** Subnet management, LID routed (SMP, QP0). */
    public static final int CLASS_SUBN_LID_ROUTED = 0x01;
    /** Subnet administration, the SA (GMP, QP1). */
    public static final int CLASS_SUBN_ADM = 0x03;
    /** Performance management, the PMA. */
    public static final int CLASS_PERF_MGMT = 0x04;
    /** Baseboard management. */
    public static final int CLASS_BM = 0x05;
    /** Device management. */
    public static final int CLASS_DEVICE_MGMT = 0x06;
    /** Communication management, the CM. */
    public static final int CLASS_CM = 0x07;
    /** SNMP tunnelling. */
    public static final int CLASS_SNMP = 0x08;
    /** First class of the first vendor range, whose MADs carry no OUI. */
    public static final int CLASS_VENDOR_RANGE1_START = 0x09;
    /** Last class of the first vendor range. */
    public static final int CLASS_VENDOR_RANGE1_END = 0x0F;
    /** First application class. */
    public static final int CLASS_APPLICATION_START = 0x10;
    /** Device administration, the first application class. */
    public static final int CLASS_DEVICE_ADM = 0x10;
    /** Boot management. */
    public static final int CLASS_BOOT_MGMT = 0x11;
    /** BIS. */
    public static final int CLASS_BIS = 0x12;
    /** Congestion control (IBA annex A10). */
    public static final int CLASS_CONG_MGMT = 0x21;
    /** Last application class. */
    public static final int CLASS_APPLICATION_END = 0x2F;
    /** First class of the second vendor range, whose MADs carry an OUI (IBA 13.4.9). */
    public static final int CLASS_VENDOR_RANGE2_START = 0x30;
    /** Last class of the second vendor range. */
    public static final int CLASS_VENDOR_RANGE2_END = 0x4F;
    /** Subnet management, directed route (SMP, QP0; IBA 14.2.1.2). */
    public static final int CLASS_SUBN_DIRECTED_ROUTE = 0x81;

    /** Get: read an attribute. */
    public static final int METHOD_GET = 0x01;
    /** Set: write an attribute. */
    public static final int METHOD_SET = 0x02;
    /** Send: a datagram that needs no response. */
    public static final int METHOD_SEND = 0x03;
    /** Trap: an unsolicited notice. */
    public static final int METHOD_TRAP = 0x05;
    /** Report: forward a notice to a subscriber. */
    public static final int METHOD_REPORT = 0x06;
    /** TrapRepress: stop repeating a trap. */
    public static final int METHOD_TRAP_REPRESS = 0x07;
    /** SubnAdmGetTable: read every record that matches (SA, IBA 15.2.5). */
    public static final int METHOD_GET_TABLE = 0x12;
    /** SubnAdmGetTraceTable: read the records of a path trace (SA). */
    public static final int METHOD_GET_TRACE_TABLE = 0x13;
    /** SubnAdmGetMulti: read with a multi-packet request (SA). */
    public static final int METHOD_GET_MULTI = 0x14;
    /** SubnAdmDelete: remove a record (SA). */
    public static final int METHOD_DELETE = 0x15;
    /** The bit set in the method of every response. */
    public static final int METHOD_RESP_MASK = 0x80;
    /** GetResp: the response to Get and Set. */
    public static final int METHOD_GET_RESP = 0x81;
    /** ReportResp: the response to Report. */
    public static final int METHOD_REPORT_RESP = 0x86;
    /** SubnAdmGetTableResp, the response to GetTable and GetTraceTable (SA). */
    public static final int METHOD_GET_TABLE_RESP = 0x92;
    /** SubnAdmGetMultiResp (SA). */
    public static final int METHOD_GET_MULTI_RESP = 0x94;
    /** SubnAdmDeleteResp (SA). */
    public static final int METHOD_DELETE_RESP = 0x95;

    /** Status 0: success. */
    public static final int STATUS_SUCCESS = 0x0000;
    /** Status bit 0: busy, the request was discarded; try again later. */
    public static final int STATUS_BUSY = 0x0001;
    /** Status bit 1: redirect, ask the agent named in the ClassPortInfo of the response. */
    public static final int STATUS_REDIRECT = 0x0002;
    /** Status field code 1: the class version is not supported. */
    public static final int STATUS_BAD_VERSION = 0x0004;
    /** Status field code 2: the method is not supported. */
    public static final int STATUS_UNSUP_METHOD = 0x0008;
    /** Status field code 3: the method and attribute combination is not supported. */
    public static final int STATUS_UNSUP_METHOD_ATTR_COMBO = 0x000C;
    /** Status field code 7: an attribute or attribute modifier field holds an invalid value. */
    public static final int STATUS_INVALID_ATTR_OR_MODIFIER = 0x001C;
    /** The bits of the status field code, bits 2 to 4. */
    public static final int STATUS_INVALID_FIELD_MASK = 0x001C;
    /** The class-specific status bits, 8 to 14. */
    public static final int STATUS_CLASS_MASK = 0x7F00;
    /** Bit 15 of a directed-route SMP: set in every response (IBA 14.2.1.2). */
    public static final int STATUS_DIRECTED_RESPONSE = 0x8000;

    /** The reserved common status bits, 5 to 7. */
    private static final int STATUS_RESERVED_MASK = 0x00E0;

    /** SA class status 1: no resources to answer (IBA 15.2.1.1). */
    public static final int STATUS_SA_NO_RESOURCES = 0x0100;
    /** SA class status 2: the request is invalid. */
    public static final int STATUS_SA_REQ_INVALID = 0x0200;
    /** SA class status 3: no record matches. */
    public static final int STATUS_SA_NO_RECORDS = 0x0300;
    /** SA class status 4: more than one record matches a Get. */
    public static final int STATUS_SA_TOO_MANY_RECORDS = 0x0400;
    /** SA class status 5: a GID in the request is invalid. */
    public static final int STATUS_SA_INVALID_GID = 0x0500;
    /** SA class status 6: the request lacks components the SA needs. */
    public static final int STATUS_SA_INSUF_COMPS = 0x0600;
    /** SA class status 7: the request was denied. */
    public static final int STATUS_SA_REQ_DENIED = 0x0700;
    /** SA class status 8: the request's priority cannot be honoured; a priority is suggested. */
    public static final int STATUS_SA_PRI_SUGGESTED = 0x0800;

    private Mad() {
    }

    /** True if {@code method} is a response: its bit {@link #METHOD_RESP_MASK} is set. */
    public static boolean isResponse(int method) {
        checkByte("method", method);
        return (method & METHOD_RESP_MASK) != 0;
    }

    /**
     * True if a MAD of {@code method} answers a request, matched to it by TID (the kernel's
     * {@code ib_response_mad}): a response, or a TrapRepress, which answers a Trap without the R
     * bit (IBA 13.4.9).
     */
    public static boolean answersRequest(int method) {
        return isResponse(method) || method == METHOD_TRAP_REPRESS;
    }

    /** True if {@code mgmtClass} lies in one of the two vendor ranges, 0x09-0x0F or 0x30-0x4F. */
    public static boolean isVendorClass(int mgmtClass) {
        checkByte("management class", mgmtClass);
        return mgmtClass >= CLASS_VENDOR_RANGE1_START && mgmtClass <= CLASS_VENDOR_RANGE1_END
                || mgmtClass >= CLASS_VENDOR_RANGE2_START && mgmtClass <= CLASS_VENDOR_RANGE2_END;
    }

    /**
     * The name of management class {@code mgmtClass} as libibumad's {@code umad_class_str}
     * gives it: {@code Subn}, {@code SubnAdm}, {@code Perf}, ..., {@code Vendor},
     * {@code Application}, or {@code <unknown>}.
     */
    public static String className(int mgmtClass) {
        checkByte("management class", mgmtClass);
        return switch (mgmtClass) {
            case CLASS_SUBN_LID_ROUTED, CLASS_SUBN_DIRECTED_ROUTE -> "Subn";
            case CLASS_SUBN_ADM -> "SubnAdm";
            case CLASS_PERF_MGMT -> "Perf";
            case CLASS_BM -> "BM";
            case CLASS_DEVICE_MGMT -> "DevMgt";
            case CLASS_CM -> "ComMgt";
            case CLASS_SNMP -> "SNMP";
            case CLASS_DEVICE_ADM -> "DevAdm";
            case CLASS_BOOT_MGMT -> "BootMgt";
            case CLASS_BIS -> "BIS";
            case CLASS_CONG_MGMT -> "CongestionManagment";
            default -> isVendorClass(mgmtClass) ? "Vendor"
                    : mgmtClass >= CLASS_APPLICATION_START && mgmtClass <= CLASS_APPLICATION_END
                    ? "Application" : "<unknown>";
        };
    }

    /**
     * The name of {@code method} in management class {@code mgmtClass} as libibumad's
     * {@code umad_method_str} gives it ({@code Get}, {@code GetResp}, and for the SA also
     * {@code GetTable}, ...), or {@code <unknown>}.
     */
    public static String methodName(int mgmtClass, int method) {
        checkByte("management class", mgmtClass);
        checkByte("method", method);
        if (mgmtClass == CLASS_SUBN_ADM) {
            String name = switch (method) {
                case METHOD_GET_TABLE -> "GetTable";
                case METHOD_GET_TABLE_RESP -> "GetTableResp";
                case METHOD_DELETE -> "Delete";
                case METHOD_DELETE_RESP -> "DeleteResp";
                case METHOD_GET_MULTI -> "GetMulti";
                case METHOD_GET_MULTI_RESP -> "GetMultiResp";
                case METHOD_GET_TRACE_TABLE -> "GetTraceTable";
                default -> null;
            };
            if (name != null) {
                return name;
            }
        }
        return switch (method) {
            case METHOD_GET -> "Get";
            case METHOD_SET -> "Set";
            case METHOD_GET_RESP -> "GetResp";
            case METHOD_SEND -> "Send";
            case METHOD_TRAP -> "Trap";
            case METHOD_REPORT -> "Report";
            case METHOD_REPORT_RESP -> "ReportResp";
            case METHOD_TRAP_REPRESS -> "TrapRepress";
            default -> "<unknown>";
        };
    }

    /**
     * Describes a MAD status word of any class: {@code Success}, or the errors it reports
     * separated by {@code ", "}, in the words of libibumad's {@code umad_common_mad_status_str}
     * ({@code Busy}, {@code Redirection required}, {@code Bad Version}, {@code Method not
     * supported}, {@code Method/Attribute combo not supported}, {@code Invalid attribute/modifier
     * field}), a reserved field code as {@code Reserved invalid field code N}, and a
     * class-specific code as {@code Class-specific status 0xNN}. The directed-route D bit is not
     * an error and is not described.
     *
     * @throws IllegalArgumentException if {@code status} does not fit in 16 bits
     */
    public static String statusToString(int status) {
        return describe(status, classCode -> String.format("Class-specific status 0x%02x", classCode));
    }

    /**
     * Describes a MAD status word as {@link #statusToString(int)} does, naming the class-specific
     * code of management class {@code mgmtClass} where it is known: for the SA, in the words of
     * libibumad's {@code umad_sa_mad_status_str} ({@code No Resources}, {@code Request Invalid},
     * {@code No Records}, {@code Too Many Records}, {@code Invalid GID}, {@code Insufficient
     * Components}, {@code Request Denied}, {@code Priority Suggested}).
     *
     * @throws IllegalArgumentException if {@code status} does not fit in 16 bits or
     *                                  {@code mgmtClass} in 8
     */
    public static String statusToString(int mgmtClass, int status) {
        checkByte("management class", mgmtClass);
        if (mgmtClass != CLASS_SUBN_ADM) {
            return statusToString(status);
        }
        return describe(status, classCode -> switch (classCode) {
            case 1 -> "No Resources";
            case 2 -> "Request Invalid";
            case 3 -> "No Records";
            case 4 -> "Too Many Records";
            case 5 -> "Invalid GID";
            case 6 -> "Insufficient Components";
            case 7 -> "Request Denied";
            case 8 -> "Priority Suggested";
            default -> String.format("Class-specific status 0x%02x", classCode);
        });
    }

    private static String describe(int status, IntFunction<String> classCodeText) {
        if ((status & ~0xFFFF) != 0) {
            throw new IllegalArgumentException("MAD status " + status + " does not fit in 16 bits");
        }
        var parts = new StringJoiner(", ");
        if ((status & STATUS_BUSY) != 0) {
            parts.add("Busy");
        }
        if ((status & STATUS_REDIRECT) != 0) {
            parts.add("Redirection required");
        }
        switch (status & STATUS_INVALID_FIELD_MASK) {
            case 0 -> { }
            case STATUS_BAD_VERSION -> parts.add("Bad Version");
            case STATUS_UNSUP_METHOD -> parts.add("Method not supported");
            case STATUS_UNSUP_METHOD_ATTR_COMBO -> parts.add("Method/Attribute combo not supported");
            case STATUS_INVALID_ATTR_OR_MODIFIER -> parts.add("Invalid attribute/modifier field");
            default -> parts.add("Reserved invalid field code " + ((status & STATUS_INVALID_FIELD_MASK) >> 2));
        }
        if ((status & STATUS_RESERVED_MASK) != 0) {
            parts.add(String.format("Reserved status bits 0x%04x", status & STATUS_RESERVED_MASK));
        }
        int classCode = (status & STATUS_CLASS_MASK) >> 8;
        if (classCode != 0) {
            parts.add(classCodeText.apply(classCode));
        }
        return parts.length() == 0 ? "Success" : parts.toString();
    }

    private static void checkByte(String what, int value) {
        if ((value & ~0xFF) != 0) {
            throw new IllegalArgumentException("MAD " + what + " " + value + " does not fit in 8 bits");
        }
    }
}
