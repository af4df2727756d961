package org.jrdma.tools;

import java.nio.file.Files;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import picocli.CommandLine.Option;

/**
 * python-rdma's common options on an infiniband-diags script ({@code ibidsverify}, {@code dump_lfts},
 * the {@code ibcheck*} scripts...), which reads its own command line and sends its MADs through the
 * ibtool commands it runs: they are taken here and handed on to those commands.
 * {@code --smkey} and {@code --sa-path} go to every command the script runs; {@code --int-names} is
 * taken without effect (the script reads the commands' text, which must stay the C tools').
 * On a script that discovers the subnet ({@link DiscoversSubnet}), {@link CommonOptions} adds
 * {@code --discovery}, {@code --cache} and {@code --refresh-cache}, handed to the discovering
 * commands it runs (ibnetdiscover, dump_fts, iblinkinfo); to ibnetdiscover, whose own
 * {@code --cache} only writes, python-rdma's {@code --cache FILE} is {@code --load-cache FILE} when
 * FILE exists (and no {@code --refresh-cache}), else {@code --cache FILE}.
 */
public final class ForwardedOptions {
    /** The commands a script runs that discover the subnet, and take the discovery options. */
    private static final Set<String> DISCOVERING = Set.of("ibnetdiscover", "dump_fts", "iblinkinfo");

    @Option(names = "--smkey", paramLabel = "N", description = "the SM_Key of the SA MADs of the commands the script runs "
            + "(python-rdma's SAFormat.SMKey; default 0, untrusted)")
    String smKey;

    @Option(names = "--sa-path", paramLabel = "PATH", description = "the path of the SA MADs of the commands the script runs, a path "
            + "string (a LID, a GID, IBPath(...))")
    String saPath;

    @Option(names = "--int-names", description = "taken without effect: the script reads the text of the commands it runs, which "
            + "keeps the C tools' names")
    boolean intNames;

    /** python-rdma's discovery options, where {@link CommonOptions} added them. */
    final DiscoveryOptions discovery = new DiscoveryOptions();

    /** These options as words of the command line of {@code tool}, which the script runs (each only if given). */
    public List<String> words(String tool) {
        List<String> words = new ArrayList<>();
        if (smKey != null) {
            words.addAll(List.of("--smkey", smKey));
        }
        if (saPath != null) {
            words.addAll(List.of("--sa-path", saPath));
        }
        if (!DISCOVERING.contains(tool)) {
            return words;
        }
        if (discovery.mode != null) {
            words.addAll(List.of("--discovery", discovery.mode));
        }
        if (discovery.cache != null) {
            String file = discovery.cache.toString();
            if (!tool.equals("ibnetdiscover")) {
                words.addAll(List.of("--cache", file));
            } else if (!discovery.refresh && Files.exists(discovery.cache)) {
                words.addAll(List.of("--load-cache", file));
            } else {
                words.addAll(List.of("--cache", file));
            }
        }
        if (discovery.refresh && !tool.equals("ibnetdiscover")) {
            words.add("--refresh-cache");
        }
        return words;
    }
}
