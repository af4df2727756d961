package org.jrdma.iba;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

class MadTest {
    @Test
    void numbersAreThoseOfIba() {
        assertEquals(1, Mad.BASE_VERSION);
        assertEquals(0x01, Mad.CLASS_SUBN_LID_ROUTED);
        assertEquals(0x81, Mad.CLASS_SUBN_DIRECTED_ROUTE);
        assertEquals(0x03, Mad.CLASS_SUBN_ADM);
        assertEquals(0x04, Mad.CLASS_PERF_MGMT);
        assertEquals(0x05, Mad.CLASS_BM);
        assertEquals(0x06, Mad.CLASS_DEVICE_MGMT);
        assertEquals(0x07, Mad.CLASS_CM);
        assertEquals(0x08, Mad.CLASS_SNMP);
        assertEquals(0x09, Mad.CLASS_VENDOR_RANGE1_START);
        assertEquals(0x0F, Mad.CLASS_VENDOR_RANGE1_END);
        assertEquals(0x10, Mad.CLASS_APPLICATION_START);
        assertEquals(0x10, Mad.CLASS_DEVICE_ADM);
        assertEquals(0x11, Mad.CLASS_BOOT_MGMT);
        assertEquals(0x12, Mad.CLASS_BIS);
        assertEquals(0x21, Mad.CLASS_CONG_MGMT);
        assertEquals(0x2F, Mad.CLASS_APPLICATION_END);
        assertEquals(0x30, Mad.CLASS_VENDOR_RANGE2_START);
        assertEquals(0x4F, Mad.CLASS_VENDOR_RANGE2_END);

        assertEquals(0x01, Mad.METHOD_GET);
        assertEquals(0x02, Mad.METHOD_SET);
        assertEquals(0x03, Mad.METHOD_SEND);
        assertEquals(0x05, Mad.METHOD_TRAP);
        assertEquals(0x06, Mad.METHOD_REPORT);
        assertEquals(0x07, Mad.METHOD_TRAP_REPRESS);
        assertEquals(0x12, Mad.METHOD_GET_TABLE);
        assertEquals(0x13, Mad.METHOD_GET_TRACE_TABLE);
        assertEquals(0x14, Mad.METHOD_GET_MULTI);
        assertEquals(0x15, Mad.METHOD_DELETE);
        assertEquals(0x80, Mad.METHOD_RESP_MASK);
        assertEquals(0x81, Mad.METHOD_GET_RESP);
        assertEquals(0x86, Mad.METHOD_REPORT_RESP);
        assertEquals(0x92, Mad.METHOD_GET_TABLE_RESP);
        assertEquals(0x94, Mad.METHOD_GET_MULTI_RESP);
        assertEquals(0x95, Mad.METHOD_DELETE_RESP);

        assertEquals(0x0000, Mad.STATUS_SUCCESS);
        assertEquals(0x0001, Mad.STATUS_BUSY);
        assertEquals(0x0002, Mad.STATUS_REDIRECT);
        assertEquals(0x0004, Mad.STATUS_BAD_VERSION);
        assertEquals(0x0008, Mad.STATUS_UNSUP_METHOD);
        assertEquals(0x000C, Mad.STATUS_UNSUP_METHOD_ATTR_COMBO);
        assertEquals(0x001C, Mad.STATUS_INVALID_ATTR_OR_MODIFIER);
        assertEquals(0x001C, Mad.STATUS_INVALID_FIELD_MASK);
        assertEquals(0x7F00, Mad.STATUS_CLASS_MASK);
        assertEquals(0x8000, Mad.STATUS_DIRECTED_RESPONSE);
        assertEquals(0x0100, Mad.STATUS_SA_NO_RESOURCES);
        assertEquals(0x0200, Mad.STATUS_SA_REQ_INVALID);
        assertEquals(0x0300, Mad.STATUS_SA_NO_RECORDS);
        assertEquals(0x0400, Mad.STATUS_SA_TOO_MANY_RECORDS);
        assertEquals(0x0500, Mad.STATUS_SA_INVALID_GID);
        assertEquals(0x0600, Mad.STATUS_SA_INSUF_COMPS);
        assertEquals(0x0700, Mad.STATUS_SA_REQ_DENIED);
        assertEquals(0x0800, Mad.STATUS_SA_PRI_SUGGESTED);
    }

    @Test
    void responsesHaveTheHighBitOfTheMethod() {
        for (int method = 0; method <= 0xFF; method++) {
            assertEquals(method >= 0x80, Mad.isResponse(method));
        }
        assertTrue(Mad.isResponse(Mad.METHOD_GET_RESP));
        assertFalse(Mad.isResponse(Mad.METHOD_GET));
    }

    @Test
    void vendorClassesAreTheTwoRanges() {
        for (int mgmtClass = 0; mgmtClass <= 0xFF; mgmtClass++) {
            boolean vendor = mgmtClass >= 0x09 && mgmtClass <= 0x0F || mgmtClass >= 0x30 && mgmtClass <= 0x4F;
            assertEquals(vendor, Mad.isVendorClass(mgmtClass), "class " + mgmtClass);
            assertEquals(vendor, Mad.className(mgmtClass).equals("Vendor"), "class " + mgmtClass);
        }
    }

