package org.jrdma.mad;

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

    @Override
    void close();
}
