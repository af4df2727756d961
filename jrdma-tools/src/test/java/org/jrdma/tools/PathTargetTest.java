package org.jrdma.tools;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.jrdma.iba.Guid;
import org.junit.jupiter.api.Test;

/**
 * python-rdma's TARGET arguments ({@link PathTarget}) as {@code rdma.path.from_string} and
 * {@code LibIBOpts} read them, without a fabric: each form, what {@code -D}, {@code -G} and
 * {@code -L} make of a bare number, and python-rdma's message for what they refuse.
 */
class PathTargetTest {
    private static final Guid NODE01_PORT = new Guid(0x0002c90300001011L);

    @Test
    void everyFormNamesItsEndPort() {
        assertEquals(12, PathTarget.parse("12", PathTarget.Kind.ANY, 1).lid());
        assertEquals(12, PathTarget.parse("0xc", PathTarget.Kind.LID, 1).lid());
        assertEquals(2, PathTarget.parse("IBPath(DLID=2,SL=1)", PathTarget.Kind.ANY, 1).lid());
        assertArrayEquals(new int[] {1, 7}, PathTarget.parse("0,1,7", PathTarget.Kind.ANY, 1).route());
        assertArrayEquals(new int[0], PathTarget.parse("0,", PathTarget.Kind.ANY, 1).route());
        assertEquals(NODE01_PORT, PathTarget.parse("0002:c903:0000:1011", PathTarget.Kind.ANY, 1).portGuid());
        assertEquals(NODE01_PORT, PathTarget.parse("fe80::2:c903:0:1011", PathTarget.Kind.ANY, 1).portGuid());
        PathTarget gid = PathTarget.parse("fe80::2:c903:0:1011", PathTarget.Kind.GUID, 1);
        assertNull(gid.route());
        assertEquals(0, gid.lid());
    }

    @Test
    void addressOptionsReadBareNumbersAsPythonRdmaDoes() {
        assertArrayEquals(new int[0], PathTarget.parse("0", PathTarget.Kind.ROUTE, 1).route(), "-D 0 is the route 0,");
        assertEquals(NODE01_PORT, PathTarget.parse("0002c90300001011", PathTarget.Kind.GUID, 1).portGuid());
        assertEquals(NODE01_PORT, PathTarget.parse("0x0002c90300001011", PathTarget.Kind.GUID, 1).portGuid());
    }

    @Test
    void refusalsArePythonRdmasMessages() {
        assertEquals("Invalid command line argument #2 'IBPath(DLID=12)' - Not a directed route",
                assertThrows(CmdError.class, () -> PathTarget.parse("IBPath(DLID=12)", PathTarget.Kind.ROUTE, 2)).getMessage());
        assertEquals("Invalid command line argument #1 '12' - Invalid path \"12,\": a directed route starts with 0, the local node",
                assertThrows(CmdError.class, () -> PathTarget.parse("12", PathTarget.Kind.ROUTE, 1)).getMessage(), "-D 12 is the route 12,");
        assertEquals("Invalid command line argument #1 '0,1' - Not a GUID",
                assertThrows(CmdError.class, () -> PathTarget.parse("0,1", PathTarget.Kind.GUID, 1)).getMessage());
        assertEquals("Invalid command line argument #1 'fe80::1' - Not a LID",
                assertThrows(CmdError.class, () -> PathTarget.parse("fe80::1", PathTarget.Kind.LID, 1)).getMessage());
        String bad = assertThrows(CmdError.class, () -> PathTarget.parse("nonsense", PathTarget.Kind.ANY, 1)).getMessage();
        assertEquals("Invalid command line argument #1 'nonsense' - ", bad.substring(0, bad.indexOf(" - ") + 3));
    }
}
