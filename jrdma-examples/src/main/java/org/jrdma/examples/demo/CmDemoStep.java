package org.jrdma.examples.demo;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import org.jrdma.cm.CmEvent;
import org.jrdma.cm.CmEventType;
import org.jrdma.cm.ConnParam;
import org.jrdma.cm.EventChannel;
import org.jrdma.cm.PortSpace;
import org.jrdma.cm.RdmaCmId;
import org.jrdma.testkit.vm.SoftRoceVm;
import org.jrdma.testkit.vm.VmResult;
import org.jrdma.verbs.Access;
import org.jrdma.verbs.Context;
import org.jrdma.verbs.Cq;
import org.jrdma.verbs.Mr;
import org.jrdma.verbs.Pd;
import org.jrdma.verbs.Qp;
import org.jrdma.verbs.QpCap;
import org.jrdma.verbs.QpInitAttr;
import org.jrdma.verbs.QpType;
import org.jrdma.verbs.RecvWr;
import org.jrdma.verbs.SendFlags;
import org.jrdma.verbs.SendWr;
import org.jrdma.verbs.WcBuffer;
import org.jrdma.verbs.WcOpcode;
import org.jrdma.verbs.WrOpcode;

/**
 * The demo's connection manager step: in the soft-RoCE VM (with {@code rdma_ucm} loaded), C
 * {@code rping -s} serves and this class's {@link #main} is a Java rping client over
 * {@code org.jrdma.cm}: it resolves the server's IP address and route, makes its queue pair with
 * {@code rdma_create_qp}, connects, and runs rping's protocol (the server RDMA-reads the client's
 * buffer and RDMA-writes it back), checking each ping's data.
 */
public final class CmDemoStep {
    private static final String HOST = "10.0.0.1";
    private static final int PORT = 7174;
    private static final int SIZE = 64;
    private static final int INFO = 16;
    private static final int COUNT = 3;
    private static final Duration WAIT = Duration.ofSeconds(20);
    private static final ValueLayout.OfLong BE_LONG = ValueLayout.JAVA_LONG_UNALIGNED.withOrder(ByteOrder.BIG_ENDIAN);
    private static final ValueLayout.OfInt BE_INT = ValueLayout.JAVA_INT_UNALIGNED.withOrder(ByteOrder.BIG_ENDIAN);

    private final WcBuffer wcs = new WcBuffer(1);

    private CmDemoStep() {
    }

    /** Boots the VM and runs C {@code rping -s} against the Java client; prints both sides' output. */
    static void run() {
        System.out.println();
        String title = "Connections over rdma_cm: Java rping client against C rping -s";
        System.out.println("=== " + title + " " + "=".repeat(Math.max(0, 96 - title.length())));
        if (!SoftRoceVm.isAvailable()) {
            System.out.println("skipped: " + SoftRoceVm.unavailabilityCause());
            return;
        }
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        String classPath = "'" + System.getProperty("java.class.path") + "'";
        String args = "-v -a " + HOST + " -p " + PORT + " -S " + SIZE + " -C " + COUNT;
        VmResult result = SoftRoceVm.builder().module("rdma_ucm").build().run(String.join("\n",
                "echo '$ rping -s " + args + " &'",
                "rping -s " + args + " >/tmp/rping-s.out 2>&1 &",
                "echo '$ java " + CmDemoStep.class.getSimpleName() + " " + HOST + " " + PORT + "'",
                java + " --enable-native-access=ALL-UNNAMED -cp " + classPath + " " + CmDemoStep.class.getName()
                        + " " + HOST + " " + PORT,
                "status=$?",
                "wait",
                "echo '(rping -s said; it stops at the client's disconnect, state 10 being DISCONNECTED:)'",
                "cat /tmp/rping-s.out",
                "exit $status"), Duration.ofMinutes(5));
        System.out.print(result.output());
        System.out.printf("(VM run took %d ms, exit status %d)%n", result.elapsed().toMillis(), result.exitCode());
    }

    /** The Java rping client: arguments server address and port. */
    public static void main(String[] args) throws Exception {
        InetSocketAddress server = new InetSocketAddress(InetAddress.getByName(args[0]), Integer.parseInt(args[1]));
        new CmDemoStep().ping(server);
    }

