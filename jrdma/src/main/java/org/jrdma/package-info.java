/**
 * The jrdma library's entry points and its exception hierarchy, rooted at
 * {@link org.jrdma.RdmaException}.
 */
package org.jrdma;
