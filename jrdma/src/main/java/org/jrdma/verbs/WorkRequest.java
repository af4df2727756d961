package org.jrdma.verbs;

import java.util.List;
import java.util.Objects;
import org.jrdma.verbs.ffi.WrStaging;

/**
 * What send and receive work requests share ({@code struct ibv_send_wr} and
 * {@code struct ibv_recv_wr} both begin with {@code wr_id, next, sg_list, num_sge}), and the
 * posting of a chain or list of them through a native staging area in batches of its capacity.
 *
 * @param <W> the request type, returned by the setters
 */
abstract sealed class WorkRequest<W extends WorkRequest<W>> permits SendWr, RecvWr {
    /** EINVAL: a request with more elements than the queue allows. */
    private static final int EINVAL = 22;
    private static final Sge[] NO_SGES = {};

    private long wrId;
    private Sge[] sgList = NO_SGES;
    private int numSge;
    private final Sge[] single = new Sge[1];
    private W next;

    /** This request, as its own type. */
    abstract W self();

    /**
     * How a request of type {@code W} is copied into slot {@code i} of a staging area of type
     * {@code S}, the common fields included: {@code SendWr::stage} or {@code RecvWr::stage}.
     */
    @FunctionalInterface
    interface Stager<W, S extends WrStaging> {
        void stage(W wr, S staging, int i);
    }

    /** {@code wr_id}: returned in the request's work completion. */
    public long wrId() {
        return wrId;
    }

    /** Sets {@code wr_id}. */
    public W wrId(long value) {
        this.wrId = value;
        return self();
    }

    /** Sets a one-element scatter/gather list; allocates nothing. */
    public W sge(Sge sge) {
        single[0] = Objects.requireNonNull(sge, "sge");
        this.sgList = single;
        this.numSge = 1;
        return self();
    }

    /** Sets the scatter/gather list ({@code sg_list}, {@code num_sge}); the array is kept, not copied. */
    public W sgList(Sge... list) {
        for (Sge sge : list) {
            Objects.requireNonNull(sge, "sge");
        }
        this.sgList = list;
        this.numSge = list.length;
        return self();
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
    public W next() {
        return next;
    }

    /** Sets {@code next}. */
    public W next(W value) {
        this.next = value;
        return self();
    }

    /** Copies the scatter/gather list into slot {@code i} of {@code staging}. */
    final void stageSges(WrStaging staging, int i) {
        for (int j = 0; j < numSge; j++) {
            Sge sge = sgList[j];
            staging.sge(i, j, sge.addr(), sge.length(), sge.lkey());
        }
    }

    /**
     * Posts the chain from {@code first}, or else the list {@code list}, through {@code staging}
     * in batches of its capacity, each request copied there by {@code stager}, reporting failures
     * as {@code call}; serialised on {@code staging}.
     */
    static <W extends WorkRequest<W>, S extends WrStaging> void post(S staging, Stager<W, S> stager, String call,
            W first, List<W> list) {
        synchronized (staging) {
            int index = 0;
            int posted = 0;
            W wr = first != null ? first : list.get(0);
            while (wr != null) {
                int n = 0;
                boolean tooManySges = false;
                while (wr != null && n < staging.capacity()) {
                    if (wr.numSge() > staging.maxSge()) {
                        tooManySges = true;
                        break;
                    }
                    stager.stage(wr, staging, n++);
                    index++;
                    wr = first != null ? wr.next() : index < list.size() ? list.get(index) : null;
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
