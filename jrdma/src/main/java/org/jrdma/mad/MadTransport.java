package org.jrdma.mad;

import java.util.Optional;
import org.jrdma.devices.EndPort;

/**
 * Sends and receives raw 256-byte MADs for one end port: the kernel's umad interface or an ibsim
 * simulated fabric. Implementations are safe for one sending and one receiving thread at a time.
 */
public interface MadTransport extends AutoCloseable {
    /** Sends one MAD to an address, from QP0 for SMP classes and QP1 otherwise. */
    void send(byte[] mad, MadAddress to);

    /**
     * Receives the next MAD.
     *
     * @param timeoutMillis how long to wait
     * @return the MAD, or null if none came in time
     */
    ReceivedMad receive(int timeoutMillis);

    /** A short description for messages, e.g. {@code ibsim @jrdma123-1 node "sw1"}. */
    String describe();

    /**
     * The local end port this transport sends from and receives on: where the paths of MADs that
     * need one start (SA queries, replies to requests). A snapshot: its LID and states are those of
     * when it was read. Empty when the transport cannot say which port it is.
     */
    Optional<EndPort> endPort();

    /**
     * True if this transport does RMPP (IBA 13.6) for a management class itself: it hands over a
     * multi-segment response reassembled, and segments a long MAD it is given to send. When
     * false, the {@link MadEngine} does RMPP for that class. None by default.
     */
    default boolean reassemblesRmpp(int mgmtClass) {
        return false;
    }

    /**
     * Registers an agent that receives the requests of a management class and version (IBA
     * 13.4.6): from then on {@link #receive} returns requests of that class and version whose
     * method is in {@code methodMask} and, for vendor classes 0x30-0x4F, whose OUI is {@code oui}.
     *
     * @param mgmtClass    the management class
     * @param classVersion the class version
     * @param methodMask   the request methods to receive, bit N for method N, as the
     *                     {@code METHOD_MASK} constants of the attribute classes
     * @param oui          the vendor's OUI for vendor classes 0x30-0x4F, else 0
     * @throws UnsupportedOperationException if the transport cannot serve requests
     */
    default void registerServer(int mgmtClass, int classVersion, long methodMask, int oui) {
        throw new UnsupportedOperationException(describe() + " cannot serve requests");
    }

    @Override
    void close();
}
