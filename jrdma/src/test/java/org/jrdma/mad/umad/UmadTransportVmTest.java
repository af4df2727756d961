package org.jrdma.mad.umad;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.List;
import java.util.stream.Stream;
import org.jrdma.iba.Gid;
import org.jrdma.testkit.junit.Peers;
import org.jrdma.testkit.vm.SoftRoceVm;
import org.jrdma.testkit.vm.VmResult;
import org.junit.jupiter.api.Test;

/**
 * {@link UmadTransport} against the real kernel: boots the soft-RoCE VM once and runs
 * {@link UmadLoopbackMain} there on {@code rxe0} port 1, then checks that every expected check
 * printed PASS and none FAIL.
 */
class UmadTransportVmTest {
    /** The checks {@link UmadLoopbackMain} makes, by the start of their PASS lines. */
    private static final List<String> EXPECTED = List.of(
            "PASS sysfs lookup of rxe0/1",
            "PASS 16 parallel vendor-class Get requests answered with matching TID and payload",
            "PASS RMPP GetTableResp reassembled by the kernel: 1056 bytes",
            "PASS Get to unserved class 0x0a: the kernel answers GetResp status 0xc",
            "PASS GetTable to unserved class 0x0a timed out",
            "PASS the responder served",
            "PASS kernel response timeout 300 ms, engine 20 s: ETIMEDOUT ends each attempt as dropped",
            "PASS kernel response timeout 3 s, engine 400 ms x 4: resends while the kernel waits are not refused",
            "PASS the kernel refuses a second request with the same TID",
            "PASS Rdma.getGmpMad: a transactor on the port's umad device",
            "PASS transactor over umad: VendGet answered by a transactor's sendReply",
            "PASS transactor over umad: SubnAdmGetTable replies segmented and reassembled by the kernel: [1 of 1, 3 of 3, 40 of 40]",
            "PASS transactor over umad: async VendGet completed",
            "PASS umad_agent_id: a request goes through the path's agent",
            "PASS umad_agent_id: an agent the transport did not register is refused",
            "PASS Rdma.getGmpMad: closing the transactor closed its engine",
            "PASS Rdma.getUmad: the device opens again after close",
            "DONE all passed");

    @Test
    void madsGoThroughTheKernelOnSoftRoce() {
        Peers.require(SoftRoceVm.isAvailable(), SoftRoceVm.unavailabilityCause());
        VmResult result = SoftRoceVm.create().runJava(Duration.ofMinutes(6), UmadLoopbackMain.class,
                List.of(UmadTransport.class, Gid.class), "rxe0", "1");
        System.out.println(result.output());
        List<String> lines = result.output().lines().toList();
        List<String> failed = lines.stream().filter(l -> l.startsWith("FAIL")).toList();
        assertEquals(List.of(), failed, result.output());
        for (String expected : EXPECTED) {
            assertTrue(lines.stream().anyMatch(l -> l.startsWith(expected)), "missing \"" + expected + "\" in:\n" + result.output());
        }
        assertEquals(0, result.exitCode(), result.output());
        assertEquals(EXPECTED.size(), Stream.of("PASS", "DONE").mapToLong(p -> lines.stream().filter(l -> l.startsWith(p)).count()).sum(),
                result.output());
    }
}
