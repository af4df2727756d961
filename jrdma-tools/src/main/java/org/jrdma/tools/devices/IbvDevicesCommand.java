package org.jrdma.tools.devices;

import java.util.List;
import org.jrdma.SysException;
import org.jrdma.tools.PackageCommand;
import org.jrdma.verbs.Verbs;
import org.jrdma.verbs.VerbsDevice;
import picocli.CommandLine.Command;

/**
 * {@code ibtool ibv_devices}: libibverbs' {@code ibv_devices} (and python-rdma's command of that
 * name), the RDMA devices {@code ibv_get_device_list} finds, each with its node GUID (IBA 14.2.5.3
 * NodeInfo:NodeGUID) as 16 hex digits, under the C program's two heading lines. When libibverbs
 * cannot list devices (no {@code ib_uverbs}: {@code ENOSYS}), it prints the C program's
 * {@code perror} line, {@code Failed to get IB devices list: <strerror>}, on standard error and
 * exits 1 as it does. It reads no options but ibtool's own, as the C program reads none.
 *
 * <p>{@code --json}: {@code [{name, nodeGuid, nodeType}]}, {@code nodeType} libibverbs' (1 channel
 * adapter, 2 switch, 3 router, 4 RNIC).
 */
@Command(name = "ibv_devices", mixinStandardHelpOptions = true, description = "List the RDMA devices available to libibverbs, with their node GUIDs.")
public final class IbvDevicesCommand extends PackageCommand {
    /** The C program's status when libibverbs cannot list devices. */
    private static final int LIST_FAILED = 1;

    @Override
    protected int execute() {
        List<VerbsDevice> devices;
        try {
            devices = Verbs.devices();
        } catch (SysException e) {
            err().println("Failed to get IB devices list: " + e.strerror());
            return LIST_FAILED;
        } catch (UnsupportedOperationException e) {
            err().println("Failed to get IB devices list: " + e.getMessage());
            return LIST_FAILED;
        }
        if (jsonRequested()) {
            return jsonDocument(devices, 0);
        }
        out().printf("    %-16s\t   node GUID%n", "device");
        out().printf("    %-16s\t----------------%n", "------");
        for (VerbsDevice device : devices) {
            out().printf("    %-16s\t%016x%n", device.name(), device.nodeGuid().value());
        }
        return 0;
    }
}
