package org.jrdma.endpoint;

import static org.jrdma.endpoint.EndpointInVm.WAIT;
import static org.jrdma.testkit.vm.VmChecks.equal;
import static org.jrdma.testkit.vm.VmChecks.require;

import java.lang.foreign.ValueLayout;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

/**
 * {@link EndpointInVm}'s checks of the forms that never wait ({@link RdmaEndpoint#tryClaimSendBuffer()},
 * {@link RdmaEndpoint#tryReceiveInPlace()}): what they return when there is nothing to lend, and
 * one thread driving both sides of several connections in turn, the credits holding each sender
 * back until that same thread releases what arrived.
 */
final class NonWaitingChecks {
    private static final int CONNECTIONS = 4;
    /** Messages a connection carries: three times the peer's receives, so the credits run out and come back. */
    private static final int PER_CONNECTION = 3 * RdmaEndpoint.RECEIVES;

    private final EndpointInVm vm;

    NonWaitingChecks(EndpointInVm vm) {
        this.vm = vm;
    }

    /**
     * Nothing arrived: {@code tryReceiveInPlace} returns null; every send buffer claimed:
     * {@code tryClaimSendBuffer} returns null, and lends again once one is given back.
     */
    void nothingToLend() throws Exception {
        vm.connected((at, client, peer, threads, arena) -> {
            require(peer.tryReceiveInPlace() == null, "a message was lent before any was sent");
            List<SendBuffer> claimed = new ArrayList<>();
            for (SendBuffer b; claimed.size() <= SendSlots.COUNT && (b = client.tryClaimSendBuffer()) != null;) {
                claimed.add(b);
            }
            equal(SendSlots.COUNT, claimed.size(), "send buffers lent without waiting");
            client.release(claimed.removeLast());
            SendBuffer again = client.tryClaimSendBuffer();
            require(again != null, "no send buffer lent after one was given back");
            again.memory().set(ValueLayout.JAVA_INT, 0, 7);
            client.send(again, 4);
            for (SendBuffer b : claimed) {
                client.release(b);
            }
            long deadline = System.nanoTime() + WAIT.toNanos();
            ReceivedMessage in;
            while ((in = peer.tryReceiveInPlace()) == null) {
                require(System.nanoTime() < deadline, "the message sent never arrived");
                Thread.onSpinWait();
            }
            equal(7, in.memory().get(ValueLayout.JAVA_INT, 0), "the message");
            peer.release(in);
            System.out.printf("  %d send buffers lent, then none; the message taken once it arrived%n", SendSlots.COUNT);
        });
    }

    /**
     * {@value #CONNECTIONS} connections in a group of each side, in {@code mode}: this one thread
     * sends {@value #PER_CONNECTION} numbered messages on every client endpoint and takes them on
     * every peer, visiting each in turn and never waiting; each peer gets its messages in order.
     */
    void oneThreadInTurn(PollingMode mode) throws Exception {
        InetSocketAddress at = vm.address();
        try (RdmaServer server = RdmaServer.listen(at);
                EndpointGroup clients = new EndpointGroup(CONNECTIONS, mode);
                EndpointGroup peers = new EndpointGroup(CONNECTIONS, mode);
                ExecutorService threads = Executors.newVirtualThreadPerTaskExecutor()) {
            RdmaEndpoint[] client = new RdmaEndpoint[CONNECTIONS];
            RdmaEndpoint[] peer = new RdmaEndpoint[CONNECTIONS];
            for (int c = 0; c < CONNECTIONS; c++) {
                Future<RdmaEndpoint> accepted = threads.submit(() -> server.accept(peers, WAIT));
                client[c] = RdmaEndpoint.connect(at, clients, WAIT);
                peer[c] = accepted.get();
            }
            int[] sent = new int[CONNECTIONS];
            int[] received = new int[CONNECTIONS];
            // a peer takes messages only once its sender found no send buffer (or is done), so
            // that every sender runs out of credits and send buffers before it goes on
            boolean[] heldBack = new boolean[CONNECTIONS];
            int[] nulls = new int[CONNECTIONS];
            long deadline = System.nanoTime() + WAIT.toNanos();
            for (int left = 2 * CONNECTIONS * PER_CONNECTION; left > 0;) {
                require(System.nanoTime() < deadline,
                        "sent " + Arrays.toString(sent) + ", received " + Arrays.toString(received));
                for (int c = 0; c < CONNECTIONS; c++) {
                    if (sent[c] < PER_CONNECTION) {
                        SendBuffer out = client[c].tryClaimSendBuffer();
                        heldBack[c] = out == null;
                        if (out == null) {
                            nulls[c]++;
                        } else {
                            out.memory().set(ValueLayout.JAVA_INT, 0, sent[c]++);
                            client[c].send(out, 4);
                            left--;
                        }
                    }
                    if (heldBack[c] || sent[c] == PER_CONNECTION) {
                        ReceivedMessage in = peer[c].tryReceiveInPlace();
                        if (in != null) {
                            equal(received[c]++, in.memory().get(ValueLayout.JAVA_INT, 0), "message on connection " + c);
                            peer[c].release(in);
                            left--;
                        }
                    }
                }
            }
            for (int c = 0; c < CONNECTIONS; c++) {
                client[c].close();
                peer[c].close();
            }
            for (int c = 0; c < CONNECTIONS; c++) {
                require(nulls[c] > 0, "sender " + c + " never found its send buffers taken");
            }
            System.out.printf("  %s: %d messages on each of %d connections, in order; tries that found no send buffer: %s%n",
                    mode, PER_CONNECTION, CONNECTIONS, Arrays.toString(nulls));
        }
    }
}
