package org.jrdma.endpoint;

import static org.jrdma.endpoint.EndpointInVm.MESSAGES;
import static org.jrdma.endpoint.EndpointInVm.WAIT;
import static org.jrdma.testkit.vm.VmChecks.equal;
import static org.jrdma.testkit.vm.VmChecks.require;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.net.InetSocketAddress;
import java.nio.channels.ClosedChannelException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

/**
 * {@link EndpointInVm}'s checks of the buffers an endpoint lends ({@link SendBuffer},
 * {@link ReceivedMessage}): messages written where they are sent from and read where they
 * arrived, the misuses refused, flow control while the receiver holds buffers, and no
 * allocation per message.
 */
final class LentBufferChecks {
    private final EndpointInVm vm;

    LentBufferChecks(EndpointInVm vm) {
        this.vm = vm;
    }

    /** 100 messages of 1 to 100 bytes, each written into a claimed send buffer and read where it arrived, in order. */
    void inOrder() throws Exception {
        vm.connected((at, client, peer, threads, arena) -> {
            for (int i = 1; i <= MESSAGES; i++) {
                SendBuffer out = client.claimSendBuffer();
                out.memory().asSlice(0, i).fill((byte) i);
                client.send(out, i);
                ReceivedMessage in = peer.receiveInPlace();
                equal(i, in.length(), "length of message " + i);
                for (int b = 0; b < i; b++) {
                    equal((byte) i, in.memory().get(ValueLayout.JAVA_BYTE, b), "byte " + b + " of message " + i);
                }
                peer.release(in);
            }
        });
    }

    /** A buffer sent or released twice, or handed to another endpoint, and a message too long, are refused. */
    void misuse() throws Exception {
        vm.connected((at, client, peer, threads, arena) -> {
            SendBuffer sent = client.claimSendBuffer();
            client.send(sent, 1);
            refused(() -> client.send(sent, 1), "sent twice", "is not lent");
            refused(() -> peer.send(sent, 1), "sent on the other endpoint", "is another endpoint's");
            SendBuffer kept = client.claimSendBuffer();
            refused(() -> peer.release(kept), "given back to the other endpoint", "is another endpoint's");
            try {
                client.send(kept, RdmaEndpoint.MAX_MESSAGE + 1);
                throw new AssertionError("a message longer than a buffer was sent");
            } catch (IndexOutOfBoundsException expected) {
                System.out.println("  too long: " + expected.getMessage());
            }
            client.release(kept);
            refused(() -> client.release(kept), "given back twice", "is not lent");
            ReceivedMessage in = peer.receiveInPlace();
            equal(1, in.length(), "length");
            peer.release(in);
            refused(() -> peer.release(in), "released twice", "released already");
            refused(() -> client.release(in), "released on the other endpoint", "is another endpoint's");
        });
    }

    private interface Misuse {
        void run() throws Exception;
    }

    private static void refused(Misuse misuse, String what, String reason) throws Exception {
        try {
            misuse.run();
            throw new AssertionError("a buffer " + what + " was taken");
        } catch (IllegalArgumentException expected) {
            require(expected.getMessage().contains(reason), what + ": " + expected.getMessage());
            System.out.println("  " + what + ": " + expected.getMessage());
        }
    }

    /**
     * The receiver holds every receive buffer ({@link RdmaEndpoint#RECEIVES} messages in place):
     * the sender's next {@link SendSlots#COUNT} messages wait in its send buffers, and a claim
     * after them waits until the receiver releases; then all arrive, in order.
     */
    void flowControl() throws Exception {
        vm.connected((at, client, peer, threads, arena) -> {
            MemorySegment out = arena.allocate(4);
            int sent = RdmaEndpoint.RECEIVES + SendSlots.COUNT;
            for (int i = 0; i < sent; i++) {
                out.set(ValueLayout.JAVA_INT, 0, i);
                client.send(out);
            }
            List<ReceivedMessage> held = new ArrayList<>();
            for (int i = 0; i < RdmaEndpoint.RECEIVES; i++) {
                ReceivedMessage in = peer.receiveInPlace();
                equal(i, in.memory().get(ValueLayout.JAVA_INT, 0), "message " + i);
                held.add(in);
            }
            Future<SendBuffer> claim = threads.submit(client::claimSendBuffer);
            Thread.sleep(500);
            require(!claim.isDone(), "a send buffer was lent while the receiver held every receive buffer");
            for (ReceivedMessage in : held) {
                peer.release(in);
            }
            client.release(claim.get(WAIT.toMillis(), TimeUnit.MILLISECONDS));
            for (int i = RdmaEndpoint.RECEIVES; i < sent; i++) {
                ReceivedMessage in = peer.receiveInPlace();
                equal(i, in.memory().get(ValueLayout.JAVA_INT, 0), "message " + i);
                peer.release(in);
            }
            System.out.printf("  %d messages held, %d waiting in send buffers, the claim lent once they were released%n",
                    RdmaEndpoint.RECEIVES, SendSlots.COUNT);
        });
    }

    /**
     * Round trips through lent buffers in {@link PollingMode#ADAPTIVE} (two endpoints of one
     * group, the peer echoing on a platform thread, copying the message from where it arrived into
     * a claimed send buffer): after 3,000 of warm-up, 3,000 of 16 bytes allocate less than a byte
     * a round trip in the caller and the echoing thread, and the group's thread less than 16 (as
     * {@code EndpointInVm}'s blocking-form check bounds it in this mode).
     */
    void allocation() throws Exception {
        InetSocketAddress at = vm.address();
        int warmUp = 3000;
        int rounds = 3000;
        try (RdmaServer server = RdmaServer.listen(at);
                EndpointGroup group = new EndpointGroup(2, PollingMode.ADAPTIVE);
                ExecutorService threads = Executors.newVirtualThreadPerTaskExecutor()) {
            Future<RdmaEndpoint> accepted = threads.submit(() -> server.accept(group, WAIT));
            RdmaEndpoint client = RdmaEndpoint.connect(at, group, WAIT);
            RdmaEndpoint peer = accepted.get();
            Thread echoing = Thread.ofPlatform().start(() -> {
                try {
                    while (true) {
                        ReceivedMessage in = peer.receiveInPlace();
                        SendBuffer out = peer.claimSendBuffer();
                        int length = in.length();
                        MemorySegment.copy(in.memory(), 0, out.memory(), 0, length);
                        peer.release(in);
                        peer.send(out, length);
                    }
                } catch (ClosedChannelException done) {
                    // the client closed
                }
            });
            roundTrips(client, warmUp);
            RoundTripCost cost = RoundTripCost.measure(group, echoing, rounds, () -> roundTrips(client, rounds));
            System.out.println("  through lent buffers: " + cost);
            cost.requireAdaptiveBounds();
            client.close();
            echoing.join(WAIT.toMillis());
            require(!echoing.isAlive(), "the echoing thread ended with the connection");
            peer.close();
        }
    }

    /** {@code count} round trips of 16 bytes, each number written into a claimed buffer and read back in place. */
    private static void roundTrips(RdmaEndpoint client, int count) throws ClosedChannelException {
        for (int i = 0; i < count; i++) {
            SendBuffer out = client.claimSendBuffer();
            out.memory().set(ValueLayout.JAVA_INT, 0, i);
            client.send(out, 16);
            ReceivedMessage in = client.receiveInPlace();
            int echoed = in.memory().get(ValueLayout.JAVA_INT, 0);
            client.release(in);
            if (echoed != i) {
                throw new AssertionError("round trip " + i + " came back as " + echoed);
            }
        }
    }
}
