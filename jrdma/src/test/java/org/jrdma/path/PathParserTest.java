package org.jrdma.path;

import org.jrdma.iba.UntrustedText;
import static org.jrdma.path.Fixtures.GID_1;
import static org.jrdma.path.Fixtures.GID_2;
import static org.jrdma.path.Fixtures.MLX;
import static org.jrdma.path.Fixtures.PARSER;
import static org.jrdma.path.Fixtures.PORT_1;
import static org.jrdma.path.Fixtures.PORT_2;
import static org.jrdma.path.Fixtures.ROCE;
import static org.jrdma.path.Fixtures.RXE;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;
import org.jrdma.iba.Gid;
import org.jrdma.iba.Iba;
import org.jrdma.iba.Mtu;
import org.jrdma.iba.StaticRate;
import org.junit.jupiter.api.Test;

/** {@link PathParser}: every form of the seed's from_string table, and the path specification. */
class PathParserTest {
    private static final PathParser WITH_DEFAULT = PARSER.withDefaultEndPort(PORT_2);

    private static void assertInvalid(String text, String message) {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> PARSER.fromString(text), text);
        assertEquals(message, e.getMessage());
    }

    private static void assertInvalidSpec(String text, String detail) {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> PARSER.fromSpecString(text), text);
        assertTrue(e.getMessage().startsWith("Invalid path specification "), e.getMessage());
        assertTrue(e.getMessage().contains(detail), "expected [" + detail + "] in: " + e.getMessage());
    }

    @Test
    void portGid() {
        IBPath path = WITH_DEFAULT.fromString("fe80::2:c903:0:1491");
        assertEquals(IBPath.builder(PORT_2).dgid(GID_1).build(), path);
        assertEquals(Optional.empty(), PARSER.fromString("fe80::2:c903:0:1491").endPort());
    }

    @Test
    void scopedGidTakesTheEndPortOfItsScope() {
        assertEquals(IBPath.builder(PORT_1).dgid(GID_2).build(), WITH_DEFAULT.fromString("fe80::2:c903:0:1492%mlx4_0/1"));
        assertEquals(Optional.of(PORT_1), PARSER.fromString("fe80::1%mlx4_0").endPort(), "a device: its default port");
        assertEquals(Optional.of(ROCE), PARSER.fromString("fe80::1%" + ROCE.defaultGid()).endPort(), "any selector");
        assertInvalid("fe80::1%mlx5_0", "Invalid path \"fe80::1%mlx5_0\": could not find end port \"mlx5_0\": "
                + "No RDMA device named \"mlx5_0\"; present: mlx4_0/1, mlx4_0/2, rxe0/1");
        assertInvalid("fe80::1%mlx4_0/9", "Invalid path \"fe80::1%mlx4_0/9\": could not find end port \"mlx4_0/9\": "
                + "RDMA device mlx4_0 has no port 9; present: mlx4_0/1, mlx4_0/2, rxe0/1");
        assertInvalid("fe80::1%mlx4_0/x", "Invalid path \"fe80::1%mlx4_0/x\": could not find end port \"mlx4_0/x\": "
                + "Invalid end port selector \"mlx4_0/x\": the part after '/' must be a port number 0 to 254");
        assertInvalid("fe80::g%mlx4_0", "Invalid path \"fe80::g%mlx4_0\": Invalid GID \"fe80::g\": unexpected \"g\" at index 6");
    }

    @Test
    void requiredDeviceAndEndPortRestrictScopes() {
        PathParser onRxe = PARSER.withRequiredDevice(RXE);
        assertEquals(Optional.of(ROCE), onRxe.fromString("fe80::1%rxe0/1").endPort());
        IllegalArgumentException device = assertThrows(IllegalArgumentException.class, () -> onRxe.fromString("fe80::1%mlx4_0/1"));
        assertEquals("Invalid path \"fe80::1%mlx4_0/1\": the path requires device rxe0, got mlx4_0/1", device.getMessage());

        PathParser onPort2 = PARSER.withRequiredEndPort(PORT_2);
        assertEquals(Optional.of(PORT_2), onPort2.fromString("12").endPort(), "the required end port is the default");
        assertEquals(Optional.of(PORT_2), onPort2.fromString("fe80::1%mlx4_0/2").endPort());
        IllegalArgumentException port = assertThrows(IllegalArgumentException.class, () -> onPort2.fromString("fe80::1%mlx4_0/1"));
        assertEquals("Invalid path \"fe80::1%mlx4_0/1\": the path requires end port mlx4_0/2, got mlx4_0/1", port.getMessage());
        assertThrows(IllegalArgumentException.class, () -> onPort2.fromString("IBPath(end_port='mlx4_0/1')"));
        assertEquals(Optional.of(PORT_2), onPort2.fromString("IBPath(end_port='mlx4_0/2', DLID=3)").endPort());
    }

    @Test
    void gidOfAnotherSubnetTakesTheEndPortOnThatSubnet() {
        assertEquals(Optional.of(PORT_1), WITH_DEFAULT.fromString("fec0::99").endPort(), "PORT_1 holds a fec0:: GID");
        assertEquals(Optional.of(PORT_2), WITH_DEFAULT.fromString("fe80::99").endPort(), "link-local: the default");
        assertEquals(Optional.of(PORT_2), WITH_DEFAULT.fromString("2001:db8::1").endPort(), "no port on it: the default");
        assertEquals(Optional.of(PORT_2), PARSER.withRequiredEndPort(PORT_2).fromString("fec0::99").endPort());
        assertEquals(Optional.of(ROCE), PARSER.withRequiredDevice(RXE).fromString("::ffff:10.0.0.9").endPort(),
                "RoCE v2 GIDs share the ::ffff:0:0/96 prefix");
        assertEquals(Optional.empty(), PARSER.withRequiredDevice(MLX).fromString("::ffff:10.0.0.9").endPort());
    }

    @Test
    void portGuid() {
        assertEquals(IBPath.builder(PORT_2).dgid(Gid.parse("fe80::2:c903:0:1491")).build(),
                WITH_DEFAULT.fromString("0002:c903:0000:1491"));
        assertEquals(Gid.parse("fe80::1:2:3:4"), PARSER.fromString("0001:0002:0003:0004").dgid().orElseThrow());
        assertEquals(Gid.parse("1:2:3:4::"), PARSER.fromString("0001:0002:0003:0004::").dgid().orElseThrow(),
                "a GID that starts like a GUID");
    }

    @Test
    void lidInDecimalOrHex() {
        assertEquals(IBPath.builder(PORT_2).dlid(12).build(), WITH_DEFAULT.fromString("12"));
        assertEquals(12, PARSER.fromString("0xc").dlid());
        assertEquals(12, PARSER.fromString("0XC").dlid());
        assertEquals(0xFFFF, PARSER.fromString("65535").dlid());
        assertEquals(0, PARSER.fromString("0").dlid());
        for (String bad : List.of("65536", "0x10000", "012", "", "-1", "+1", "1 ", "twelve", "0x", "١٢")) {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> PARSER.fromString(bad), bad);
            assertTrue(e.getMessage().startsWith("Invalid path " + UntrustedText.quote(bad)
                    + ": not a LID, GID, port GUID, directed route or path specification (Invalid LID"), e.getMessage());
        }
    }

    @Test
    void directedRoute() {
        IBPath path = WITH_DEFAULT.fromString("0,1,");
        IBDRPath dr = assertInstanceOf(IBDRPath.class, path);
        assertArrayEquals(new byte[] {0, 1}, dr.drPath());
        assertEquals(Optional.of(PORT_2), dr.endPort());
        assertArrayEquals(new byte[] {0, 1, 2}, ((IBDRPath) PARSER.fromString("0,1,2")).drPath());
        assertArrayEquals(new byte[] {0}, ((IBDRPath) PARSER.fromString("0,")).drPath());
        String longest = "0," + "1,".repeat(63);
        assertEquals(63, ((IBDRPath) PARSER.fromString(longest)).hopCount());
        assertInvalid(longest + "1", "Invalid path \"" + UntrustedText.quote(longest + "1").substring(1)
                + ": a directed route has at most 64 entries");
        assertInvalid("1,2,", "Invalid path \"1,2,\": a directed route starts with 0, the local node");
        assertInvalid("0,255,", "Invalid path \"0,255,\": directed route entry 1 \"255\" is not a port number 0 to 254");
        assertInvalid("0,,1", "Invalid path \"0,,1\": directed route entry 1 \"\" is not a port number 0 to 254");
        assertInvalid(",", "Invalid path \",\": directed route entry 0 \"\" is not a port number 0 to 254");
        assertInvalid("0, 1", "Invalid path \"0, 1\": directed route entry 1 \" 1\" is not a port number 0 to 254");
        assertInvalid("0,1,,", "Invalid path \"0,1,,\": directed route entry 2 \"\" is not a port number 0 to 254");
    }

    @Test
    void pathSpecificationInFromString() {
        assertEquals(IBPath.builder(PORT_2).dlid(2).sl(2).build(), WITH_DEFAULT.fromString("IBPath(DLID=2,SL=2)"));
        assertEquals(IBPath.builder(PORT_1).dlid(2).build(), WITH_DEFAULT.fromString("IBPath(end_port='mlx4_0/1', DLID=2)"));
        assertEquals(IBPath.builder(PORT_2).build(), WITH_DEFAULT.fromString("IBPath(end_port=None)"));
    }

    @Test
    void unknownTextSaysWhatIsAccepted() {
        assertInvalid("hello", "Invalid path \"hello\": not a LID, GID, port GUID, directed route or path specification "
                + "(Invalid LID \"hello\": character \"h\" at index 0 is not a decimal digit)");
        assertInvalid("fe80:::1", "Invalid path \"fe80:::1\": Invalid GID \"fe80:::1\": unexpected \":\" at index 6");
        String huge = "1".repeat(Path.MAX_TEXT_LENGTH + 1);
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> PARSER.fromString(huge));
        assertTrue(e.getMessage().endsWith("(65537 chars): longer than 65536 characters"), e.getMessage());
        assertThrows(NullPointerException.class, () -> PARSER.fromString(null));
    }

    @Test
    void specificationInEveryWriting() {
        IBPath expected = IBPath.builder(PORT_1).dlid(2).sl(2).hasGrh(true).sgid(GID_1).build();
        for (String text : List.of(
                "IBPath(end_port='mlx4_0/1', DLID=2, SL=2, has_grh=True, SGID=GID('fe80::2:c903:0:1491'))",
                "IBPath(end_port=\"mlx4_0/1\",DLID=2,SL=2,has_grh=1,SGID=GID(\"fe80::2:c903:0:1491\"))",
                "  IBPath ( end_port = mlx4_0/1 ,\tDLID = 0x2 , SL = 2 , has_grh = True , SGID = 'fe80::2:c903:0:1491' )  ",
                "IBPath(SGID=fe80:0000:0000:0000:0002:c903:0000:1491, has_grh=True, SL=2, DLID=2, end_port='mlx4_0/1')",
                "IBPath(end_port='mlx4_0/1', DLID=2, SL=2, has_grh=True, SGID=GID( 'fe80::2:c903:0:1491' ))")) {
            assertEquals(expected, PARSER.fromSpecString(text), text);
        }
    }

    @Test
    void specificationValues() {
        IBPath path = PARSER.fromSpecString("IBPath(qkey=0x80010000, MKey=0xffffffffffffffff, SMKey=18446744073709551615, "
                + "MTU=5, rate=12, dqpn=None, packet_life_time=0, SGID=None, has_grh=False)");
        assertEquals(OptionalInt.of(Iba.IB_DEFAULT_QP1_QKEY), path.qkey());
        assertEquals(-1L, path.mKey());
        assertEquals(-1L, path.smKey());
        assertEquals(Mtu.MTU_4096, path.mtu());
        assertEquals(StaticRate.RATE_56_GBPS, path.rate());
        assertEquals(OptionalInt.empty(), path.dqpn());
        assertEquals(0, path.packetLifeTime());
        assertEquals(IBPath.builder(null).build(), PARSER.fromSpecString("IBPath()"));
        assertEquals(IBPath.builder(null).build(), PARSER.fromSpecString("IBPath(end_port=None)"));
        assertEquals(OptionalInt.empty(), PARSER.fromSpecString("IBDRPath(dqpn=None)").dqpn(), "None unsets a DR default");
        IBDRPath dr = (IBDRPath) PARSER.fromSpecString("IBDRPath(drPath=0:1:2, drSLID=0xffff, drDLID=5)");
        assertArrayEquals(new byte[] {0, 1, 2}, dr.drPath());
        assertEquals(5, dr.drDlid());
        assertArrayEquals(new byte[] {0, 7}, ((IBDRPath) PARSER.fromSpecString("IBDRPath(drPath='0:7:')")).drPath());
    }

    @Test
    void specificationErrorsNameTheBadPart() {
        assertInvalidSpec("Path(DLID=1)", "unknown path kind \"Path\"; expected IBPath or IBDRPath (at index 0)");
        assertInvalidSpec("LazyIBPath(DLID=1)", "unknown path kind \"LazyIBPath\"");
        assertInvalidSpec("IBPath(foo=1)", "unknown attribute \"foo\" of IBPath (at index 7)");
        assertInvalidSpec("IBPath(drPath=0:)", "unknown attribute \"drPath\" of IBPath");
        assertInvalidSpec("IBPath(pkey_index=0)", "unknown attribute \"pkey_index\"");
        assertInvalidSpec("IBPath(__class__=1)", "unknown attribute \"__class__\"");
        assertInvalidSpec("IBPath(DLID=1, DLID=2)", "DLID is given twice (at index 15)");
        assertInvalidSpec("IBPath(DLID 1)", "expected '=' (at index 12)");
        assertInvalidSpec("IBPath(DLID=)", "expected a value for DLID (at index 12)");
        assertInvalidSpec("IBPath(DLID=1", "expected ',' or ')' after the value of DLID (at index 13)");
        assertInvalidSpec("IBPath(DLID=1,)", "expected an attribute name (at index 14)");
        assertInvalidSpec("IBPath(DLID=1))", "unexpected text after ')' (at index 14)");
        assertInvalidSpec("IBPath DLID=1", "expected '(' (at index 7)");
        assertInvalidSpec("", "expected a path kind, IBPath or IBDRPath (at index 0)");
        assertInvalidSpec("IBPath(end_port='mlx4_0/1)", "unterminated quoted value (at index 16)");
        assertInvalidSpec("IBPath(end_port='a\nb')", "control character in a quoted value (at index 18)");
        assertInvalidSpec("IBPath(DLID=IBPath(DLID=1))", "'(' after \"IBPath\": only GID(...) takes parentheses, nothing nests");
        assertInvalidSpec("IBPath(SGID=GID(GID('::1')))", "expected ')' (at index 19)");
        assertInvalidSpec("IBPath(SGID=GID('::1')", "expected ',' or ')'");
        assertInvalidSpec("IBPath(SGID=GID())", "expected a GID inside GID(...)");
        assertInvalidSpec("IBPath(SGID=GID('::1'x))", "expected ')'");
    }

    @Test
    void specificationNumbersAreRangeChecked() {
        assertInvalidSpec("IBPath(SL=16)", "SL \"16\" is outside 0 to 15 (at index 10)");
        assertInvalidSpec("IBPath(DLID=65536)", "DLID \"65536\" is outside 0 to 65535");
        assertInvalidSpec("IBPath(DLID=99999999999999999999999999)", "DLID \"99999999999999999999999999\" is outside 0 to 65535");
        assertInvalidSpec("IBPath(DLID=0x" + "f".repeat(40) + ")", "is outside 0 to 65535");
        assertInvalidSpec("IBPath(MKey=18446744073709551616)", "MKey \"18446744073709551616\" is outside 0 to 0xffffffffffffffff");
        assertInvalidSpec("IBPath(MKey=0x1ffffffffffffffff)", "is outside 0 to 0xffffffffffffffff");
        assertInvalidSpec("IBPath(qkey=0x100000000)", "qkey \"0x100000000\" is outside 0 to 4294967295");
        assertInvalidSpec("IBPath(DLID=012)", "DLID \"012\" has a leading zero");
        assertInvalidSpec("IBPath(DLID=-1)", "DLID must be a decimal or 0x hex number, not \"-1\"");
        assertInvalidSpec("IBPath(DLID=0x)", "DLID must be a decimal or 0x hex number, not \"0x\"");
        assertInvalidSpec("IBPath(DLID=1.5)", "DLID must be a decimal or 0x hex number, not \"1.5\"");
        assertInvalidSpec("IBPath(DLID='2')", "DLID must be a number, not quoted text \"2\"");
        assertInvalidSpec("IBPath(DLID=None)", "DLID must be a decimal or 0x hex number, not \"None\"");
        assertInvalidSpec("IBPath(MTU=6)", "Unknown encoded MTU 6");
        assertInvalidSpec("IBPath(rate=1)", "Unknown encoded rate 1");
        assertInvalidSpec("IBPath(has_grh=yes)", "has_grh must be True or False, not \"yes\"");
        assertInvalidSpec("IBPath(SGID=GID('fe80::x'))", "Invalid GID \"fe80::x\"");
        assertInvalidSpec("IBDRPath(drPath=1:2:)", "drPath must start with 0, the local node, not 1");
        assertInvalidSpec("IBDRPath(drPath=0:255:)", "drPath entry 1 \"255\" is outside 0 to 254");
        assertInvalidSpec("IBDRPath(drPath=:)", "must hold 1 to 64 port numbers such as 0:1:");
        assertInvalidSpec("IBDRPath(drPath=0" + ":1".repeat(64) + ")", "must hold 1 to 64 port numbers");
        assertInvalidSpec("IBDRPath(drPath=GID('0:1'))", "drPath must be port numbers such as 0:1:, not GID(...)");
        assertInvalidSpec("IBDRPath(has_grh=True)", "has_grh: GID addressing is not possible for DR paths");
    }

    @Test
    void specificationEndPortMustExistAndFitTheRequirements() {
        assertInvalidSpec("IBPath(end_port='mlx5_0/1')", "end_port: could not find \"mlx5_0/1\": No RDMA device named \"mlx5_0\"");
        assertInvalidSpec("IBPath(end_port='mlx4_0/x')", "end_port: could not find \"mlx4_0/x\": Invalid end port selector");
        assertInvalidSpec("IBPath(end_port=GID('::1'))", "end_port must be an end port name such as 'mlx4_0/1'");
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> PARSER.withRequiredDevice(RXE).fromSpecString("IBPath(end_port='mlx4_0/1')"));
        assertEquals("Invalid path \"IBPath(end_port='mlx4_0/1')\": the path requires device rxe0, got mlx4_0/1", e.getMessage());
    }

    @Test
    void hostileSpecificationsFailFast() {
        String deep = "IBPath(DLID=".repeat(20_000) + ")".repeat(20_000);
        String wide = "IBPath(" + "DLID=1,".repeat(9_000) + "SL=1)";
        String bigNumber = "IBPath(DLID=" + "9".repeat(60_000) + ")";
        String megabyte = "IBPath(end_port='" + "x".repeat(1 << 20) + "')";
        for (String text : List.of(deep, wide, bigNumber, megabyte)) {
            long start = System.nanoTime();
            assertThrows(IllegalArgumentException.class, () -> PARSER.fromSpecString(text));
            assertThrows(IllegalArgumentException.class, () -> PARSER.fromString(text));
            long millis = (System.nanoTime() - start) / 1_000_000;
            assertTrue(millis < 1000, "took " + millis + " ms on " + UntrustedText.quote(text));
        }
    }

    @Test
    void staticEntryPointsNeedNoDevicesForPlainDestinations() {
        assertEquals(IBPath.builder(null).dlid(12).build(), Path.fromString("12"));
        assertEquals(IBPath.builder(PORT_1).dlid(12).build(), Path.fromString("0xc", PORT_1));
        assertEquals(IBPath.builder(null).dlid(2).sl(2).build(), Path.fromSpecString("IBPath(DLID=2,SL=2)"));
        assertEquals(IBDRPath.builder(PORT_1).drPath(0, 1).build(), Path.fromString("0,1,", PORT_1));
    }

    @Test
    void quotesInMessagesAreBoundedAndEscaped() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> PARSER.fromSpecString("IBPath(\u0000" + "y".repeat(100) + ")"));
        assertTrue(e.getMessage().startsWith("Invalid path specification \"IBPath(\\u0000yyy"), e.getMessage());
        assertTrue(e.getMessage().contains("... (109 chars)"), e.getMessage());
    }
}