    private void ping(InetSocketAddress server) throws InterruptedException {
        try (EventChannel channel = EventChannel.create(); Arena arena = Arena.ofShared()) {
            long deadline = System.nanoTime() + WAIT.toNanos();
            while (true) {
                RdmaCmId id = channel.createId(PortSpace.TCP);
                id.resolveAddr(null, server, WAIT);
                print(channel.expect(CmEventType.ADDR_RESOLVED, WAIT));
                id.resolveRoute(WAIT);
                print(channel.expect(CmEventType.ROUTE_RESOLVED, WAIT));
                Context ctx = id.context();
                try (Pd pd = ctx.pd(); Cq cq = ctx.cq(16)) {
                    Qp qp = id.createQp(pd, new QpInitAttr(QpType.RC, cq, cq).cap(new QpCap(4, 4, 1, 1, 0)));
                    Mr mr = pd.mr(arena.allocate(4 * SIZE, 4096), Access.LOCAL_WRITE | Access.REMOTE_READ | Access.REMOTE_WRITE);
                    System.out.printf("%s port %d, QP 0x%06x made by rdma_create_qp on jrdma's PD and CQ%n",
                            ctx.deviceName(), id.portNum(), qp.qpNum());
                    qp.postRecv(new RecvWr().wrId(1).sge(mr.sge(3 * SIZE, INFO)));
                    id.connect(new ConnParam().responderResources(1).initiatorDepth(1).retryCount(7).rnrRetryCount(7));
                    CmEvent event = channel.getEvent(WAIT);
                    print(event);
                    if (event != null && event.type() == CmEventType.ESTABLISHED) {
                        pings(qp, cq, mr);
                        id.disconnect();
                        print(channel.expect(CmEventType.DISCONNECTED, WAIT));
                        id.close();
                        return;
                    }
                    id.close();
                }
                if (System.nanoTime() > deadline) {
                    throw new IllegalStateException("rping -s did not accept in " + WAIT);
                }
                Thread.sleep(300);
            }
        }
    }

    private static void print(CmEvent event) {
        System.out.println(event == null ? "no event" : event.type().text() + (event.status() != 0 ? " status " + event.status() : ""));
    }

    /** rping's client loop: advertise the source buffer, wait; advertise the sink, wait; compare. */
    private void pings(Qp qp, Cq cq, Mr mr) {
        MemorySegment start = mr.memory().asSlice(0, SIZE);
        MemorySegment sink = mr.memory().asSlice(SIZE, SIZE);
        for (int ping = 0; ping < COUNT; ping++) {
            fill(start, ping);
            advertise(qp, cq, mr, mr.addr());
            advertise(qp, cq, mr, mr.addr() + SIZE);
            String sent = start.getString(0, StandardCharsets.US_ASCII);
            String back = sink.getString(0, StandardCharsets.US_ASCII);
            if (!sent.equals(back)) {
                throw new IllegalStateException("data mismatch: sent " + sent + ", got back " + back);
            }
            System.out.println("ping data: " + back);
        }
    }

    /** Sends an {@code rping_rdma_info} for the buffer at {@code addr}, then waits for the server's go-ahead. */
    private void advertise(Qp qp, Cq cq, Mr mr, long addr) {
        MemorySegment info = mr.memory().asSlice(2 * SIZE, INFO);
        info.set(BE_LONG, 0, addr);
        info.set(BE_INT, 8, mr.rkey());
        info.set(BE_INT, 12, SIZE);
        qp.postSend(new SendWr().wrId(2).opcode(WrOpcode.SEND).sge(mr.sge(2 * SIZE, INFO)).flags(SendFlags.SIGNALED));
        await(cq, WcOpcode.SEND);
        await(cq, WcOpcode.RECV);
        qp.postRecv(new RecvWr().wrId(1).sge(mr.sge(3 * SIZE, INFO)));
    }

    private void await(Cq cq, WcOpcode opcode) {
        long deadline = System.nanoTime() + WAIT.toNanos();
        while (cq.poll(wcs) == 0) {
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException("no " + opcode + " completion in " + WAIT);
            }
            Thread.onSpinWait();
        }
        wcs.check(0);
        if (wcs.opcode(0) != opcode) {
            throw new IllegalStateException("expected a " + opcode + " completion, got " + wcs.opcode(0));
        }
    }

    /** rping's data: {@code "rdma-ping-N: "}, then letters from 'A' + N wrapping after 'z', NUL-terminated. */
    private static void fill(MemorySegment buffer, int ping) {
        byte[] text = ("rdma-ping-" + ping + ": ").getBytes(StandardCharsets.US_ASCII);
        int c = 'A' + ping;
        for (int i = 0; i < buffer.byteSize(); i++) {
            if (i < text.length) {
                buffer.set(ValueLayout.JAVA_BYTE, i, text[i]);
            } else {
                buffer.set(ValueLayout.JAVA_BYTE, i, (byte) c);
                c = c == 'z' ? 'A' : c + 1;
            }
        }
        buffer.set(ValueLayout.JAVA_BYTE, buffer.byteSize() - 1, (byte) 0);
    }
}
