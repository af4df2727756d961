package org.jrdma.verbs;

import org.jrdma.SysException;

/**
 * Posting a list of work requests failed ({@code ibv_post_send}, {@code ibv_post_recv},
 * {@code ibv_post_srq_recv}): the call returned an error number and pointed at the first work
 * request it did not post. Python-rdma's {@code rdma.ibverbs.WRError}, a
 * {@link SysException} that also carries {@link #badIndex()}: the requests before it were
 * posted, it and those after it were not.
 */
public final class WrException extends SysException {
    private static final long serialVersionUID = 1L;

    private final int badIndex;

    /**
     * The failure of posting call {@code call} with error number {@code errno} (negative taken as
     * its absolute value) at the work request at index {@code badIndex} of the posted list.
     */
    public WrException(String call, int errno, int badIndex) {
        super(call, errno, null, ", bad work request at index " + badIndex);
        this.badIndex = badIndex;
    }

    /** The index in the posted list of the first work request that was not posted. */
    public int badIndex() {
        return badIndex;
    }
}
