package org.jrdma.tools.topodiff;

import java.io.IOException;
import java.io.InputStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.jrdma.tools.ExitCodes;
import org.jrdma.tools.Ibtool;
import org.jrdma.tools.PackageCommand;
import org.jrdma.tools.UsageException;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Unmatched;

/**
 * {@code ibtool ibdiscover} ({@code ibdiscover.pl}): infiniband-diags' deprecated script that
 * annotates an ibnetdiscover topology file with the locations of {@code ibdiscover.map} and
 * compares its links with those the last run saved in {@code ibdiscover.topo}, writing the links
 * of this run to {@code ibdiscover.topo.new} ({@link IbdiscoverScript}). The script is used as
 * {@code ibnetdiscover | ibdiscover.pl}: it reads the topology on standard input, its files in the
 * current directory, ignores its arguments, warns on standard error before and after that it is
 * deprecated, and exits 0; a file it cannot open is no file (the new one then is not written).
 *
 * <p>jrdma's options: {@code --discover} discovers the fabric here, as {@code ibtool ibnetdiscover}
 * with the arguments that follow (the pipe in one command; a discovery that fails ends the command
 * with its status, as under {@code pipefail}); {@code --input FILE} reads the topology from FILE;
 * {@code --dir DIR} keeps the three files in DIR. With {@code --json} a {@link Document} replaces
 * the text; the new file is written the same.
 */
@Command(name = "ibdiscover", aliases = "ibdiscover.pl", mixinStandardHelpOptions = true,
        description = "Annotate an ibnetdiscover topology with the locations of ibdiscover.map and report the links changed since "
                + "the last run (ibdiscover.topo); save this run's links to ibdiscover.topo.new (deprecated script).")
public final class IbdiscoverCommand extends PackageCommand {
    static final String MAP = "ibdiscover.map";
    static final String TOPO = "ibdiscover.topo";
    static final String NEW_TOPO = "ibdiscover.topo.new";
    private static final String WARNING = "*** WARNING ***; this command is deprecated;\n"
            + "                 see ibnetdiscover cache features\n"
            + "                 and/or iblinkinfo \"check\" features\n\n";

    @Option(names = "--discover", description = "discover the fabric (ibtool ibnetdiscover with the arguments that follow: --sim, -C, -P...) "
            + "instead of reading the topology on standard input")
    boolean discover;

    @Option(names = "--input", paramLabel = "FILE", description = "read the topology (ibnetdiscover output) from FILE instead of standard input")
    Path input;

    @Option(names = "--dir", paramLabel = "DIR", defaultValue = ".",
            description = "where ibdiscover.map, ibdiscover.topo and ibdiscover.topo.new are (default: the current directory)")
    Path dir;

    /** The script's arguments, which it ignores; with {@code --discover}, ibnetdiscover's. */
    @Unmatched
    List<String> args = new ArrayList<>();

    /**
     * ibdiscover's JSON document.
     *
     * @param savedTopology whether {@code ibdiscover.topo} had links (without, every link is a change)
     * @param nodes         the node header lines, in the topology's order
     * @param links         the link lines, in the topology's order
     * @param changes       the links seen once in all, saved ones first, in the order first seen
     */
    public record Document(boolean savedTopology, List<NodeLine> nodes, List<LinkLine> links, List<Change> changes) {
    }

    /**
     * A node header: a GUID line of the topology.
     *
     * @param kind     {@code Switch} or {@code Host}, as the script names it
     * @param guid     the GUID's hex digits as the topology prints them
     * @param location the map's location (its third field, as written), absent if the map has none
     */
    public record NodeLine(String kind, String guid, String location) {
    }

    /**
     * A link of the topology, from the node of the last header.
     *
     * @param localGuid  that node's GUID digits
     * @param localPort  its port
     * @param remotePort the port at the far end
     * @param remoteKind {@code Switch} or {@code Host}
     * @param remoteGuid the far node's GUID digits, after ibnetdiscover's {@code 000}
     * @param location   the map's location of the far node, absent if the map has none
     */
    public record LinkLine(String localGuid, long localPort, long remotePort, String remoteKind, String remoteGuid, String location) {
    }

    /**
     * A link seen once in all.
     *
     * @param localGuid      the local node's GUID digits
     * @param localPort      the local port
     * @param remotePort     the remote port
     * @param remoteGuid     the remote node's GUID digits
     * @param localLocation  the map's location of the local node, absent if none
     * @param remoteLocation the map's location of the remote node, absent if none
     * @param saved          whether {@code ibdiscover.topo} has it (gone from the topology when {@code current} is 0)
     * @param current        how many times the topology has it
     */
    public record Change(String localGuid, long localPort, long remotePort, String remoteGuid, String localLocation, String remoteLocation,
            boolean saved, int current) {
    }

    @Override
    protected int execute() throws IOException {
        if (discover && input != null) {
            throw new UsageException("--discover and --input both give the topology", "use one of them");
        }
        err().print(WARNING);
        err().flush();
        String topology;
        if (discover) {
            StringWriter text = new StringWriter();
            List<String> line = new ArrayList<>(List.of("ibnetdiscover"));
            line.addAll(args);
            String[] argv = line.toArray(String[]::new);
            CommandLine cl = Ibtool.commandLine(argv);
            cl.setOut(new PrintWriter(text, true));
            cl.setErr(err());
            int status = cl.execute(argv);
            err().flush();
            if (status != ExitCodes.OK) {
                return status;
            }
            topology = text.toString();
        } else if (input != null) {
            topology = Files.readString(input, StandardCharsets.UTF_8);
        } else {
            topology = read(System.in);
        }
        IbdiscoverScript.Result result = IbdiscoverScript.run(readIfAny(dir.resolve(MAP)), readIfAny(dir.resolve(TOPO)), topology);
        try {
            Files.writeString(dir.resolve(NEW_TOPO), result.newTopo(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            // the script prints to a file handle it could not open: nothing is written, nothing said
        }
        int status = jsonRequested() ? jsonDocument(result.document(), ExitCodes.OK) : print(result.text());
        err().print(WARNING);
        err().flush();
        return status;
    }

    private int print(String text) {
        out().print(text);
        out().flush();
        return ExitCodes.OK;
    }

    private static String read(InputStream in) throws IOException {
        return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    }

    /** A file's text, or null when it cannot be read (the script's failed {@code open} reads nothing). */
    private static String readIfAny(Path file) {
        try {
            return Files.readString(file, StandardCharsets.UTF_8);
        } catch (IOException e) {
            return null;
        }
    }
}
