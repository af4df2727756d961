package org.jrdma.tools.traps;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.AccessDeniedException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.jrdma.RdmaException;
import org.jrdma.iba.Gid;
import org.jrdma.iba.Guid;
import org.jrdma.iba.Mad;
import org.jrdma.iba.mad.MadHeader;
import org.jrdma.iba.mad.SaFormat;
import org.jrdma.iba.sa.SaMcMemberRecord;
import org.jrdma.iba.smp.SmpNodeInfo;
import org.jrdma.iba.smp.SmpPortInfo;
import org.jrdma.mad.MadAddress;
import org.jrdma.mad.MadEngine;
import org.jrdma.mad.MadTimeoutException;
import org.jrdma.mad.ReceivedMad;
import org.jrdma.mad.SmpTarget;
import org.jrdma.tools.CNumbers;
import org.jrdma.tools.ExitCodes;
import org.jrdma.tools.PackageFabricCommand;
import picocli.CommandLine.Command;
import picocli.CommandLine.Unmatched;

/**
 * {@code ibtool mcm_rereg_test}: infiniband-diags' test of multicast re-registration, what a host
 * does after the SM asked its ports to re-register (PortInfo ClientReregister): for each port GUID
 * of a file (one per line, at most 50; default {@code port_guids.list}) it leaves and joins again, as
 * a full member, the IPoIB broadcast group of the default partition
 * ({@code ff12:401b:ffff::ffff:ffff}), by SubnAdmDelete then SubnAdmSet of an MCMemberRecord
 * (IBA 15.2.5.17; component mask MGID, PortGID, JoinState) sent to the SM's SA, on behalf of ports
 * other than the local one too (a proxy join); then it checks each port's membership with a
 * SubnAdmGet of the same record. It tells what it did on standard error, as the C tool's
 * {@code INFO:} and {@code ERR:} lines, and exits 0.
 *
 * <p>As the C tool it counts a request the SA left unanswered as a response (the kernel hands the
 * timed-out request back), reports a failed join as a TID it cannot find (the C tool looks the
 * answer's TID up among the TIDs it wrote before the kernel put its agent in their upper half, so
 * it never finds one and never resends) and does not resend it, and takes every command-line
 * argument that is not one of ibtool's port options as the file (the C tool reads no options: its
 * first argument is the file, {@code -h} included). When the local port knows no SM (MasterSMLID
 * 0) the C tool's requests to LID 0 all time out; ibtool counts them so without sending them, and
 * says why after the C tool's lines. ibtool sends each request once the one before
 * it is answered, within {@code -t}/{@code --retries} (the C tool sends them all, then waits 100 ms
 * for each answer), so a port's leave always reaches the SA before its join. python-rdma's
 * {@code --smkey} is the SM_Key of the requests (0 without it, as the C tool's) and {@code --sa-path}
 * names the SA's LID (a LID path; the DLID of another).
 */
@Command(name = "mcm_rereg_test",
        description = "Leave and join again the IPoIB broadcast group for each port GUID of a file (default port_guids.list), "
                + "as a port does after a client reregistration, then check the membership of each.")
public final class McmReregTestCommand extends PackageFabricCommand {
    /** The file the C tool reads when it is given none. */
    static final String DEFAULT_GUID_FILE = "port_guids.list";
    /** The IPoIB broadcast group of the default partition 0xffff (RFC 4391): the group the C tool re-registers. */
    static final Gid IPOIB_BROADCAST = Gid.parse("ff12:401b:ffff::ffff:ffff");
    /** How many GUIDs the C tool reads from the file at most. */
    private static final int MAX_CLIENTS = 50;
    /** How much of a line C's {@code fgets} into 256 bytes reads at once: a longer line is read as several. */
    private static final int LINE_CHUNK = 255;
    /** JoinState FullMember (IBA 15.2.5.17). */
    private static final int FULL_MEMBER = 1;
    private static final long COMPONENT_MASK = SaMcMemberRecord.MGID_COMPONENT_MASK | SaMcMemberRecord.PORT_GID_COMPONENT_MASK
            | SaMcMemberRecord.JOIN_STATE_COMPONENT_MASK;
    private static final int SA_CLASS_VERSION = 2;
    private static final int SA_DATA_OFFSET = SaFormat.DATA_BIT_OFFSET / 8;

    /** Why nothing is sent when the local port knows no SM: the C tool's requests to LID 0 all time out. */
    private static final String NO_SM = "the local port knows no subnet manager (MasterSMLID 0): nothing sent to LID 0";

