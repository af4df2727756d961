package org.jrdma.tools.compat;

import java.util.List;

/**
 * One check a script made, as {@code --json} reports it: which script's ({@code node},
 * {@code port}, {@code portstate}, {@code portwidth}, {@code errors}), on which LID and port, its
 * verdict and what it found.
 *
 * @param check    the check: {@code node} (ibchecknode), {@code port}, {@code portstate},
 *                 {@code portwidth} (ibcheckport...), {@code errors} (ibcheckerrs)
 * @param lid      the LID checked, as the script has it (a port GUID's after {@code -G})
 * @param port     the port checked ({@code 255}: every port of a switch), absent for a node check
 * @param ok       whether the check passed (the script's {@code OK}; {@code FAILED} otherwise)
 * @param findings what it printed about the failure, colours left out: {@code #warn: ...} and
 *                 {@code #error: ...} lines, libibmad's messages, {@code address resolution: FAILED}
 */
record Check(String check, String lid, String port, boolean ok, List<String> findings) {
}
