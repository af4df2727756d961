package org.jrdma.verbs;

import java.util.List;
import java.util.Objects;
import org.jrdma.WrException;
import org.jrdma.verbs.ffi.RecvWrs;

/**
 * A receive work request, {@code struct ibv_recv_wr} (IBA 11.4.1.2 Post Receive Request): the
 * buffers an incoming SEND (or RDMA write with immediate) lands in. Requests chain through
 * {@link #next}. Mutable and reusable: posting copies it, allocating nothing.
 */
public final class RecvWr {
    /** EINVAL: a request with more elements than the queue allows. */
    private static final int EINVAL = 22;
    private static final Sge[] NO_SGES = {};

    private long wrId;
    private Sge[] sgList = NO_SGES;
    private int numSge;
    private final Sge[] single = new Sge[1];
    private RecvWr next;

    /** An empty request with no buffers. */
    public RecvWr() {
    }

    /** {@code wr_id}: returned in the request's work completion. */
    public long wrId() {
        return wrId;
    }

    /** Sets {@code wr_id}. */
    public RecvWr wrId(long value) {
        this.wrId = value;
        return this;
    }

    /** Sets a one-element scatter/gather list; allocates nothing. */
    public RecvWr sge(Sge sge) {
        single[0] = Objects.requireNonNull(sge, "sge");
        this.sgList = single;
        this.numSge = 1;
        return this;
    }

    /** Sets the scatter/gather list ({@code sg_list}, {@code num_sge}); the array is kept, not copied. */
    public RecvWr sgList(Sge... list) {
        for (Sge sge : list) {
            Objects.requireNonNull(sge, "sge");
        }
        this.sgList = list;
        this.numSge = list.length;
        return this;
    }

    /** {@code num_sge}. */
    public int numSge() {
        return numSge;
    }

    /** Element {@code i} of the scatter/gather list. */
    public Sge sge(int i) {
        Objects.checkIndex(i, numSge);
        return sgList[i];
    }

    /** {@code next}: the request posted after this one, or null. */
    public RecvWr next() {
        return next;
    }

    /** Sets {@code next}. */
    public RecvWr next(RecvWr value) {
        this.next = value;
        return this;
    }

    /**
     * Posts the chain from {@code first}, or else the list {@code list}, through {@code staging}
     * in batches of its capacity, reporting failures as {@code call}; serialised on
     * {@code staging}.
     */
    static void post(RecvWrs staging, String call, RecvWr first, List<RecvWr> list) {
        synchronized (staging) {
            int index = 0;
            int posted = 0;
            RecvWr wr = first != null ? first : list.get(0);
            while (wr != null) {
                int n = 0;
                boolean tooManySges = false;
                while (wr != null && n < staging.capacity()) {
                    if (wr.numSge > staging.maxSge()) {
                        tooManySges = true;
                        break;
                    }
                    staging.wr(n, wr.wrId, wr.numSge);
                    for (int j = 0; j < wr.numSge; j++) {
                        Sge sge = wr.sgList[j];
                        staging.sge(n, j, sge.addr(), sge.length(), sge.lkey());
                    }
                    n++;
                    index++;
                    wr = first != null ? wr.next : index < list.size() ? list.get(index) : null;
                }
                if (n > 0) {
                    int bad = staging.post(n);
                    if (bad >= 0) {
                        throw new WrException(call, staging.lastError(), posted + bad);
                    }
                    posted += n;
                }
                if (tooManySges) {
                    throw new WrException(call, EINVAL, posted);
                }
            }
        }
    }
}
