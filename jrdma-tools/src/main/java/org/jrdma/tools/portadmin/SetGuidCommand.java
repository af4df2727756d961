package org.jrdma.tools.portadmin;

import java.util.function.IntFunction;
import org.jrdma.RdmaException;
import org.jrdma.iba.Guid;
import org.jrdma.iba.sa.SaGuidInfoRecord;
import org.jrdma.iba.smp.SmpPortInfo;
import org.jrdma.mad.SmpTarget;
import org.jrdma.path.IBPath;
import org.jrdma.tools.CmdError;
import org.jrdma.tools.EndPortTargetOptions;
import org.jrdma.tools.ExitCodes;
import org.jrdma.tools.PackageFabricCommand;
import org.jrdma.tools.PathTarget;
import org.jrdma.tools.SaRecordPrinter;
import org.jrdma.tools.UsageException;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code ibtool set_guid}: python-rdma's command that programs an alias GUID on an end port through
 * the subnet administrator, a SubnAdmSet(GUIDInfoRecord) (IBA 15.2.5.18) for the port's LID with the
 * GUID in one slot of the GUIDInfo table (slot / 8 the block, slot % 8 the entry, and only that
 * entry's component in the ComponentMask), sent to the SA at the local port's SM LID. The SA's
 * answer, the block as it now stands, is printed as saquery prints a GUIDInfoRecord (python-rdma
 * prints its own dump of the record). OpenSM refuses slot 0 (the port GUID, read-only), a block
 * beyond the port's GUIDCap and an untrusted requester's change as SA errors, which end the
 * command as python-rdma's do: {@code E: ...}, status 100. python-rdma's {@link org.jrdma.tools.PythonRdmaOptions}:
 * the SubnAdmSet goes on {@code --sa-path} with {@code --smkey}, and {@code --int-names} prints the
 * record by its IBA field names ({@code toDottedString}) instead of saquery's.
 *
 * <p>{@code --json} writes the answered record: {@code {lid, blockNum, guidInfo: {guid0 ... guid7}}}.
 */
@Command(name = "set_guid", mixinStandardHelpOptions = true,
        description = "Set an alias GUID on a port through the SA (python-rdma): SubnAdmSet(GUIDInfoRecord) for SLOT of the port's GUIDInfo.")
public final class SetGuidCommand extends PackageFabricCommand {
    /** The first GUIDInfo entry's component number in a GUIDInfoRecord's ComponentMask (after LID, BlockNum and two reserved). */
    private static final int FIRST_GUID_COMPONENT = 4;
    private static final int GUIDS_PER_BLOCK = 8;
    private static final int GUID_INFO_BYTE_OFFSET = 8;
    private static final int GUID_BYTES = 8;

    @Mixin
    EndPortTargetOptions targetOptions;

    @Parameters(index = "0", paramLabel = "TARGET", description = "the end port: LID, GUID, GID, directed route or IBPath(...) specification")
    String target;

    @Parameters(index = "1", paramLabel = "SLOT", description = "the GUIDInfo entry, 1..: block SLOT/8, entry SLOT%%8 (0x-hex or decimal)")
    String slot;

    @Parameters(index = "2", paramLabel = "GUID", description = "the alias GUID, 0002:c903:0000:1491 or 0x0002c90300001491")
    String alias;

    @Override
    protected int execute() {
        PathTarget at = targetOptions.target(target, 1);
        int slotNumber = slotNumber(slot);
        Guid value;
        try {
            value = Guid.parse(alias);
        } catch (IllegalArgumentException e) {
            throw new CmdError("Invalid command line argument #3 '" + alias + "' - " + e.getMessage());
        }
        try {
            SmpPortInfo local = smp().get(new SmpPortInfo(), new SmpTarget.DirectedRoute(new int[0]), 0);
            int block = slotNumber / GUIDS_PER_BLOCK;
            IntFunction<IBPath> saPath = smLid -> python().saPath(engine().transport().endPort(), () -> IBPath.builder(null).dlid(smLid).build());
            byte[] bytes = new SaGuidInfoRecord().lid(at.lid(smp(), transactor(), saPath)).blockNum(block).toBytes();
            value.writeTo(bytes, GUID_INFO_BYTE_OFFSET + GUID_BYTES * (slotNumber % GUIDS_PER_BLOCK));
            long mask = SaGuidInfoRecord.LID_COMPONENT_MASK | SaGuidInfoRecord.BLOCK_NUM_COMPONENT_MASK
                    | 1L << (FIRST_GUID_COMPONENT + slotNumber % GUIDS_PER_BLOCK);
            SaGuidInfoRecord answer = transactor().subnAdmSet(SaGuidInfoRecord.decode(bytes, 0), mask,
                    saPath.apply(local.masterSmLid()));
            if (jsonRequested()) {
                return jsonDocument(answer, ExitCodes.OK);
            }
            out().print(python().intNames() ? answer.toDottedString() : SaRecordPrinter.guidInfo(answer.toBytes()));
            return ExitCodes.OK;
        } catch (RdmaException e) {
            throw new CmdError(e);
        }
    }

    private static int slotNumber(String text) {
        try {
            int value = text.startsWith("0x") ? Integer.parseInt(text.substring(2), 16) : Integer.parseInt(text);
            if (value < 0 || value >= 256 * GUIDS_PER_BLOCK) {
                throw new UsageException(null, "SLOT " + value + " outside 0.." + (256 * GUIDS_PER_BLOCK - 1));
            }
            return value;
        } catch (NumberFormatException e) {
            throw new UsageException(null, "bad SLOT \"" + text + "\": a number (decimal, or 0x-hex)");
        }
    }
}
