/**
 * Management datagrams (MADs, IBA chapter 13) and the RPCs made of them, python-rdma's
 * {@code rdma.madtransactor}, {@code rdma.sched} and {@code rdma.satransactor}.
 *
 * <ul>
 *   <li>{@link org.jrdma.mad.MadTransactor}: the IBA RPCs (SubnGet/Set, SubnAdmGet/GetTable/Set/
 *       Delete/GetMulti, PerformanceGet/Set, BMGet/Set, DevMgtGet/Set, CommMgtGet/Set/Send,
 *       VendGet/Set) on {@link org.jrdma.path.IBPath paths}, reply validation into the
 *       {@link org.jrdma.mad.MadException} family, redirection, and the server side (parseRequest,
 *       sendReply, sendErrorReply, sendErrorException);
 *       {@link org.jrdma.mad.SaTransactor} answers SubnGet from the SA, and
 *       {@link org.jrdma.mad.PathResolver} completes paths from PathRecords;</li>
 *   <li>{@link org.jrdma.mad.MadEngine}: TIDs, timeouts and resends, busy retries, the bound on
 *       MADs in flight, incoming requests, and RMPP (IBA 13.6) where the transport has none;</li>
 *   <li>{@link org.jrdma.mad.MadTransport}: the kernel's umad ({@code org.jrdma.mad.umad}) or an
 *       ibsim fabric ({@code org.jrdma.mad.sim});</li>
 *   <li>{@link org.jrdma.mad.MadSchedule}: many RPCs in parallel on virtual threads;</li>
 *   <li>{@link org.jrdma.mad.SmpClient} and {@link org.jrdma.mad.GmpClient}: SubnGet/Set to LIDs
 *       and directed routes, and PerfMgt and SA requests to LIDs, with fixed timeouts, for tools;</li>
 *   <li>{@link org.jrdma.mad.MadTracer} and {@link org.jrdma.mad.MadDump}: traces and decoded dumps.</li>
 * </ul>
 */
package org.jrdma.mad;
