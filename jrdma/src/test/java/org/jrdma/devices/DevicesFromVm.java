package org.jrdma.devices;

import java.util.List;
import org.jrdma.Rdma;
import org.jrdma.iba.Gid;
import org.jrdma.path.IBPath;
import org.jrdma.path.Path;

/**
 * A Java main run inside the soft-RoCE VM by {@link SoftRoceDevicesTest}: prints, one
 * {@code key=value} per line, what {@link Rdma} sees there, for the test to compare with
 * {@code ibv_devinfo}.
 */
public final class DevicesFromVm {
    private DevicesFromVm() {
    }

    /**
     * Prints every device, port, non-empty GID and P_Key, then the end ports the selectors give.
     *
     * @param args unused
     */
    public static void main(String[] args) {
        List<RdmaDevice> devices = Rdma.getDevices();
        for (RdmaDevice device : devices) {
            System.out.println("device=" + device.name());
            System.out.println(device.name() + ".nodeType=" + device.nodeType().map(Enum::name).orElse("none"));
            System.out.println(device.name() + ".nodeGuid=" + device.nodeGuid());
            System.out.println(device.name() + ".sysImageGuid=" + device.sysImageGuid());
            System.out.println(device.name() + ".nodeDescription=" + device.nodeDescription());
            System.out.println(device.name() + ".fwVersion=" + device.fwVersion().orElse(""));
            for (EndPort port : device.endPorts()) {
                String p = port.toString();
                System.out.println("port=" + p);
                System.out.println(p + ".state=" + port.state().value());
                System.out.println(p + ".physState=" + port.physState().value());
                System.out.println(p + ".lid=" + port.lid());
                System.out.println(p + ".lmc=" + port.lmc());
                System.out.println(p + ".smLid=" + port.smLid());
                System.out.println(p + ".smSl=" + port.smSl());
                System.out.println(p + ".capabilityMask=" + Integer.toHexString(port.capabilityMask()));
                System.out.println(p + ".linkLayer=" + port.linkLayer().text());
                System.out.println(p + ".rate=" + port.rate().map(r -> Double.toString(r.gbps())).orElse("none"));
                System.out.println(p + ".gidCount=" + port.gids().size());
                System.out.println(p + ".pkeyCount=" + port.pkeys().size());
                System.out.println(p + ".umad=" + port.umadPath().map(Object::toString).orElse("none"));
                System.out.println(p + ".issm=" + port.issmPath().map(Object::toString).orElse("none"));
                for (int i = 0; i < port.gids().size(); i++) {
                    Gid gid = port.gids().get(i);
                    if (gid.prefix() != 0 || gid.interfaceId() != 0) {
                        System.out.println(p + ".gid." + i + "=" + gid);
                    }
                }
                for (int i = 0; i < port.pkeys().size(); i++) {
                    System.out.println(p + ".pkey." + i + "=" + Integer.toHexString(port.pkeys().get(i)));
                }
            }
        }
        EndPort chosen = Rdma.getEndPort();
        System.out.println("default=" + chosen);
        System.out.println("byDevice=" + Rdma.getEndPort(chosen.deviceName()));
        System.out.println("byPort=" + Rdma.getEndPort(chosen.toString()));
        System.out.println("byGuid=" + Rdma.getEndPort(chosen.portGuid().toString()));
        System.out.println("byGid=" + Rdma.getEndPort(chosen.defaultGid().toString()));
        System.out.println("deviceByName=" + Rdma.getDevice(chosen.deviceName()).name());
        IBPath scoped = Path.fromString("fe80::1%" + chosen.deviceName());
        System.out.println("scopedPath=" + scoped);
        IBPath local = IBPath.builder(chosen).hasGrh(true).sgidIndex(0).dgid(chosen.defaultGid()).build();
        System.out.println("localPath.complete=" + local.complete() + " pkeyIndex=" + local.pkeyIndex()
                + " sgidIndex=" + local.sgidIndex());
    }
}