    @Unmatched
    List<String> arguments = new ArrayList<>();

    /**
     * The JSON document.
     *
     * @param guidFile  the file read
     * @param problem   why it could not be read (nothing was sent then)
     * @param mgid      the group
     * @param smLid     where the SA requests went
     * @param ports     each port GUID of the file, in its order
     * @param sent      the leave and join requests sent
     * @param responses how many of them ended, answered or not (the C tool's count)
     * @param queried   the membership checks made
     */
    record Json(String guidFile, String problem, Gid mgid, Integer smLid, List<Port> ports, int sent, int responses, int queried) {
    }

    /**
     * One port's requests.
     *
     * @param guid    the port GUID of the file
     * @param portGid its GID (the link-local prefix and the GUID), the MCMemberRecord's PortGID
     * @param leave   the SubnAdmDelete
     * @param join    the SubnAdmSet
     * @param query   the SubnAdmGet
     */
    record Port(Guid guid, Gid portGid, Answer leave, Answer join, Answer query) {
    }

    /**
     * How a request ended.
     *
     * @param sent          whether it was sent (false: {@code failure} says why not)
     * @param transactionId the TID of the answer, as received (null when none came)
     * @param method        the answer's method with its R bit ({@code 0x81} GetResp, {@code 0x95} DeleteResp)
     * @param status        the answer's MAD status (0 success; 0x0200 the SA refused the request, 0x0300 no such record...)
     * @param failure       why there was no answer
     */
    record Answer(boolean sent, String transactionId, Integer method, Integer status, String failure) {
        boolean sendFailed() {
            return !sent;
        }
    }

    @Override
    protected int execute() {
        String guidFile = arguments.isEmpty() ? DEFAULT_GUID_FILE : arguments.getFirst();
        MadEngine engine;
        int smLid;
        try {
            engine = engine();
            Integer given = smPortLid();
            smLid = given != null ? given : localMasterSmLid();
        } catch (RuntimeException e) {
            // The C tool says so, then crashes on the port it did not get.
            err().print("ERR: Failed to open port\n");
            warn(e.getMessage());
            return ExitCodes.FAILED;
        }
        if (python().saPathGiven()) {
            // python-rdma's --sa-path: the SA requests go to its LID
            smLid = python().saPath(engine.transport().endPort(), () -> null).dlid();
        }
        List<Guid> guids;
        try {
            guids = readGuids(Path.of(guidFile));
        } catch (IOException e) {
            err().print("ERR: cannot open " + guidFile + ": " + strerror(e) + "\n");
            err().flush();
            return jsonRequested() ? jsonDocument(new Json(guidFile, strerror(e), IPOIB_BROADCAST, smLid, List.of(), 0, 0, 0), ExitCodes.OK)
                    : ExitCodes.OK;
        }
        PrintWriter err = err();
        MadAddress sa = MadAddress.gmp(smLid);
        err.print("INFO: rereg_send_all... cnt = " + guids.size() + "\n");
        err.flush();
        List<Answer[]> rereg = new ArrayList<>();
        for (Guid guid : guids) {
            Gid portGid = Gid.of(guid);
            Answer leave = exchange(engine, sa, Mad.METHOD_DELETE, portGid);
            Answer join = leave.sendFailed() ? null : exchange(engine, sa, Mad.METHOD_SET, portGid);
            if (leave.sendFailed() || join.sendFailed()) {
                err.print("ERR: umad_send " + (leave.sendFailed() ? "leave" : "join") + " failed: "
                        + (leave.sendFailed() ? leave : join).failure() + "\n");
                err.print("ERR: rereg_send_all: rereg_port_gid " + guid.toHexString() + " failed\n");
                err.flush();
            }
            rereg.add(new Answer[] {leave, join});
        }
        err.print("INFO: rereg_send_all: sent " + guids.size() * 2 + " requests\n");
        err.print("INFO: rereg_recv_all...\n");
        int responses = 0;
        for (Answer[] answers : rereg) {
            for (Answer answer : answers) {
                if (answer == null || answer.sendFailed()) {
                    continue;
                }
                responses++;
                if (answer.status() != null && answer.status() != 0 && (answer.method() & 0x7F) == Mad.METHOD_GET) {
                    err.print("ERR: cannot find trid " + answer.transactionId() + "\n");
                }
            }
        }
        err.print("INFO: rereg_recv_all: got " + responses + " responses\n");
        err.print("INFO: rereg_query_all...\n");
        err.flush();
        List<Port> ports = new ArrayList<>();
        for (int i = 0; i < guids.size(); i++) {
            Guid guid = guids.get(i);
            Answer query = exchange(engine, sa, Mad.METHOD_GET, Gid.of(guid));
            if (query.sendFailed()) {
                err.print("ERR: umad_send query failed: " + query.failure() + "\n");
                err.print("ERR: query_all: rereg_send failed.\n");
            } else if (query.status() != null && query.status() != 0) {
                err.printf("INFO: guid %s: status %x, method %x%n", guid.toHexString(), query.status(), query.method() & 0x7F);
            }
            err.flush();
            ports.add(new Port(guid, Gid.of(guid), rereg.get(i)[0], rereg.get(i)[1], query));
        }
        err.print("INFO: rereg_query_all: " + guids.size() + " queried.\n");
        err.flush();
        if (smLid == 0 && !guids.isEmpty()) {
            warn(NO_SM);
        }
        if (jsonRequested()) {
            return jsonDocument(new Json(guidFile, null, IPOIB_BROADCAST, smLid, ports, guids.size() * 2, responses, guids.size()),
                    ExitCodes.OK);
        }
        return ExitCodes.OK;
    }

