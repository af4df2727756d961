/**
 * Internal: libibverbs through the Foreign Function &amp; Memory API. The only place that knows
 * the C structures ({@link org.jrdma.verbs.ffi.Structs}, checked against verbs.h by a test
 * compiled with gcc) and makes downcalls; every failure becomes a
 * {@link org.jrdma.SysException} through {@link org.jrdma.ffi.Errors}. Not exported.
 */
package org.jrdma.verbs.ffi;
