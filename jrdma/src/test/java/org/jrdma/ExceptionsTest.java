package org.jrdma;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.reflect.Modifier;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;
import org.jrdma.iba.Mad;
import org.jrdma.mad.MadClassException;
import org.jrdma.mad.MadException;
import org.jrdma.mad.MadTimeoutException;
import org.jrdma.mad.SaPathNotFoundException;
import org.jrdma.verbs.AsyncException;
import org.jrdma.verbs.WcException;
import org.jrdma.verbs.WrException;
import org.junit.jupiter.api.Test;

class ExceptionsTest {
    @Test
    void hierarchyFollowsPythonRdma() {
        assertTrue(RuntimeException.class.isAssignableFrom(RdmaException.class));
        for (Class<?> type : List.of(SysException.class, MadException.class, WcException.class, AsyncException.class)) {
            assertSame(RdmaException.class, type.getSuperclass(), type.getName());
        }
        assertSame(SysException.class, WrException.class.getSuperclass());
        assertSame(MadException.class, MadTimeoutException.class.getSuperclass());
        assertSame(MadException.class, MadClassException.class.getSuperclass());
        assertSame(MadClassException.class, SaPathNotFoundException.class.getSuperclass());
    }

    @Test
    void leavesAreFinal() {
        for (Class<?> type : List.of(WrException.class, MadTimeoutException.class, SaPathNotFoundException.class,
                WcException.class, AsyncException.class)) {
            assertTrue(Modifier.isFinal(type.getModifiers()), type.getName());
        }
    }

    @Test
    void sysExceptionReadsLikeNetty() {
        var error = new SysException("ibv_open_device", 2);
        assertEquals("ibv_open_device(..) failed with error(2): No such file or directory", error.getMessage());
        assertEquals("ibv_open_device", error.call());
        assertEquals(2, error.errno());
        assertEquals("No such file or directory", error.strerror());
        assertEquals(Optional.of("ENOENT"), error.errnoName());
    }

    @Test
    void sysExceptionTakesNegativeErrnoAsReturnCode() {
        var error = new SysException("ibv_modify_qp", -22);
        assertEquals(22, error.errno());
        assertEquals("ibv_modify_qp(..) failed with error(22): Invalid argument", error.getMessage());
        assertEquals(Optional.of("EINVAL"), error.errnoName());
    }

    @Test
    void sysExceptionTakesTheCLibrarysText() {
        var error = new SysException("umad_open_port", 19, "No such device (from strerror_r)");
        assertEquals("umad_open_port(..) failed with error(19): No such device (from strerror_r)", error.getMessage());
        assertEquals(Optional.of("ENODEV"), error.errnoName());
    }

    @Test
    void unknownErrnoHasNoName() {
        var error = new SysException("ioctl", 200);
        assertEquals("ioctl(..) failed with error(200): Unknown error 200", error.getMessage());
        assertEquals(Optional.empty(), error.errnoName());
        assertEquals("ioctl(..) failed with error(0): Success", new SysException("ioctl", 0).getMessage());
    }

    @Test
    void sysExceptionRejectsNullNames() {
        assertThrows(NullPointerException.class, () -> new SysException(null, 1));
        assertThrows(NullPointerException.class, () -> new SysException("read", 1, null));
    }

    @Test
    void wrExceptionCarriesTheBadIndex() {
        var error = new WrException("ibv_post_send", 12, 3);
        assertEquals("ibv_post_send(..) failed with error(12): Cannot allocate memory, bad work request at index 3",
                error.getMessage());
        assertEquals(3, error.badIndex());
        assertEquals(12, error.errno());
        assertEquals("ibv_post_send", error.call());
        assertEquals(Optional.of("ENOMEM"), error.errnoName());
        assertInstanceOf(SysException.class, error);
    }

    @Test
    void madExceptionStatusIsOptional() {
        var plain = new MadException("SubnGet(NodeInfo) reply too short");
        assertEquals("SubnGet(NodeInfo) reply too short", plain.getMessage());
        assertEquals(OptionalInt.empty(), plain.status());

        var cause = new SysException("write", 5);
        var wrapped = new MadException("sending SubnGet(NodeInfo) failed", cause);
        assertSame(cause, wrapped.getCause());
        assertEquals(OptionalInt.empty(), wrapped.status());

        var status = new MadException("SubnGet(PortInfo) of port 3", Mad.STATUS_UNSUP_METHOD_ATTR_COMBO);
        assertEquals("SubnGet(PortInfo) of port 3: MAD status 0x000c (Method/Attribute combo not supported)",
                status.getMessage());
        assertEquals(OptionalInt.of(0x000C), status.status());
        assertEquals(OptionalInt.of(0xFFFF), new MadException("max", 0xFFFF).status());
    }

