package org.jrdma.mad;

import org.jrdma.iba.Mad;

/**
 * A MAD reply carried an error in the class-specific bits (8 to 14) of its status word (IBA
 * 13.4.7), whose meaning the management class defines, for example SA status 3, no records
 * (IBA 15.2.1.1); python-rdma's {@code rdma.MADClassError}.
 */
public class MadClassException extends MadException {
    private static final long serialVersionUID = 1L;

    private final int mgmtClass;

    /**
     * A reply of management class {@code mgmtClass} (for example {@link Mad#CLASS_SUBN_ADM})
     * whose status word {@code status} holds a class-specific error; {@code message} says which
     * request failed.
     *
     * @throws IllegalArgumentException if {@code mgmtClass} does not fit in 8 bits or
     *                                  {@code status} in 16
     */
    public MadClassException(String message, int mgmtClass, int status) {
        this(message, mgmtClass, status, Exchange.NONE);
    }

    /**
     * As {@link #MadClassException(String, int, int)}, for the transaction that exchanged
     * {@code exchange}.
     */
    public MadClassException(String message, int mgmtClass, int status, Exchange exchange) {
        super(message, status, Mad.statusToString(mgmtClass, status), exchange);
        this.mgmtClass = mgmtClass;
    }

    /** The management class of the reply, which gives {@link #classCode()} its meaning. */
    public int mgmtClass() {
        return mgmtClass;
    }

    /** The class-specific code: bits 8 to 14 of the status word, for example 3 for SA no records. */
    public int classCode() {
        return (status().orElseThrow() & Mad.STATUS_CLASS_MASK) >> 8;
    }
}
