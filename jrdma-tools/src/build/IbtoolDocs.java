import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.jrdma.tools.Ibtool;
import picocli.AutoComplete;
import picocli.CommandLine;
import picocli.codegen.docgen.manpage.ManPageGenerator;

/**
 * Writes ibtool's bash/zsh completion script ({@code OUTDIR/ibtool_completion}, picocli's
 * {@link AutoComplete}: command names, options, and option values where they are a fixed set) and
 * one AsciiDoc man page per command ({@code OUTDIR/man/ibtool.adoc}, {@code ibtool-perfquery.adoc},
 * ..., picocli's {@link ManPageGenerator}), from the model of every command
 * ({@link Ibtool#commandLine()}). Run by the build (package phase) on the module's class path;
 * bin/setup turns the pages into man(7) files with asciidoctor and installs both under ~/.jrdma.
 * Usage: {@code java -cp CLASSPATH IbtoolDocs.java OUTDIR}.
 */
public final class IbtoolDocs {
    private IbtoolDocs() {
    }

    public static void main(String[] args) throws IOException {
        Path out = Path.of(args[0]);
        Path man = Files.createDirectories(out.resolve("man"));
        CommandLine ibtool = Ibtool.commandLine();
        Files.writeString(out.resolve("ibtool_completion"), AutoComplete.bash("ibtool", ibtool));
        int status = ManPageGenerator.generateManPage(man.toFile(), (File) null, new boolean[0], true, ibtool.getCommandSpec());
        if (status != 0) {
            throw new IOException("picocli's ManPageGenerator ended with " + status);
        }
        try (var pages = Files.list(man)) {
            System.out.println("IbtoolDocs: completion script and " + pages.count() + " man pages in " + out);
        }
    }
}
