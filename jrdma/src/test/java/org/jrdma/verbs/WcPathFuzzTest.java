package org.jrdma.verbs;

import com.code_intelligence.jazzer.junit.FuzzTest;
import java.lang.foreign.MemorySegment;
import java.util.List;
import org.jrdma.devices.EndPort;
import org.jrdma.devices.LinkLayer;
import org.jrdma.iba.Gid;
import org.jrdma.iba.PhysPortState;
import org.jrdma.iba.PortState;
import org.jrdma.path.IBPath;

/**
 * Coverage-guided fuzz target (Jazzer) for {@link WcPath}'s GRH parsing: any 40 bytes as the GRH
 * area of a UD receive. The only exception allowed out is {@link IllegalArgumentException}.
 */
class WcPathFuzzTest {
    private static final EndPort ROCE = EndPort.builder("rxe0", 1).state(PortState.ACTIVE)
            .physState(PhysPortState.LINK_UP).linkLayer(LinkLayer.ETHERNET)
            .gids(List.of(Gid.parse("fe80::5054:ff:fe65:4321"))).pkeys(0xFFFF).build();

    @FuzzTest(maxDuration = "10s")
    void grh(byte[] area) {
        if (area.length < WcPath.GRH_BYTES) {
            return;
        }
        IBPath.Builder<? extends IBPath> b = IBPath.builder(ROCE);
        try {
            WcPath.grh(b, MemorySegment.ofArray(area), area.length - WcPath.GRH_BYTES);
        } catch (IllegalArgumentException expected) {
            return;
        }
        b.build();
    }
}
