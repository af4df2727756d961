package org.jrdma.tools;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.jrdma.iba.wire.DecodedMad;
import org.jrdma.iba.wire.IbaStruct;
import org.jrdma.iba.wire.MadDecoder;
import org.jrdma.iba.wire.MalformedMadException;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code ibtool decode_mad}: decodes a MAD given in hex, as python-rdma's {@code ibtool
 * decode_mad} does; there is no infiniband-diags tool of that name. The hex comes from the
 * arguments or, without any, from standard input; blanks and line breaks are ignored, so the
 * output of {@code smpdump}-style dumps and of {@code xxd -p} can be pasted as they are.
 *
 * <p>It prints the common MAD header (IBA 13.4.2) and then the attribute its management class and
 * AttributeID name, or every record of an SA GetTable response, each in jrdma's dotted form
 * ({@link IbaStruct#toDottedString()}: the IBA name, then one {@code name....value} line per
 * component). An attribute jrdma has no description of is named by its class and ID.
 */
@Command(name = "decode_mad", mixinStandardHelpOptions = true,
        description = "Decode a MAD given in hex (arguments, or standard input) and print its header and attribute.")
final class DecodeMadCommand extends IbtoolCommand {
    /** The most hex text read from standard input: an RMPP-reassembled SA response of 512 KiB. */
    private static final int MAX_INPUT_CHARS = 1 << 20;

    @Option(names = {"-o", "--offset"}, paramLabel = "BYTES", defaultValue = "0", description = "skip this many bytes before the MAD")
    int offset;

    @Parameters(arity = "0..*", paramLabel = "HEX", description = "the MAD in hex (default: read standard input)")
    List<String> hex;

    @Override
    int run() throws IOException {
        byte[] bytes = parseHex(hex == null || hex.isEmpty() ? readStandardInput() : String.join("", hex));
        if (offset < 0 || offset > bytes.length) {
            throw new UsageException("--offset " + offset + " outside the " + bytes.length + " bytes given");
        }
        DecodedMad mad;
        try {
            mad = MadDecoder.decode(bytes, offset, bytes.length - offset);
        } catch (MalformedMadException e) {
            throw new UsageException("not a MAD: " + e.getMessage());
        }
        if (json()) {
            return json(new Json(mad.header().ibaName(), mad.header(), mad.records().isEmpty() ? null : mad.records().getFirst().ibaName(),
                    mad.records()), ExitCodes.OK);
        }
        out().print(mad.header().toDottedString());
        if (mad.records().isEmpty()) {
            out().printf("attribute 0x%04x of management class 0x%02x: jrdma has no description of it%n", mad.header().attributeId(),
                    mad.header().mgmtClass());
        }
        for (IbaStruct record : mad.records()) {
            out().print(record.toDottedString());
        }
        return ExitCodes.OK;
    }

    private static String readStandardInput() throws IOException {
        InputStream in = System.in;
        byte[] text = in.readNBytes(MAX_INPUT_CHARS + 1);
        if (text.length > MAX_INPUT_CHARS) {
            throw new UsageException("more than " + MAX_INPUT_CHARS + " characters on standard input");
        }
        return new String(text, StandardCharsets.ISO_8859_1);
    }

    /** Hex digits, blanks and line breaks ignored, to bytes. */
    private static byte[] parseHex(String text) {
        StringBuilder digits = new StringBuilder(text.length());
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F') {
                digits.append(c);
            } else if (!Character.isWhitespace(c)) {
                throw new UsageException("character '" + c + "' at index " + i + " of the input is not a hex digit");
            }
        }
        if (digits.isEmpty() || digits.length() % 2 != 0) {
            throw new UsageException("expected whole bytes of hex, got " + digits.length() + " hex digits");
        }
        byte[] bytes = new byte[digits.length() / 2];
        for (int i = 0; i < bytes.length; i++) {
            bytes[i] = (byte) Integer.parseInt(digits, 2 * i, 2 * i + 2, 16);
        }
        return bytes;
    }

    /**
     * {@code --json}: the MAD's header by field ({@code headerName} its IBA name, e.g. {@code SMP}),
     * then its attribute's records by field ({@code recordName} their IBA name, absent with no
     * records when jrdma has no description of the attribute).
     */
    record Json(String headerName, IbaStruct header, String recordName, List<IbaStruct> records) {
    }
}
