/**
 * InfiniBand Architecture (IBA) data types: 64-bit GUIDs, 128-bit GIDs, LIDs, and the numeric
 * constants of the specification (node types, port states, MTU and rate encodings, MAD methods,
 * status codes, management classes, default P_Key and Q_Key values).
 */
package org.jrdma.iba;