    @Test
    void madExceptionRejectsStatusOutside16Bits() {
        assertThrows(IllegalArgumentException.class, () -> new MadException("bad", 0x10000));
        assertThrows(IllegalArgumentException.class, () -> new MadException("bad", -2));
    }

    @Test
    void madTimeoutIsAMadException() {
        var error = new MadTimeoutException("SubnGet(NodeInfo) to DR path 0,1 timed out after 4 tries");
        assertEquals("SubnGet(NodeInfo) to DR path 0,1 timed out after 4 tries", error.getMessage());
        assertEquals(OptionalInt.empty(), error.status());
        assertInstanceOf(MadException.class, error);
    }

    @Test
    void madClassExceptionNamesTheClassCode() {
        var sa = new MadClassException("SubnAdmGet(NodeRecord)", Mad.CLASS_SUBN_ADM, Mad.STATUS_SA_REQ_INVALID);
        assertEquals("SubnAdmGet(NodeRecord): MAD status 0x0200 (Request Invalid)", sa.getMessage());
        assertEquals(Mad.CLASS_SUBN_ADM, sa.mgmtClass());
        assertEquals(2, sa.classCode());
        assertEquals(OptionalInt.of(0x0200), sa.status());

        var perf = new MadClassException("PerformanceGet(PortCounters)", Mad.CLASS_PERF_MGMT, 0x7F00);
        assertEquals("PerformanceGet(PortCounters): MAD status 0x7f00 (Class-specific status 0x7f)",
                perf.getMessage());
        assertEquals(0x7F, perf.classCode());

        var directed = new MadClassException("SubnGet", Mad.CLASS_SUBN_DIRECTED_ROUTE, 0x8100);
        assertEquals(1, directed.classCode(), "the D bit is not part of the class code");
        assertThrows(IllegalArgumentException.class, () -> new MadClassException("x", 0x100, 0));
        assertThrows(IllegalArgumentException.class, () -> new MadClassException("x", 3, 0x10000));
    }

    @Test
    void saPathNotFoundIsAnSaClassError() {
        var error = new SaPathNotFoundException("No path to DGID fe80::2:c903:0:1491", Mad.STATUS_SA_NO_RECORDS);
        assertEquals("No path to DGID fe80::2:c903:0:1491: MAD status 0x0300 (No Records)", error.getMessage());
        assertEquals(Mad.CLASS_SUBN_ADM, error.mgmtClass());
        assertEquals(3, error.classCode());
        assertInstanceOf(MadClassException.class, error);
    }

    @Test
    void wcExceptionCarriesTheCompletion() {
        var error = new WcException(5, "Work Request Flushed Error", 0x1234, 0xFFFF_FFFF_FFFF_FFFFL);
        assertEquals("Work completion error: Work Request Flushed Error (status 5) on QP 0x001234,"
                + " wr_id 0xffffffffffffffff", error.getMessage());
        assertEquals(5, error.status());
        assertEquals("Work Request Flushed Error", error.statusText());
        assertEquals(0x1234, error.qpNum());
        assertEquals(-1L, error.wrId());
        assertEquals(0xFFFFFF, new WcException(12, "x", 0xFFFFFF, 0).qpNum());
        assertThrows(NullPointerException.class, () -> new WcException(1, null, 0, 0));
    }

    @Test
    void asyncExceptionCarriesTheEvent() {
        var error = new AsyncException(1, "local work queue catastrophic error");
        assertEquals("Asynchronous error event: local work queue catastrophic error (type 1)", error.getMessage());
        assertEquals(1, error.eventType());
        assertEquals("local work queue catastrophic error", error.eventText());
        assertThrows(NullPointerException.class, () -> new AsyncException(1, null));
    }

    @Test
    void rdmaExceptionKeepsMessageAndCause() {
        var cause = new IllegalStateException("closed");
        var error = new RdmaException("teardown failed", cause);
        assertEquals("teardown failed", error.getMessage());
        assertSame(cause, error.getCause());
        assertFalse(new RdmaException("plain").getCause() != null);
    }
}
