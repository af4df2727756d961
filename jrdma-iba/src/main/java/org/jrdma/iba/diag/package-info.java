/**
 * Printers that print IBA structures exactly as infiniband-diags 44 does ({@code smpquery},
 * {@code perfquery}, {@code saquery}), byte for byte, so that jrdma's tools and tests can be
 * compared with the C tools line by line.
 *
 * <p>The printing is table-driven. A {@link org.jrdma.iba.diag.Table} lists, for one structure,
 * the lines a tool prints: the tool's label, the field of the generated class (by name, as in
 * its {@code fields()}), and a {@link org.jrdma.iba.diag.Format} (decimal, libibmad's
 * width-padded hex, the enumeration texts of {@code org.jrdma.iba}'s enums, link width and speed
 * masks, capability masks, ...). A {@link org.jrdma.iba.diag.Padding} says how labels are padded
 * (libibmad's {@code Name:....} to column 34, saquery's fixed dots). Runs of array elements
 * (P_Keys, GUIDs, SL-to-VL and VL arbitration tables) are {@link org.jrdma.iba.diag.Grid}s. The
 * tables are constants of {@link org.jrdma.iba.diag.Tables}; adding an attribute is adding a
 * table there. {@link org.jrdma.iba.diag.SmpQuery}, {@link org.jrdma.iba.diag.PerfQuery} and
 * {@link org.jrdma.iba.diag.SaQuery} add the tools' header lines and multi-block layouts.
 *
 * <p>Known departures of the C tools that the tables reproduce on purpose: libibmad's
 * PortCounters QP1Dropped field reads the bits of VL15Dropped, so perfquery prints VL15Dropped's
 * value on both lines; perfquery prints PortXmitWait as 0 when the PerfMgt CapabilityMask does
 * not announce it.
 */
package org.jrdma.iba.diag;
