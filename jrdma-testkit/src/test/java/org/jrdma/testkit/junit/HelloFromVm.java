package org.jrdma.testkit.junit;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * A Java main run inside the soft-RoCE VM by {@link SoftRoceVmTest}: prints facts only the VM
 * knows (the kernel release, this process id) and a value it computes.
 */
public final class HelloFromVm {
    private HelloFromVm() {
    }

    /**
     * Prints {@code kernel=}, {@code pid=}, {@code java=} and {@code sum=} lines, then exits with
     * the status given as first argument (0 without), so that callers can see it come back.
     *
     * @param args optionally the exit status
     * @throws IOException if /proc cannot be read
     */
    public static void main(String[] args) throws IOException {
        System.out.println("kernel=" + Files.readString(Path.of("/proc/sys/kernel/osrelease")).strip());
        System.out.println("pid=" + ProcessHandle.current().pid());
        System.out.println("java=" + Runtime.version().feature());
        long sum = 0;
        for (int i = 1; i <= 1000; i++) {
            sum += (long) i * i;
        }
        System.out.println("sum=" + sum);
        System.exit(args.length > 0 ? Integer.parseInt(args[0]) : 0);
    }
}
