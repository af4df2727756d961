package org.jrdma.verbs;

import org.jrdma.verbs.ffi.RecvWrs;

/**
 * A receive work request prepared for posting many times to one queue pair's receive queue or
 * one shared receive queue ({@link RecvQueue#prepareRecv}); see {@link PreparedWr}.
 *
 * <pre>{@code
 * PreparedRecv recv = qp.prepareRecv(new RecvWr().wrId(1).sge(mr.sge()));
 * for (int i = 0; i < depth; i++) {
 *     recv.post();
 * }
 * }</pre>
 */
public final class PreparedRecv extends PreparedWr<PreparedRecv> {
    PreparedRecv(Resource queue, RecvWrs staging, String call, RecvWr wr) {
        super(queue, staging, RecvWr::stage, call, wr);
    }

    @Override
    PreparedRecv self() {
        return this;
    }
}
