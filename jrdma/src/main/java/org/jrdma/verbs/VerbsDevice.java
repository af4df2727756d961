package org.jrdma.verbs;

import java.util.Objects;
import org.jrdma.iba.Guid;
import org.jrdma.verbs.ffi.IbvContext;

/**
 * An RDMA device as {@code ibv_get_device_list} lists it: what {@code ibv_devices} prints.
 *
 * @param name     the kernel device name ({@code ibv_get_device_name}), for example {@code rxe0}
 * @param nodeGuid the node GUID ({@code ibv_get_device_guid}; IBA 14.2.5.3 NodeInfo:NodeGUID)
 * @param nodeType {@code ibv_device.node_type}: 1 channel adapter, 2 switch, 3 router, 4 RNIC
 */
public record VerbsDevice(String name, Guid nodeGuid, int nodeType) {
    /** Checks that no component is null. */
    public VerbsDevice {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(nodeGuid, "nodeGuid");
    }

    /** An entry of libibverbs' device list. */
    static VerbsDevice of(IbvContext.Device raw) {
        return new VerbsDevice(raw.name(), raw.nodeGuid(), raw.nodeType());
    }
}
