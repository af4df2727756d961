/**
 * MADs over verbs, python-rdma's {@code rdma.vmad}: {@link org.jrdma.mad.verbs.VMad} is a MAD
 * transport that sends and receives GMPs (SA queries, performance management, communication
 * management, vendor classes) on a UD queue pair of its own, so that the MAD engine, the
 * transactors and the server side run without the kernel's {@code ib_umad}.
 */
package org.jrdma.mad.verbs;
