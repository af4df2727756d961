package org.jrdma.iba;

import java.lang.foreign.MemorySegment;
import java.util.Arrays;
import java.util.Objects;

/**
 * A 128-bit global identifier (IBA 4.1.1), an IPv6 address in form: a 64-bit subnet prefix and a
 * 64-bit interface ID, which for a port GID is the port's {@link Guid}. GIDs address ports across
 * subnets in the GRH (IBA 8.3: SGID, DGID), in path records (IBA 15.2.5.16) and in the GID table
 * of every port. Immutable; equal by value; ordered as an unsigned 128-bit number.
 *
 * <p>Text form: IPv6 (RFC 4291 2.2), for example {@code fe80::2:c903:0:1491}. {@link #parse}
 * accepts every form {@code inet_pton(AF_INET6)} of glibc accepts (leading-zero-free groups or not,
 * either case, one {@code ::}, a trailing dotted IPv4 part) and nothing else; it never looks a
 * name up. {@link #toString()} prints what glibc's {@code inet_ntop} prints, as every C tool of
 * the RDMA stack does: the RFC 5952 form (lower case, no leading zeros, the longest run of two or
 * more zero groups, the first if tied, as {@code ::}), with the last 32 bits in dotted form for an
 * IPv4-mapped address ({@code ::ffff:192.0.2.1}, as RoCE v2 GIDs are) or an IPv4-compatible one
 * ({@code ::192.0.2.1}). On the wire a GID is 16 bytes, prefix first, big-endian.
 *
 * @param prefix      the high 64 bits, the subnet prefix ({@link #DEFAULT_PREFIX} for link-local)
 * @param interfaceId the low 64 bits, the interface ID (the port GUID for a port's GID 0)
 */
public record Gid(long prefix, long interfaceId) implements Comparable<Gid> {
    /** Size of a GID on the wire. */
    public static final int BYTES = 16;

    /** The default, link-local, subnet prefix {@code fe80::/64} (IBA 4.1.1). */
    public static final long DEFAULT_PREFIX = 0xfe80_0000_0000_0000L;

    private static final String KIND = "GID";
    private static final int WORDS = 8;

    /** The GID with subnet prefix {@code prefix} and interface ID {@code guid}. */
    public static Gid of(long prefix, Guid guid) {
        return new Gid(prefix, guid.value());
    }

    /** The link-local GID of {@code guid}: {@link #DEFAULT_PREFIX} and the GUID as interface ID. */
    public static Gid of(Guid guid) {
        return new Gid(DEFAULT_PREFIX, guid.value());
    }

    /** The interface ID as a {@link Guid}. */
    public Guid guid() {
        return new Guid(interfaceId);
    }

    /** True for a link-local unicast GID, in {@code fe80::/10}. */
    public boolean isLinkLocal() {
        return prefix >>> 54 == 0xfe80 >>> 6;
    }

    /** True for a multicast GID, in {@code ff00::/8} (IBA 4.1.1). */
    public boolean isMulticast() {
        return prefix >>> 56 == 0xff;
    }

