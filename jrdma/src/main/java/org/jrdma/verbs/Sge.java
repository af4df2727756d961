package org.jrdma.verbs;

/**
 * A scatter/gather element, {@code struct ibv_sge} (IBA 10.7.2.1): {@code length} bytes at
 * {@code addr} inside a memory region whose local key is {@code lkey}. Mutable, so a request can
 * be reused without allocating; usually made by {@link Mr#sge}.
 */
public final class Sge {
    private long addr;
    private int length;
    private int lkey;

    /** An element of {@code length} bytes (unsigned 32 bits) at {@code addr}, local key {@code lkey}. */
    public Sge(long addr, int length, int lkey) {
        set(addr, length, lkey);
    }

    /** Sets all three fields; returns {@code this}. */
    public Sge set(long addr, int length, int lkey) {
        this.addr = addr;
        this.length = length;
        this.lkey = lkey;
        return this;
    }

    /** {@code addr}: the virtual address of the first byte. */
    public long addr() {
        return addr;
    }

    /** Sets {@code addr}. */
    public Sge addr(long value) {
        this.addr = value;
        return this;
    }

    /** {@code length}: the byte count, unsigned 32 bits. */
    public int length() {
        return length;
    }

    /** Sets {@code length}. */
    public Sge length(int value) {
        this.length = value;
        return this;
    }

    /** {@code lkey}: the local key of the memory region. */
    public int lkey() {
        return lkey;
    }

    /** Sets {@code lkey}. */
    public Sge lkey(int value) {
        this.lkey = value;
        return this;
    }

    @Override
    public String toString() {
        return String.format("Sge[addr=0x%x, length=%d, lkey=0x%x]", addr, Integer.toUnsignedLong(length), lkey);
    }
}
