package org.jrdma.tools;

import java.io.PrintWriter;
import java.util.Arrays;
import org.jrdma.iba.Mad;
import org.jrdma.iba.mad.SmpDirectedFormat;
import org.jrdma.iba.mad.SmpFormat;
import org.jrdma.iba.wire.Bits;
import org.jrdma.iba.wire.MadDecoder;
import org.jrdma.mad.MadAddress;
import org.jrdma.mad.MadTimeoutException;
import org.jrdma.mad.ReceivedMad;
import org.jrdma.mad.SmpTarget;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code ibtool smpdump}: sends a SubnGet for any attribute ID and prints the 64 bytes of SMP data
 * that come back in libibmad's {@code xdump} layout, or with {@code -s} as text, followed by the
 * reply's raw status word when it is not zero ({@code 0x8000} on every directed-route reply, whose
 * status carries the direction bit), as infiniband-diags' smpdump does.
 *
 * <p>Differences: when no reply comes the C tool ignores the receive's timeout status, prints the 64
 * zero bytes of its own request and exits 0 (or, if ibsim drops the request silently, waits for
 * ever); this command does what its receive check evidently means, {@code IBPANIC("recv error")}:
 * {@code ibpanic: [pid] main: recv error: Connection timed out} on standard error, status 255.
 * {@code -G} (a port GUID resolved by the SA) is an addition.
 */
@Command(name = "smpdump", mixinStandardHelpOptions = true,
        description = "Send a SubnGet of any attribute and dump the SMP data of the reply.")
final class SmpdumpCommand extends FabricCommand {
    private static final int DATA_OFFSET = 64;
    private static final int DATA_SIZE = 64;

    @Mixin
    AddressOptions address;

    @Option(names = {"-s", "--string"}, description = "print the data as text (up to its first NUL)")
    boolean string;

    @Parameters(index = "0", paramLabel = "DEST", description = "a LID, with -D a directed route 0,port,..., with -G a port GUID")
    String destination;

    @Parameters(index = "1", paramLabel = "ATTR", description = "the attribute ID, decimal or 0x-hex (0x11 NodeInfo, 0x15 PortInfo, ...)")
    String attribute;

    @Parameters(index = "2", arity = "0..1", paramLabel = "MOD", defaultValue = "0", description = "the attribute modifier (default: ${DEFAULT-VALUE})")
    String modifier;

    @Override
    int run() {
        int attributeId = (int) number(attribute, 0xFFFF, "ATTR");
        long attributeModifier = number(modifier, 0xFFFF_FFFFL, "MOD");
        RouteOrGuidOptions.Address at = address.parse(destination);
        Destination d = at.resolve(smp(), fabric);
        byte[] request = new byte[MadDecoder.MAD_SIZE];
        MadAddress to = build(request, d.target(), attributeId, attributeModifier, fabric.mKey);
        ReceivedMad reply;
        try {
            reply = engine().execute(request, to, fabric.timeout(), fabric.retries());
        } catch (MadTimeoutException e) {
            throw DiagError.panic("main", "recv error", "Connection timed out", e);
        }
        byte[] mad = reply.mad();
        if (json()) {
            return json(new Json(d.portId().toString(), attributeId, attributeModifier, Bits.u16(mad, 4),
                    Arrays.copyOfRange(mad, DATA_OFFSET, DATA_OFFSET + DATA_SIZE), string ? Bits.text(mad, DATA_OFFSET, DATA_SIZE) : null),
                    ExitCodes.OK);
        }
        PrintWriter out = out();
        if (string) {
            out.print(Bits.text(mad, DATA_OFFSET, DATA_SIZE) + "\n");
        } else {
            out.print(xdump(mad, DATA_OFFSET, DATA_SIZE));
        }
        int status = Bits.u16(mad, 4);
        if (status != 0) {
            out.printf("SMP status: 0x%x%n", status);
        }
        return ExitCodes.OK;
    }

    /** Parses a number as C's strtoul with base 0 reads it (decimal, or hex after 0x; not octal). */
    private static long number(String text, long max, String what) {
        boolean hex = text.startsWith("0x") || text.startsWith("0X");
        try {
            long value = Long.parseLong(hex ? text.substring(2) : text, hex ? 16 : 10);
            if (value < 0 || value > max || !hex && text.length() > 1 && text.startsWith("0")) {
                throw new NumberFormatException();
            }
            return value;
        } catch (NumberFormatException e) {
            throw new UsageException(String.format("%s \"%s\" is not a number in 0..0x%x (decimal without leading zeros, or 0x-hex)",
                    what, text, max));
        }
    }

    /** A SubnGet request (LID-routed or directed-route, as the target says) carrying {@code mKey}, and where to send it. */
    private static MadAddress build(byte[] mad, SmpTarget target, int attributeId, long modifier, long mKey) {
        return switch (target) {
            case SmpTarget.Lid lid -> {
                new SmpFormat(mad, 0).mKey(mKey).header().baseVersion(1).mgmtClass(Mad.CLASS_SUBN_LID_ROUTED).classVersion(1)
                        .method(Mad.METHOD_GET).attributeId(attributeId).attributeModifier(modifier);
                yield MadAddress.smp(lid.lid());
            }
            case SmpTarget.DirectedRoute dr -> {
                SmpDirectedFormat smp = new SmpDirectedFormat(mad, 0).baseVersion(1).mgmtClass(Mad.CLASS_SUBN_DIRECTED_ROUTE)
                        .classVersion(1).method(Mad.METHOD_GET).hopPointer(0).hopCount(dr.hops()).attributeId(attributeId)
                        .attributeModifier(modifier).mKey(mKey).drSlid(MadAddress.PERMISSIVE_LID).drDlid(MadAddress.PERMISSIVE_LID);
                int[] ports = dr.ports();
                for (int i = 0; i < ports.length; i++) {
                    smp.initialPath(i + 1, ports[i]);
                }
                yield MadAddress.smp(MadAddress.PERMISSIVE_LID);
            }
        };
    }

    /** libibmad's {@code xdump}: bytes in lower-case hex, two to a group, a blank between groups, eight groups a line. */
    private static String xdump(byte[] bytes, int offset, int length) {
        StringBuilder out = new StringBuilder();
        int i = 0;
        while (i < length) {
            out.append(String.format("%02x", bytes[offset + i] & 0xFF));
            if (++i >= length) {
                break;
            }
            out.append(String.format("%02x", bytes[offset + i] & 0xFF));
            out.append(++i % 16 != 0 ? ' ' : '\n');
        }
        if (i % 16 != 0) {
            out.append('\n');
        }
        return out.toString();
    }

    /**
     * {@code --json}: where the SubnGet went, the attribute and modifier asked, the reply's MAD status
     * and its 64 bytes of SMP data in hex ({@code text}: the data as text, with {@code -s}).
     */
    record Json(String destination, int attributeId, long attributeModifier, int status, byte[] data, String text) {
    }
}
