package org.jrdma.tools;

import java.io.PrintWriter;

/**
 * The column headings infiniband-diags prints above a switch's multicast forwarding table
 * (ibroute -M, dump_fts -M): with -n one line, else the port numbers 0..N as tens and units.
 */
public final class MulticastTableHeader {
    private MulticastTableHeader() {
    }

    /** Prints the headings of a table of {@code nports} ports ({@code brief}: -n, no port columns). */
    public static void print(PrintWriter out, int nports, boolean brief) {
        if (brief) {
            out.print(" MLid       Port Mask\n");
            return;
        }
        if (nports > 9) {
            StringBuilder tens = new StringBuilder();
            for (int i = 0; i <= nports; i++) {
                tens.append(i % 10 != 0 ? ' ' : (char) ('0' + i / 10)).append(' ');
            }
            out.print("            " + tens + "\n");
        }
        StringBuilder units = new StringBuilder();
        for (int i = 0; i <= nports; i++) {
            units.append(i % 10).append(' ');
        }
        out.print("     Ports: " + units + "\n");
        out.print(" MLid\n");
    }
}