    /** The local port's MasterSMLID (the C tool's {@code resolve_sm_portid}), read by directed route. */
    private int localMasterSmLid() {
        SmpNodeInfo node = smp().get(new SmpNodeInfo(), SmpTarget.local(), 0);
        return smp().get(new SmpPortInfo(), SmpTarget.local(), node.nodeType() == 2 ? 0 : node.localPortNum()).masterSmLid();
    }

    /**
     * Sends one MCMemberRecord request for {@code portGid}'s full membership of the group and
     * waits for its answer: the answer's TID, method and status; no answer (timed out, which the C
     * tool counts as a response); or a send that failed ({@link Answer#failure} only).
     */
    private Answer exchange(MadEngine engine, MadAddress sa, int method, Gid portGid) {
        if (sa.lid() == 0) {
            return new Answer(true, null, null, null, NO_SM);
        }
        byte[] request = new byte[SaFormat.SIZE];
        new MadHeader(request, 0).baseVersion(Mad.BASE_VERSION).mgmtClass(Mad.CLASS_SUBN_ADM).classVersion(SA_CLASS_VERSION)
                .method(method).attributeId(SaMcMemberRecord.ATTRIBUTE_ID);
        new SaFormat(request, 0).componentMask(COMPONENT_MASK).smKey(python().smKey());
        new SaMcMemberRecord().mgid(IPOIB_BROADCAST).portGid(portGid).joinState(FULL_MEMBER).pack(request, SA_DATA_OFFSET);
        try {
            ReceivedMad reply = engine.execute(request, sa, madTimeout(), madRetries());
            MadHeader header = new MadHeader(reply.mad(), 0);
            return new Answer(true, String.format("0x%016x", header.transactionId()), (header.r() << 7) | header.method(), header.status(), null);
        } catch (MadTimeoutException e) {
            return new Answer(true, null, null, null, e.getMessage());
        } catch (RdmaException e) {
            return new Answer(false, null, null, null, e.getMessage());
        }
    }

    /**
     * The port GUIDs of the file as the C tool reads them: each line (in pieces of 255 bytes, as
     * {@code fgets} reads a longer one) is a number for {@code strtoull(line, NULL, 0)}, so a line
     * without one is GUID 0; at most 50. A directory reads as empty, as C's {@code fopen} opens it.
     */
    static List<Guid> readGuids(Path file) throws IOException {
        if (Files.isDirectory(file)) {
            return List.of();
        }
        String text = new String(Files.readAllBytes(file), StandardCharsets.ISO_8859_1);
        List<Guid> guids = new ArrayList<>();
        int at = 0;
        while (at < text.length() && guids.size() < MAX_CLIENTS) {
            int newline = text.indexOf('\n', at);
            int end = Math.min(newline < 0 ? text.length() : newline + 1, at + LINE_CHUNK);
            guids.add(new Guid(CNumbers.strtoul(text.substring(at, end))));
            at = end;
        }
        return guids;
    }

    /** What C's {@code strerror} says of the failure to open a file. */
    private static String strerror(IOException e) {
        return switch (e) {
            case NoSuchFileException _ -> "No such file or directory";
            case AccessDeniedException _ -> "Permission denied";
            default -> e.getMessage();
        };
    }
}