    /**
     * Parses the IPv6 text form of a GID, as glibc's {@code inet_pton(AF_INET6)} does: up to eight
     * groups of one to four hex digits separated by {@code :}, at most one {@code ::} standing for
     * one or more zero groups, and optionally, in place of the last two groups, a dotted IPv4
     * address of four decimal octets 0 to 255 without leading zeros. No blanks, no zone
     * ({@code %...}), no prefix length ({@code /...}).
     *
     * @throws IllegalArgumentException if {@code text} is null or not such a form; the message
     *                                  quotes the text and says what is wrong with it
     */
    public static Gid parse(String text) {
        if (text == null) {
            throw Texts.invalid(KIND, null, "expected an IPv6 address such as fe80::2:c903:0:1491");
        }
        int[] words = new int[WORDS];
        int count = 0;
        int gap = -1;
        int length = text.length();
        if (length == 0) {
            throw Texts.invalid(KIND, text, "empty; expected an IPv6 address such as fe80::2:c903:0:1491");
        }
        int pos = 0;
        if (text.charAt(0) == ':') {
            if (length == 1 || text.charAt(1) != ':') {
                throw Texts.invalid(KIND, text, "starts with a single ':'");
            }
            gap = 0;
            pos = 2;
        }
        while (pos < length) {
            if (count == WORDS) {
                throw Texts.invalid(KIND, text, "more than 8 groups");
            }
            int start = pos;
            int value = 0;
            while (pos < length && pos - start < 5 && Texts.hexValue(text.charAt(pos)) >= 0) {
                value = value << 4 | Texts.hexValue(text.charAt(pos));
                pos++;
            }
            if (pos < length && text.charAt(pos) == '.') {
                if (count > WORDS - 2) {
                    throw Texts.invalid(KIND, text, "no room for an IPv4 part after " + count + " groups");
                }
                int ipv4 = parseIpv4(text, start);
                words[count++] = ipv4 >>> 16;
                words[count++] = ipv4 & 0xffff;
                break;
            }
            int digits = pos - start;
            if (digits > 4) {
                throw Texts.invalid(KIND, text, "group starting at index " + start + " has more than 4 hex digits");
            }
            if (digits == 0) {
                throw Texts.invalid(KIND, text, "unexpected " + UntrustedText.quote(text.substring(pos, pos + 1))
                        + " at index " + pos);
            }
            words[count++] = value;
            if (pos == length) {
                break;
            }
            if (text.charAt(pos) != ':') {
                throw Texts.invalid(KIND, text, "unexpected " + UntrustedText.quote(text.substring(pos, pos + 1))
                        + " at index " + pos);
            }
            pos++;
            if (pos < length && text.charAt(pos) == ':') {
                if (gap >= 0) {
                    throw Texts.invalid(KIND, text, "more than one '::'");
                }
                gap = count;
                pos++;
            } else if (pos == length) {
                throw Texts.invalid(KIND, text, "ends with a single ':'");
            }
        }
        if (gap >= 0) {
            if (count == WORDS) {
                throw Texts.invalid(KIND, text, "'::' together with 8 groups");
            }
            int tail = count - gap;
            System.arraycopy(words, gap, words, WORDS - tail, tail);
            Arrays.fill(words, gap, WORDS - tail, 0);
        } else if (count != WORDS) {
            throw Texts.invalid(KIND, text, count + " groups without '::', expected 8");
        }
        long high = 0;
        long low = 0;
        for (int i = 0; i < 4; i++) {
            high = high << 16 | words[i];
            low = low << 16 | words[i + 4];
        }
        return new Gid(high, low);
    }

    /** The dotted IPv4 address that ends {@code text} at {@code start}, as 32 bits. */
    private static int parseIpv4(String text, int start) {
        int address = 0;
        int octets = 0;
        int pos = start;
        while (true) {
            int octetStart = pos;
            int octet = 0;
            while (pos < text.length() && pos - octetStart < 4 && text.charAt(pos) >= '0' && text.charAt(pos) <= '9') {
                octet = octet * 10 + text.charAt(pos) - '0';
                pos++;
            }
            String octetText = text.substring(octetStart, pos);
            if (octetText.isEmpty()) {
                throw Texts.invalid(KIND, text, "IPv4 part has an empty or non-decimal octet at index " + octetStart);
            }
            if (octet > 255) {
                throw Texts.invalid(KIND, text, "IPv4 octet " + UntrustedText.quote(octetText) + " is greater than 255");
            }
            if (octetText.length() > 1 && octetText.charAt(0) == '0') {
                throw Texts.invalid(KIND, text, "IPv4 octet " + UntrustedText.quote(octetText) + " has a leading zero");
            }
            address = address << 8 | octet;
            octets++;
            if (pos == text.length()) {
                break;
            }
            if (text.charAt(pos) != '.' || octets == 4) {
                throw Texts.invalid(KIND, text, "unexpected " + UntrustedText.quote(text.substring(pos, pos + 1))
                        + " at index " + pos + " in the IPv4 part");
            }
            pos++;
        }
        if (octets != 4) {
            throw Texts.invalid(KIND, text, "IPv4 part has " + octets + " octets, expected 4");
        }
        return address;
    }

