/**
 * The jrdma library's entry points ({@link org.jrdma.Rdma}) and the base of its exception
 * hierarchy, rooted at {@link org.jrdma.RdmaException}. Two layers share this package: the
 * exceptions use only the JDK and every package uses them; {@code Rdma} uses the packages and
 * none of them uses it.
 */
package org.jrdma;
