package org.jrdma.mad;

/**
 * A MAD a transport received, with where it came from.
 *
 * @param mad     the MAD: at least 256 bytes, longer when the kernel reassembled an RMPP transfer;
 *                bytes at and past {@code length} are zero
 * @param length  how many bytes of {@code mad} the sender actually sent (a short SA response
 *                relayed by ibsim is shorter than 256)
 * @param from    the sender's address
 * @param dropped true when the transport reports that the fabric could not deliver a MAD we sent
 *                (ibsim returns such a MAD with status ETIMEDOUT): the request will get no answer
 */
public record ReceivedMad(byte[] mad, int length, MadAddress from, boolean dropped) {
    public ReceivedMad {
        if (length < 0 || length > mad.length) {
            throw new IllegalArgumentException("length " + length + " outside a " + mad.length + "-byte MAD");
        }
    }

    /** A MAD received whole. */
    public ReceivedMad(byte[] mad, MadAddress from, boolean dropped) {
        this(mad, mad.length, from, dropped);
    }
}
