/**
 * Internal: libibverbs through the Foreign Function &amp; Memory API. The only place that knows
 * the C structures ({@link org.jrdma.verbs.ffi.Structs}, checked against verbs.h by a test
 * compiled with gcc) and makes downcalls; every failure becomes a
 * {@link org.jrdma.SysException} in one place,
 * {@link org.jrdma.ffi.Errors}. It knows nothing of {@code org.jrdma.verbs}: it
 * takes and gives primitive values and records of its own mirroring the C structures
 * ({@code IbvQpAttr}, {@code IbvAhAttr}...), which the verbs package maps to its types. Not
 * exported.
 */
package org.jrdma.verbs.ffi;
