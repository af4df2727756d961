package org.jrdma.ffi;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemoryLayout;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import org.jrdma.SysException;
import org.junit.jupiter.api.Test;

/**
 * The three ways C reports a failure, each turned into a {@link SysException} by {@link Errors},
 * and the one way a downcall's {@code Throwable} is rethrown. Real failing calls of each kind run
 * in {@link LibcTest} and in the soft-RoCE VM ({@code VerbsInVm}); here the call state is
 * written by hand.
 */
class ErrorsTest {
    private static MemorySegment stateWithErrno(Arena arena, int errno) {
        MemorySegment state = Errors.callState(arena);
        state.set(ValueLayout.JAVA_INT, Errors.CALL_STATE.byteOffset(MemoryLayout.PathElement.groupElement("errno")), errno);
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
    void minusOneOfAByteCountTakesErrnoFromTheCallState() {
        try (Arena arena = Arena.ofConfined()) {
            SysException e = assertThrows(SysException.class, () -> Errors.notMinusOne("read", -1L, stateWithErrno(arena, 9)));
            assertEquals("read(..) failed with error(9): Bad file descriptor", e.getMessage());
            assertEquals(0xFFFF_FFFFL, Errors.notMinusOne("read", 0xFFFF_FFFFL, stateWithErrno(arena, 9)));
        }
    }

    @Test
    void detailFollowsTheErrorTextAndLeavesTheCallName() {
        try (Arena arena = Arena.ofConfined()) {
            SysException e = assertThrows(SysException.class,
                    () -> Errors.notMinusOne("ioctl", -1, stateWithErrno(arena, 22), "request IB_USER_MAD_ENABLE_PKEY"));
            assertEquals("ioctl", e.call());
            assertEquals(22, e.errno());
            assertEquals("Invalid argument", e.strerror());
            assertEquals("ioctl(..) failed with error(22): Invalid argument, request IB_USER_MAD_ENABLE_PKEY", e.getMessage());
            assertEquals(3, Errors.notMinusOne("ioctl", 3, stateWithErrno(arena, 22), "request IB_USER_MAD_ENABLE_PKEY"));
        }
    }

    @Test
    void returnedErrorNumberIsTheErrnoWhateverItsSign() {
        assertEquals(22, assertThrows(SysException.class, () -> Errors.zero("ibv_modify_qp", 22)).errno());
        assertEquals(22, assertThrows(SysException.class, () -> Errors.zero("ibv_post_send", -22)).errno());
        assertEquals("ibv_post_send(..) failed with error(22): Invalid argument",
                assertThrows(SysException.class, () -> Errors.zero("ibv_post_send", -22)).getMessage());
        Errors.zero("ibv_modify_qp", 0);
    }

    @Test
    void rethrowThrowsUncheckedAsTheyAreAndWrapsChecked() {
        var unchecked = new IllegalStateException("already closed");
        assertSame(unchecked, assertThrows(IllegalStateException.class, () -> {
            throw Errors.rethrow(unchecked);
        }));
        var error = new StackOverflowError();
        assertSame(error, assertThrows(StackOverflowError.class, () -> {
            throw Errors.rethrow(error);
        }));
        var checked = new IOException("impossible");
        assertSame(checked, assertThrows(IllegalStateException.class, () -> {
            throw Errors.rethrow(checked);
        }).getCause());
    }
}