    @ParameterizedTest
    @CsvSource({"0x01, Subn", "0x81, Subn", "0x03, SubnAdm", "0x04, Perf", "0x05, BM", "0x06, DevMgt", "0x07, ComMgt",
        "0x08, SNMP", "0x09, Vendor", "0x0F, Vendor", "0x10, DevAdm", "0x11, BootMgt", "0x12, BIS",
        "0x13, Application", "0x21, CongestionManagment", "0x2F, Application", "0x30, Vendor", "0x4F, Vendor",
        "0x00, <unknown>", "0x02, <unknown>", "0x50, <unknown>", "0x80, <unknown>", "0xFF, <unknown>"})
    void classNamesAreThoseOfLibibumad(String mgmtClass, String name) {
        assertEquals(name, Mad.className(Integer.decode(mgmtClass)));
    }

    @ParameterizedTest
    @CsvSource({"0x01, Get", "0x02, Set", "0x03, Send", "0x05, Trap", "0x06, Report", "0x07, TrapRepress",
        "0x81, GetResp", "0x86, ReportResp", "0x12, GetTable", "0x92, GetTableResp", "0x13, GetTraceTable",
        "0x14, GetMulti", "0x94, GetMultiResp", "0x15, Delete", "0x95, DeleteResp", "0x00, <unknown>",
        "0x04, <unknown>", "0x80, <unknown>", "0xFF, <unknown>"})
    void methodNamesOfTheSa(String method, String name) {
        assertEquals(name, Mad.methodName(Mad.CLASS_SUBN_ADM, Integer.decode(method)));
    }

    @Test
    void saMethodsHaveNoNameInOtherClasses() {
        assertEquals("<unknown>", Mad.methodName(Mad.CLASS_PERF_MGMT, Mad.METHOD_GET_TABLE));
        assertEquals("<unknown>", Mad.methodName(Mad.CLASS_SUBN_LID_ROUTED, Mad.METHOD_DELETE_RESP));
        assertEquals("GetResp", Mad.methodName(Mad.CLASS_SUBN_DIRECTED_ROUTE, Mad.METHOD_GET_RESP));
        assertEquals("TrapRepress", Mad.methodName(Mad.CLASS_PERF_MGMT, Mad.METHOD_TRAP_REPRESS));
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        "0x0000 | Success",
        "0x0001 | Busy",
        "0x0002 | Redirection required",
        "0x0003 | Busy, Redirection required",
        "0x0004 | Bad Version",
        "0x0008 | Method not supported",
        "0x000C | Method/Attribute combo not supported",
        "0x001C | Invalid attribute/modifier field",
        "0x0010 | Reserved invalid field code 4",
        "0x0014 | Reserved invalid field code 5",
        "0x0018 | Reserved invalid field code 6",
        "0x0020 | Reserved status bits 0x0020",
        "0x00E0 | Reserved status bits 0x00e0",
        "0x0300 | Class-specific status 0x03",
        "0x7F00 | Class-specific status 0x7f",
        "0x8000 | Success",
        "0x801C | Invalid attribute/modifier field",
        "0xFFFF | Busy, Redirection required, Invalid attribute/modifier field, Reserved status bits 0x00e0, "
                + "Class-specific status 0x7f",
    })
    void statusWordsAreDescribed(String status, String text) {
        assertEquals(text, Mad.statusToString(Integer.decode(status)));
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        "0x0000 | Success", "0x0100 | No Resources", "0x0200 | Request Invalid", "0x0300 | No Records",
        "0x0400 | Too Many Records", "0x0500 | Invalid GID", "0x0600 | Insufficient Components",
        "0x0700 | Request Denied", "0x0800 | Priority Suggested", "0x0900 | Class-specific status 0x09",
        "0x030C | Method/Attribute combo not supported, No Records",
    })
    void saStatusWordsAreDescribed(String status, String text) {
        assertEquals(text, Mad.statusToString(Mad.CLASS_SUBN_ADM, Integer.decode(status)));
    }

    @Test
    void classStatusOfOtherClassesIsNumbered() {
        assertEquals("Class-specific status 0x03", Mad.statusToString(Mad.CLASS_PERF_MGMT, 0x0300));
        assertEquals("Busy", Mad.statusToString(Mad.CLASS_SUBN_DIRECTED_ROUTE, 0x8001));
    }

    @ParameterizedTest
    @ValueSource(ints = {-1, 0x10000, Integer.MIN_VALUE})
    void rejectsStatusOutside16Bits(int status) {
        var error = assertThrows(IllegalArgumentException.class, () -> Mad.statusToString(status));
        assertEquals("MAD status " + status + " does not fit in 16 bits", error.getMessage());
        assertThrows(IllegalArgumentException.class, () -> Mad.statusToString(Mad.CLASS_SUBN_ADM, status));
    }

    @ParameterizedTest
    @ValueSource(ints = {-1, 0x100, Integer.MAX_VALUE})
    void rejectsClassAndMethodOutside8Bits(int value) {
        assertByteError("management class", () -> Mad.className(value), value);
        assertByteError("management class", () -> Mad.isVendorClass(value), value);
        assertByteError("management class", () -> Mad.methodName(value, 1), value);
        assertByteError("management class", () -> Mad.statusToString(value, 0), value);
        assertByteError("method", () -> Mad.methodName(1, value), value);
        assertByteError("method", () -> Mad.isResponse(value), value);
    }

    private static void assertByteError(String what, org.junit.jupiter.api.function.Executable call, int value) {
        var error = assertThrows(IllegalArgumentException.class, call);
        assertEquals("MAD " + what + " " + value + " does not fit in 8 bits", error.getMessage());
    }
}
