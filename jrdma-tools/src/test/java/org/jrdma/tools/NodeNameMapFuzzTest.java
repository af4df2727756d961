package org.jrdma.tools;

import com.code_intelligence.jazzer.junit.FuzzTest;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Coverage-guided fuzz target (Jazzer) for node-name-map files ({@code --node-name-map}): any
 * bytes as the file, read by {@link NodeNameMap#read}. The only exception allowed out is
 * {@link UsageException}, naming the file and line.
 */
class NodeNameMapFuzzTest {
    private static final Path FILE;

    static {
        try {
            FILE = Files.createTempFile("jrdma-node-name-map-fuzz", ".conf");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @FuzzTest(maxDuration = "10s")
    void nodeNameMap(byte[] file) throws IOException {
        Files.write(FILE, file);
        try {
            NodeNameMap.read(FILE);
        } catch (UsageException expected) {
            // a line that is not an entry, named
        }
    }
}
