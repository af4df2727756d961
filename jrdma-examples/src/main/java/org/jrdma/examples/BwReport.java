package org.jrdma.examples;

/**
 * The result of a bandwidth run as perftest reports it ({@code struct bw_report_data}) and
 * prints it ({@code print_full_bw_report}): message size, iterations, peak and average bandwidth
 * in MiB/s or Gbit/s, and message rate in millions of messages per second.
 *
 * @param size    bytes per message
 * @param iters   messages counted
 * @param peak    peak bandwidth (0 when not measured)
 * @param average average bandwidth
 * @param msgRate message rate, Mpps
 */
record BwReport(long size, long iters, double peak, double average, double msgRate) {
    /** perftest's {@code RESULT_LINE}. */
    static final String RESULT_LINE = "-".repeat(87);

    /** The column header ({@code RESULT_FMT} or {@code RESULT_FMT_G}). */
    static String header(boolean gbits) {
        String unit = gbits ? "Gb/sec" : "MB/sec";
        return " #bytes     #iterations    BW peak[" + unit + "]    BW average[" + unit + "]   MsgRate[Mpps]";
    }

    /**
     * The row ({@code REPORT_FMT}, or {@code REPORT_FMT_EXT} with six decimals when an average
     * below 0.1 Gbit/s would print as 0.0x).
     */
    String row(boolean gbits) {
        if (gbits && average < 0.1) {
            return " " + CFormat.left(Long.toString(size), 7) + "    " + iters + "           "
                    + CFormat.fixedLeft(peak, 7, 6) + "            " + CFormat.fixedLeft(average, 7, 6)
                    + "            " + CFormat.fixedLeft(msgRate, 7, 6);
        }
        return " " + CFormat.left(Long.toString(size), 7) + "    " + CFormat.left(Long.toString(iters), 10)
                + "       " + CFormat.fixedLeft(peak, 7, 2) + "            " + CFormat.fixedLeft(average, 7, 2)
                + "\t\t   " + CFormat.fixedLeft(msgRate, 7, 6);
    }
}
