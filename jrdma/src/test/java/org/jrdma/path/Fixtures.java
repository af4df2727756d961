package org.jrdma.path;

import java.util.List;
import org.jrdma.devices.EndPort;
import org.jrdma.devices.LinkLayer;
import org.jrdma.devices.RdmaDevice;
import org.jrdma.iba.Gid;
import org.jrdma.iba.PhysPortState;
import org.jrdma.iba.PortState;

/** End ports and devices the path tests run against, built from plain values. */
final class Fixtures {
    static final Gid GID_1 = Gid.parse("fe80::2:c903:0:1491");
    static final Gid SITE_GID_1 = Gid.parse("fec0::2:c903:0:1491");
    static final Gid GID_2 = Gid.parse("fe80::2:c903:0:1492");

    /** mlx4_0/1: IB, active, base LID 0x10 with LMC 2, subnet timeout 16. */
    static final EndPort PORT_1 = EndPort.builder("mlx4_0", 1).lid(0x10).lmc(2).smLid(1).smSl(3)
            .state(PortState.ACTIVE).physState(PhysPortState.LINK_UP).gids(List.of(GID_1, SITE_GID_1))
            .pkeys(0xFFFF, 0x8001, 0x7FFF).subnetTimeout(16).build();
    /** mlx4_0/2: IB, active, LID 0x20, only the limited default P_Key. */
    static final EndPort PORT_2 = EndPort.builder("mlx4_0", 2).lid(0x20).smLid(1).state(PortState.ACTIVE)
            .physState(PhysPortState.LINK_UP).gids(List.of(GID_2)).pkeys(0x7FFF).build();
    /** rxe0/1: RoCE. */
    static final EndPort ROCE = EndPort.builder("rxe0", 1).state(PortState.ACTIVE).physState(PhysPortState.LINK_UP)
            .linkLayer(LinkLayer.ETHERNET).gids(List.of(Gid.parse("fe80::5054:ff:fe12:3456"),
                    Gid.parse("::ffff:10.0.0.1"))).pkeys(0xFFFF).build();

    static final RdmaDevice MLX = RdmaDevice.builder("mlx4_0").endPort(PORT_1).endPort(PORT_2).build();
    static final RdmaDevice RXE = RdmaDevice.builder("rxe0").endPort(ROCE).build();
    static final List<RdmaDevice> DEVICES = List.of(MLX, RXE);
    static final PathParser PARSER = PathParser.of(DEVICES);

    private Fixtures() {
    }
}
