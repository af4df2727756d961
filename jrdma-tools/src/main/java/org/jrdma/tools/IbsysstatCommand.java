package org.jrdma.tools;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import org.jrdma.RdmaException;
import org.jrdma.iba.mad.OpenIbSysstatCpu;
import org.jrdma.iba.mad.OpenIbSysstatHost;
import org.jrdma.iba.mad.OpenIbSysstatPing;
import org.jrdma.iba.wire.IbaStruct;
import org.jrdma.mad.IncomingRequest;
import org.jrdma.mad.MadException;
import org.jrdma.mad.MadTimeoutException;
import org.jrdma.mad.MadTransactor;
import org.jrdma.mad.ReceivedMad;
import org.jrdma.path.IBPath;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code ibtool ibsysstat}: infiniband-diags' ibsysstat over OpenIB's vendor class 0x33 (OUI
 * 0x001405). The client asks a port's server for {@code ping} (the default: {@code sysstat ping
 * succeeded}), {@code host} (its host and domain name) or {@code cpu} (a line per CPU, {@code cpu
 * N: model M MHZ F}, from /proc/cpuinfo); the server ({@code -S}) answers them until stopped. The
 * ibtool server answers the CPU list in one MAD (the first 215 bytes; the C server sends a longer
 * list by RMPP).
 */
@Command(name = "ibsysstat", mixinStandardHelpOptions = true,
        description = "Ask a port's sysstat server for a ping, its host name or its CPUs, or serve such requests (-S).")
final class IbsysstatCommand extends VendorPingCommand {
    /** OpenIB's sysstat class, {@code IB_VENDOR_OPENIB_SYSSTAT_CLASS}. */
    static final int SYSSTAT_CLASS = 0x33;
    private static final int DATA_OFFSET = 40;
    private static final List<String> OPS = List.of("ping", "host", "cpu");

    @Option(names = {"-S", "--Server"}, description = "start in server mode")
    boolean server;

    @Parameters(index = "0", arity = "0..1", paramLabel = "<dest lid|guid>", description = "the port to ask")
    String dest;

    @Parameters(index = "1", arity = "0..1", paramLabel = "<op>", description = "ping (the default), host or cpu")
    String op;

    @Override
    int run() {
        if (dest == null && !server) {
            throw new UsageException("ibsysstat needs a destination, or -S to serve");
        }
        if (op != null && !OPS.contains(op)) {
            throw new UsageException("unknown operation \"" + op + "\": ping, host or cpu");
        }
        int vendorOui = oui();
        if (server) {
            serve(SYSSTAT_CLASS, vendorOui);
            return ExitCodes.OK;
        }
        int lid = resolveLid(dest);
        IBPath path = IBPath.builder(null).dlid(lid).build();
        MadTransactor transactor = new MadTransactor(engine(), null).withTimeouts(fabric.timeout(), 0);
        String operation = op == null ? "ping" : op;
        IbaStruct request = switch (operation) {
            case "host" -> new OpenIbSysstatHost();
            case "cpu" -> new OpenIbSysstatCpu();
            default -> new OpenIbSysstatPing();
        };
        byte[] answer;
        try {
            answer = get(transactor, request, vendorOui, path).toBytes();
        } catch (MadTimeoutException e) {
            if (e.getMessage() != null && e.getMessage().contains(": no response after ")) {
                throw DiagError.panic("ibsystat", "umad_recv failed.", "Connection timed out", e);
            }
            throw DiagError.exit("ibsystat to Lid " + lid + ": Connection timed out", e);
        } catch (MadException e) {
            // An error status is the server's word, not the transport's: the C client prints the data it came with.
            byte[] reply = e.reply().orElseThrow(() -> e);
            answer = Arrays.copyOfRange(reply, Math.min(DATA_OFFSET, reply.length), reply.length);
        }
        if (json()) {
            return json(new Json(lid, operation, operation.equals("ping") ? null : text(answer)), ExitCodes.OK);
        }
        out().print(operation.equals("ping") ? "sysstat ping succeeded\n" : text(answer) + "\n");
        return ExitCodes.OK;
    }

    private static IbaStruct get(MadTransactor transactor, IbaStruct request, int vendorOui, IBPath path) {
        return switch (request) {
            case OpenIbSysstatHost host -> transactor.vendGet(host, vendorOui, path, 0);
            case OpenIbSysstatCpu cpu -> transactor.vendGet(cpu, vendorOui, path, 0);
            case OpenIbSysstatPing ping -> transactor.vendGet(ping, vendorOui, path, 0);
            default -> throw new IllegalArgumentException(request.ibaName());
        };
    }

    /** The bytes up to the first NUL, as {@code puts} prints them. */
    private static String text(byte[] data) {
        int end = 0;
        while (end < data.length && data[end] != 0) {
            end++;
        }
        return new String(data, 0, end, StandardCharsets.UTF_8);
    }

    /** Answers ping with the request itself, host with this host's name, cpu with the CPU list ({@code mk_reply}). */
    @Override
    void answer(MadTransactor transactor, ReceivedMad in) {
        IncomingRequest request = transactor.parseRequest(in);
        switch (request.attributeId()) {
            case OpenIbSysstatHost.ATTRIBUTE_ID ->
                    transactor.sendReply(request, new OpenIbSysstatHost().hostAndDomain(HostName.hostAndDomain(OpenIbSysstatHost.SIZE)));
            case OpenIbSysstatCpu.ATTRIBUTE_ID -> transactor.sendReply(request, new OpenIbSysstatCpu().text(cpus()));
            default -> transactor.sendReply(request, new OpenIbSysstatPing().unpack(in.mad(), DATA_OFFSET));
        }
    }

    /** {@code cpu N: model M MHZ F} per processor of /proc/cpuinfo (the values with their leading blank), cut to one MAD. */
    private static String cpus() {
        List<String> lines;
        try {
            lines = Files.readAllLines(Path.of("/proc/cpuinfo"));
        } catch (IOException e) {
            throw new RdmaException("couldn't open /proc/cpuinfo: " + e.getMessage());
        }
        StringBuilder out = new StringBuilder();
        int cpu = -1;
        String model = null;
        String mhz = null;
        for (String line : lines) {
            if (line.startsWith("processor\t")) {
                appendCpu(out, cpu, model, mhz);
                cpu++;
                model = null;
                mhz = null;
            } else if (cpu >= 0 && line.contains(":")) {
                String value = line.substring(line.indexOf(':') + 1);
                if (line.startsWith("model name\t")) {
                    model = value;
                } else if (line.startsWith("cpu MHz\t")) {
                    mhz = value;
                }
            }
        }
        appendCpu(out, cpu, model, mhz);
        byte[] bytes = out.toString().getBytes(StandardCharsets.UTF_8);
        return bytes.length < OpenIbSysstatCpu.SIZE ? out.toString() : new String(bytes, 0, OpenIbSysstatCpu.SIZE - 1, StandardCharsets.UTF_8);
    }

    private static void appendCpu(StringBuilder out, int cpu, String model, String mhz) {
        if (cpu >= 0) {
            out.append(String.format(Locale.ROOT, "cpu %d: model %s MHZ %s\n", cpu, model == null ? "(null)" : model,
                    mhz == null ? "(null)" : mhz));
        }
    }

    /** {@code --json}: the server's LID, the operation, and the server's answer as text (absent for {@code ping}, which succeeded). */
    record Json(int lid, String operation, String answer) {
    }
}
