package org.jrdma.vtools;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.ProtocolException;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.jrdma.devices.EndPort;
import org.jrdma.devices.LinkLayer;
import org.jrdma.iba.Gid;
import org.jrdma.iba.Mtu;
import org.jrdma.iba.PhysPortState;
import org.jrdma.iba.PortState;
import org.jrdma.path.IBPath;
import org.junit.jupiter.api.Test;

/**
 * The wire format of the no-CM exchange: paths cross a real loopback TCP socket as bounded,
 * length-prefixed specification text and come back equal, and what is not such a message is
 * refused before it is parsed. The whole exchange, with {@code establish}, runs in the
 * soft-RoCE VM ({@code VtoolsInVm}).
 */
class NoCmExchangeTest {
    private static final EndPort LOCAL = EndPort.builder("rxe0", 1).state(PortState.ACTIVE)
            .physState(PhysPortState.LINK_UP).linkLayer(LinkLayer.ETHERNET)
            .gids(List.of(Gid.parse("fe80::5054:ff:fe12:3456"))).pkeys(0xFFFF).build();
    private static final EndPort REMOTE = EndPort.builder("mlx5_3", 2).state(PortState.ACTIVE)
            .physState(PhysPortState.LINK_UP).gids(List.of(Gid.parse("fe80::1"))).pkeys(0xFFFF, 0x8001).build();

    @Test
    void aPathCrossesASocketAndComesBackEqualOnTheLocalEndPort() throws Exception {
        IBPath sent = IBPath.builder(REMOTE).hasGrh(true).sgid(Gid.parse("fe80::1")).dgid(Gid.parse("fe80::2"))
                .hopLimit(64).trafficClass(3).flowLabel(0x12345).dlid(9).slid(4).sl(2).pkey(0x8001)
                .qkey(0x80010000).mtu(Mtu.MTU_4096).dqpn(0x11).sqpn(0xFFFFFF).sqpsn(0xABCDEF).dqpsn(1)
                .srdatomic(16).drdatomic(8).retries(7).minRnrTimer(12).packetLifeTime(17).dackRespTime(15)
                .sackRespTime(14).build();
        try (ServerSocket server = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            CompletableFuture<IBPath> received = CompletableFuture.supplyAsync(() -> {
                try (Socket socket = server.accept()) {
                    return NoCmExchange.receivePath(socket.getInputStream(), LOCAL);
                } catch (IOException e) {
                    throw new RuntimeException(e);
                }
            });
            try (Socket socket = new Socket(server.getInetAddress(), server.getLocalPort())) {
                NoCmExchange.sendPath(socket.getOutputStream(), sent);
                assertEquals(sent.copy(b -> b.endPort(LOCAL)), received.get());
            }
        }
    }

    @Test
    void theTextHasNoEndPort() throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        NoCmExchange.sendPath(out, IBPath.builder(REMOTE).dlid(3).build());
        byte[] bytes = out.toByteArray();
        String text = new String(bytes, 4, bytes.length - 4, StandardCharsets.US_ASCII);
        assertEquals(bytes.length - 4, ByteBuffer.wrap(bytes).getInt());
        assertEquals("IBPath(end_port=None, DLID=3)", text);
    }

    @Test
    void refusesLengthsOverTheBoundBeforeReadingThem() {
        ProtocolException e = assertThrows(ProtocolException.class,
                () -> NoCmExchange.receiveMessage(message(ByteBuffer.allocate(4).putInt(1 << 30).array())));
        assertTrue(e.getMessage().contains("1073741824 bytes; at most 4096"), e.getMessage());
        assertThrows(ProtocolException.class,
                () -> NoCmExchange.receiveMessage(message(ByteBuffer.allocate(4).putInt(-1).array())));
        assertThrows(ProtocolException.class, () -> NoCmExchange.receiveMessage(
                message(frame(new byte[NoCmExchange.MAX_MESSAGE + 1]))));
    }

    @Test
    void refusesBytesThatAreNotPrintableAscii() {
        byte[] text = "IBPath(DLID=3)".getBytes(StandardCharsets.US_ASCII);
        text[3] = (byte) 0xC3;
        assertThrows(ProtocolException.class, () -> NoCmExchange.receiveMessage(message(frame(text))));
        assertThrows(ProtocolException.class, () -> NoCmExchange.receiveMessage(message(frame("a\nb".getBytes()))));
    }

    @Test
    void refusesWhatIsNotAPathSpecificationOfAnIbPathWithoutEndPort() {
        for (String text : List.of("rm -rf /", "IBPath(DLID=3", "IBPath(DLID=0x10000)", "IBPath(evil=1)",
                "IBDRPath(drPath=0:1:)", "IBPath(end_port='rxe0/1', DLID=3)", "IBPath(DLID=3, DLID=4)")) {
            assertThrows(ProtocolException.class,
                    () -> NoCmExchange.receivePath(message(frame(text.getBytes(StandardCharsets.US_ASCII))), LOCAL),
                    text);
        }
    }

    @Test
    void aShortStreamIsAnEofNotAHang() throws IOException {
        assertThrows(EOFException.class, () -> NoCmExchange.receiveMessage(message(new byte[] {0, 0})));
        byte[] truncated = frame("IBPath(DLID=3)".getBytes(StandardCharsets.US_ASCII));
        assertThrows(EOFException.class,
                () -> NoCmExchange.receiveMessage(message(java.util.Arrays.copyOf(truncated, truncated.length - 1))));
        assertArrayEquals("RTS".getBytes(StandardCharsets.US_ASCII),
                NoCmExchange.receiveMessage(message(frame("RTS".getBytes(StandardCharsets.US_ASCII)))));
    }

    private static byte[] frame(byte[] body) {
        return ByteBuffer.allocate(4 + body.length).putInt(body.length).put(body).array();
    }

    private static InputStream message(byte[] bytes) {
        return new ByteArrayInputStream(bytes);
    }
}
