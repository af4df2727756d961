package org.jrdma.verbs.ffi;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.lang.foreign.Arena;
import java.lang.foreign.MemoryLayout;
import java.lang.foreign.MemorySegment;
import org.jrdma.SysException;
import org.junit.jupiter.api.Test;

/**
 * The three ways libibverbs reports a failure, each turned into a {@link SysException} by
 * {@link Errors}. Real failing calls of each kind run in the soft-RoCE VM ({@code VerbsInVm});
 * here the call state is written by hand.
 */
class ErrorsTest {
    private static MemorySegment stateWithErrno(Arena arena, int errno) {
        MemorySegment state = Errors.callState(arena);
        state.set(java.lang.foreign.ValueLayout.JAVA_INT,
                Errors.CALL_STATE.byteOffset(MemoryLayout.PathElement.groupElement("errno")), errno);
        return state;
    }

    @Test
    void nullPointerTakesErrnoFromTheCallState() {
        try (Arena arena = Arena.ofConfined()) {
            SysException e = assertThrows(SysException.class,
                    () -> Errors.nonNull("ibv_open_device", MemorySegment.NULL, stateWithErrno(arena, 19)));
            assertEquals("ibv_open_device", e.call());
            assertEquals(19, e.errno());
            assertEquals("ibv_open_device(..) failed with error(19): No such device", e.getMessage());
            MemorySegment pointer = MemorySegment.ofAddress(0x1000);
            assertSame(pointer, Errors.nonNull("ibv_open_device", pointer, stateWithErrno(arena, 19)));
        }
    }

    @Test
    void minusOneTakesErrnoFromTheCallState() {
        try (Arena arena = Arena.ofConfined()) {
            SysException e = assertThrows(SysException.class,
                    () -> Errors.notMinusOne("ibv_get_cq_event", -1, stateWithErrno(arena, 11)));
            assertEquals(11, e.errno());
            assertEquals("ibv_get_cq_event(..) failed with error(11): Resource temporarily unavailable",
                    e.getMessage());
            assertEquals(0, Errors.notMinusOne("ibv_get_cq_event", 0, stateWithErrno(arena, 11)));
        }
    }

    @Test
    void returnedErrorNumberIsTheErrnoWhateverItsSign() {
        assertEquals(22, assertThrows(SysException.class, () -> Errors.zero("ibv_modify_qp", 22)).errno());
        assertEquals(22, assertThrows(SysException.class, () -> Errors.zero("ibv_post_send", -22)).errno());
        Errors.zero("ibv_modify_qp", 0);
    }
}
