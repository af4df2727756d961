package org.jrdma.vtools;

import com.code_intelligence.jazzer.junit.FuzzTest;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.net.ProtocolException;
import java.util.List;
import org.jrdma.devices.EndPort;
import org.jrdma.iba.Gid;
import org.jrdma.iba.PhysPortState;
import org.jrdma.iba.PortState;

/**
 * Coverage-guided fuzz target (Jazzer) for the no-CM exchange's wire format: a length-prefixed
 * path specification read from the peer's socket ({@link NoCmExchange#receivePath}). The only
 * exceptions allowed out are {@link ProtocolException} and {@link java.io.EOFException}.
 */
class NoCmFuzzTest {
    private static final EndPort PORT = EndPort.builder("mlx4_0", 1).lid(0x10).smLid(1).state(PortState.ACTIVE)
            .physState(PhysPortState.LINK_UP).gids(List.of(Gid.parse("fe80::2:c903:0:1491"))).pkeys(0xFFFF).build();

    @FuzzTest(maxDuration = "10s")
    void receivedPath(byte[] stream) throws IOException {
        try {
            NoCmExchange.receivePath(new ByteArrayInputStream(stream), PORT);
        } catch (ProtocolException | java.io.EOFException expected) {
            // the documented refusals
        }
    }
}
