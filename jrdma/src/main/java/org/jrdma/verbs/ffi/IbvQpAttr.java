package org.jrdma.verbs.ffi;

/**
 * The content of a {@code struct ibv_qp_attr}, what {@code ibv_modify_qp} takes and
 * {@code ibv_query_qp} gives: C enumerations as their numbers, unsigned values widened to
 * {@code int}. The verbs layer maps it to and from its {@code QpAttr}; which members apply is
 * the call's attribute mask.
 *
 * @param qpState          {@code qp_state}, an {@code enum ibv_qp_state}
 * @param curQpState       {@code cur_qp_state}
 * @param pathMtu          {@code path_mtu}, an {@code enum ibv_mtu}
 * @param pathMigState     {@code path_mig_state}
 * @param qkey             {@code qkey}
 * @param rqPsn            {@code rq_psn}
 * @param sqPsn            {@code sq_psn}
 * @param destQpNum        {@code dest_qp_num}
 * @param qpAccessFlags    {@code qp_access_flags}
 * @param cap              {@code cap}
 * @param ahAttr           {@code ah_attr}, the primary path
 * @param altAhAttr        {@code alt_ah_attr}, the alternate path
 * @param pkeyIndex        {@code pkey_index}
 * @param altPkeyIndex     {@code alt_pkey_index}
 * @param enSqdAsyncNotify {@code en_sqd_async_notify}
 * @param sqDraining       {@code sq_draining}
 * @param maxRdAtomic      {@code max_rd_atomic}
 * @param maxDestRdAtomic  {@code max_dest_rd_atomic}
 * @param minRnrTimer      {@code min_rnr_timer}
 * @param portNum          {@code port_num}
 * @param timeout          {@code timeout}
 * @param retryCnt         {@code retry_cnt}
 * @param rnrRetry         {@code rnr_retry}
 * @param altPortNum       {@code alt_port_num}
 * @param altTimeout       {@code alt_timeout}
 * @param rateLimit        {@code rate_limit}
 */
public record IbvQpAttr(int qpState, int curQpState, int pathMtu, int pathMigState, int qkey, int rqPsn, int sqPsn,
        int destQpNum, int qpAccessFlags, IbvQpCap cap, IbvAhAttr ahAttr, IbvAhAttr altAhAttr, int pkeyIndex,
        int altPkeyIndex, boolean enSqdAsyncNotify, boolean sqDraining, int maxRdAtomic, int maxDestRdAtomic,
        int minRnrTimer, int portNum, int timeout, int retryCnt, int rnrRetry, int altPortNum, int altTimeout,
        int rateLimit) {
}