    /**
     * Reads a GID from 16 bytes of {@code bytes} at {@code offset}, prefix first, big-endian.
     *
     * @throws IndexOutOfBoundsException if the 16 bytes do not lie inside {@code bytes}
     */
    public static Gid fromBytes(byte[] bytes, int offset) {
        Objects.checkFromIndexSize(offset, BYTES, bytes.length);
        return new Gid(Guid.fromBytes(bytes, offset).value(), Guid.fromBytes(bytes, offset + 8).value());
    }

    /**
     * Reads a GID from 16 bytes of {@code segment} at {@code offset}, prefix first, big-endian,
     * any alignment.
     *
     * @throws IndexOutOfBoundsException if the 16 bytes do not lie inside {@code segment}
     */
    public static Gid fromSegment(MemorySegment segment, long offset) {
        Objects.checkFromIndexSize(offset, BYTES, segment.byteSize());
        return new Gid(segment.get(Guid.WIRE_LONG, offset), segment.get(Guid.WIRE_LONG, offset + 8));
    }

    /** The 16 wire bytes of this GID, prefix first, big-endian, in a new array. */
    public byte[] toBytes() {
        byte[] bytes = new byte[BYTES];
        writeTo(bytes, 0);
        return bytes;
    }

    /**
     * Writes the 16 wire bytes of this GID into {@code bytes} at {@code offset}, prefix first,
     * big-endian.
     *
     * @throws IndexOutOfBoundsException if the 16 bytes do not lie inside {@code bytes}
     */
    public void writeTo(byte[] bytes, int offset) {
        Objects.checkFromIndexSize(offset, BYTES, bytes.length);
        new Guid(prefix).writeTo(bytes, offset);
        new Guid(interfaceId).writeTo(bytes, offset + 8);
    }

    /**
     * Writes the 16 wire bytes of this GID into {@code segment} at {@code offset}, prefix first,
     * big-endian.
     *
     * @throws IndexOutOfBoundsException if the 16 bytes do not lie inside {@code segment}
     */
    public void writeTo(MemorySegment segment, long offset) {
        Objects.checkFromIndexSize(offset, BYTES, segment.byteSize());
        segment.set(Guid.WIRE_LONG, offset, prefix);
        segment.set(Guid.WIRE_LONG, offset + 8, interfaceId);
    }

    /** The IPv6 text form, exactly as glibc's {@code inet_ntop(AF_INET6)} prints it. */
    @Override
    public String toString() {
        int[] words = new int[WORDS];
        for (int i = 0; i < 4; i++) {
            words[i] = (int) (prefix >>> (48 - 16 * i)) & 0xffff;
            words[i + 4] = (int) (interfaceId >>> (48 - 16 * i)) & 0xffff;
        }
        int bestBase = -1;
        int bestLength = 0;
        for (int i = 0; i < WORDS; ) {
            if (words[i] != 0) {
                i++;
                continue;
            }
            int run = i;
            while (i < WORDS && words[i] == 0) {
                i++;
            }
            if (i - run > bestLength) {
                bestBase = run;
                bestLength = i - run;
            }
        }
        if (bestLength < 2) {
            bestBase = -1;
        }
        var out = new StringBuilder(46);
        for (int i = 0; i < WORDS; i++) {
            if (bestBase >= 0 && i >= bestBase && i < bestBase + bestLength) {
                if (i == bestBase) {
                    out.append(':');
                }
                continue;
            }
            if (i != 0) {
                out.append(':');
            }
            if (i == 6 && bestBase == 0 && (bestLength == 6 || bestLength == 5 && words[5] == 0xffff)) {
                out.append(words[6] >>> 8).append('.').append(words[6] & 0xff).append('.')
                        .append(words[7] >>> 8).append('.').append(words[7] & 0xff);
                return out.toString();
            }
            out.append(Integer.toHexString(words[i]));
        }
        if (bestBase >= 0 && bestBase + bestLength == WORDS) {
            out.append(':');
        }
        return out.toString();
    }

    /** Orders GIDs as unsigned 128-bit numbers: by prefix, then by interface ID, both unsigned. */
    @Override
    public int compareTo(Gid other) {
        int byPrefix = Long.compareUnsigned(prefix, other.prefix);
        return byPrefix != 0 ? byPrefix : Long.compareUnsigned(interfaceId, other.interfaceId);
    }
}
