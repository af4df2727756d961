package org.jrdma.tools.traps;

import java.util.Arrays;
import java.util.List;
import org.jrdma.RdmaException;
import org.jrdma.iba.Mad;
import org.jrdma.iba.mad.MadHeader;
import org.jrdma.iba.mad.SmpFormat;
import org.jrdma.iba.smp.SmpNodeInfo;
import org.jrdma.iba.smp.SmpNotice;
import org.jrdma.iba.smp.SmpPortInfo;
import org.jrdma.iba.wire.MadDecoder;
import org.jrdma.mad.MadAddress;
import org.jrdma.mad.MadTimeoutException;
import org.jrdma.mad.ReceivedMad;
import org.jrdma.mad.SmpTarget;
import org.jrdma.tools.DiagError;
import org.jrdma.tools.CNumbers;
import org.jrdma.tools.ExitCodes;
import org.jrdma.tools.PackageFabricCommand;
import org.jrdma.tools.UsageException;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;

/**
 * {@code ibtool ibsendtrap}: infiniband-diags' test program that makes the local port send one
 * trap to the subnet manager, a SubnTrap(Notice) (IBA 13.4.9, 14.2.5), as a port reporting a real
 * event would: a node description or LinkSpeedEnabled change (trap 144), the local link integrity
 * threshold reached at a port (129), a new SystemImageGUID (145), a bad M_Key (256, LID-routed or
 * directed route), a bad P_Key or Q_Key (257, 258) ({@link Trap}). The SMP goes LID-routed to the
 * SM's LID (the local port's MasterSMLID, or {@code -s/--sm_port}) with M_Key 0, as the C tool sends it.
 *
 * <p>Like the C tool it sends the trap once, prints nothing and exits 0 once it is sent, and 2 after
 * its usage message for a trap name it does not know. Unlike it, ibtool then waits {@code -t} for
 * the TrapRepress the SM answers a trap with (IBA 13.4.9) and says on standard error when none
 * came; the exit status stays 0, as the C tool's, which never waits. It does not resend the trap
 * (IBA would, until repressed): the SM gets one trap per run, as from the C tool, whose repeats it
 * counts (OpenSM ignores the same trap after ten within its aging time). {@code --json} writes the
 * notice sent and whether it was repressed.
 */
@Command(name = "ibsendtrap", mixinStandardHelpOptions = true,
        description = "Send a trap (a SubnTrap of a Notice) from the local port to the subnet manager: node_desc_change (default), "
                + "link_speed_enabled_change, local_link_integrity, sys_image_guid_change, mkey_lid, mkey_dr, pkey, qkey.")
public final class IbsendtrapCommand extends PackageFabricCommand {
    /** The port trap 129 names when the command line gives none. */
    private static final int DEFAULT_ERROR_PORT = 1;

    @Parameters(arity = "0..*", paramLabel = "[<trap_name>] [<error_port>]",
            description = "the trap (default node_desc_change) and, for local_link_integrity, the port it names (default 1); more arguments are ignored, as by the C tool")
    List<String> operands = List.of();

    /**
     * The JSON document: the trap sent and its answer.
     *
     * @param trap          the trap's name on the command line
     * @param trapNumber    its number
     * @param issuerLid     the local port's LID
     * @param smLid         where the SubnTrap went
     * @param transactionId its TID
     * @param notice        the Notice sent (the SMP carries its first 64 bytes)
     * @param trapRepressed whether the SM answered with a TrapRepress
     * @param problem       why not, when it did not
     */
    record Json(String trap, int trapNumber, int issuerLid, int smLid, String transactionId, SmpNotice notice, boolean trapRepressed,
            String problem) {
    }

    @Override
    protected int execute() {
        Trap trap = operands.isEmpty() ? Trap.NODE_DESC_CHANGE : Trap.named(operands.getFirst())
                .orElseThrow(() -> new UsageException(null, "unknown trap name \"" + operands.getFirst() + "\"; known: "
                        + String.join(", ", Arrays.stream(Trap.values()).map(t -> t.cName).toList())));
        int errorPort = operands.size() > 1 ? CNumbers.atoi(operands.get(1)) : DEFAULT_ERROR_PORT;
        Integer givenSm = smPortLid();
        SmpNodeInfo node;
        SmpPortInfo port;
        try {
            node = smp().get(new SmpNodeInfo(), SmpTarget.local(), 0);
            port = smp().get(new SmpPortInfo(), SmpTarget.local(), node.nodeType() == 2 ? 0 : node.localPortNum());
        } catch (RdmaException e) {
            throw DiagError.exit("can't resolve self", e);
        }
        int smLid = givenSm != null ? givenSm : port.masterSmLid();
        SmpNotice notice = trap.notice(port.lid(), node.nodeType(), port.capabilityMask(), errorPort);
        byte[] request = new byte[MadDecoder.MAD_SIZE];
        new MadHeader(request, 0).baseVersion(Mad.BASE_VERSION).mgmtClass(Mad.CLASS_SUBN_LID_ROUTED).classVersion(1)
                .method(Mad.METHOD_TRAP).attributeId(SmpNotice.ATTRIBUTE_ID);
        new SmpFormat(request, 0).data(Arrays.copyOf(notice.toBytes(), Trap.SMP_DATA_SIZE));
        String problem = null;
        if (smLid == 0) {
            // The C tool sends to LID 0 all the same; nobody can answer there.
            new MadHeader(request, 0).transactionId(engine().newTransactionId());
            engine().send(request, MadAddress.smp(smLid));
            problem = "the local port knows no subnet manager (MasterSMLID 0): the trap went to LID 0, no TrapRepress awaited";
        } else {
            try {
                ReceivedMad reply = engine().execute(request, MadAddress.smp(smLid), madTimeout(), 0);
                int method = new MadHeader(reply.mad(), 0).method();
                if (method != Mad.METHOD_TRAP_REPRESS) {
                    problem = String.format("LID %d answered the trap with method 0x%02x, not TrapRepress", smLid, method);
                }
            } catch (MadTimeoutException e) {
                problem = "no TrapRepress from LID " + smLid + ": " + e.getMessage();
            }
        }
        if (jsonRequested()) {
            String tid = String.format("0x%016x", new MadHeader(request, 0).transactionId());
            return jsonDocument(new Json(trap.cName, trap.number, port.lid(), smLid, tid, notice, problem == null, problem), ExitCodes.OK);
        }
        if (problem != null) {
            warn(problem);
        }
        return ExitCodes.OK;
    }

}
