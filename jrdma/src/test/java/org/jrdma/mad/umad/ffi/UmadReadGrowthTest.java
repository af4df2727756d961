package org.jrdma.mad.umad.ffi;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.jrdma.RdmaException;
import org.jrdma.SysException;
import org.junit.jupiter.api.Test;

/** How far a umad read's buffer grows on {@code ENOSPC}: to the header's length word, within a cap. */
class UmadReadGrowthTest {
    private static final SysException ENOSPC = new SysException("read", UmadFile.ENOSPC);

    @Test
    void growsToTheLengthTheKernelAsksFor() {
        assertEquals(64 + 2_000, UmadFile.grownReadSize("umad0", 64 + 2_000, 320, ENOSPC));
        assertEquals(UmadFile.MAX_READ_SIZE, UmadFile.grownReadSize("umad0", UmadFile.MAX_READ_SIZE, 320, ENOSPC));
    }

    @Test
    void refusesALengthThatWouldNotGrowTheBuffer() {
        RdmaException e = assertThrows(RdmaException.class, () -> UmadFile.grownReadSize("umad0", 320, 320, ENOSPC));
        assertTrue(e.getMessage().contains("yet the MAD needs 320"), e.getMessage());
        assertSame(ENOSPC, e.getCause());
    }

    @Test
    void refusesALengthBeyondTheCap() {
        long claimed = 0xFFFF_FFFFL;
        RdmaException e = assertThrows(RdmaException.class, () -> UmadFile.grownReadSize("umad0", claimed, 320, ENOSPC));
        assertTrue(e.getMessage().contains("claims 4294967295 bytes"), e.getMessage());
    }
}
