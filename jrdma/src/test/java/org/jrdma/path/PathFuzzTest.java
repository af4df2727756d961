package org.jrdma.path;

import static org.jrdma.path.Fixtures.PARSER;
import static org.jrdma.path.Fixtures.PORT_2;
import static org.junit.jupiter.api.Assertions.assertEquals;

import com.code_intelligence.jazzer.junit.FuzzTest;
import java.nio.charset.StandardCharsets;

/**
 * Coverage-guided fuzz targets (Jazzer) for path strings: {@link PathParser#fromString} (GIDs,
 * LIDs, directed routes, {@code IBPath(...)}) and spec strings ({@link PathParser#fromSpecString}).
 * The input is the text in UTF-8. The only exception allowed out is {@link IllegalArgumentException}; a path that parses prints
 * as a spec string that parses back to an equal path.
 */
class PathFuzzTest {
    private static final PathParser WITH_DEFAULT = PARSER.withDefaultEndPort(PORT_2);

    @FuzzTest(maxDuration = "10s")
    void pathString(byte[] utf8) {
        String text = new String(utf8, StandardCharsets.UTF_8);
        IBPath path;
        try {
            path = WITH_DEFAULT.fromString(text);
        } catch (IllegalArgumentException expected) {
            return;
        }
        assertEquals(path, WITH_DEFAULT.fromSpecString(path.toString()), path.toString());
    }

    @FuzzTest(maxDuration = "10s")
    void specString(byte[] utf8) {
        String text = new String(utf8, StandardCharsets.UTF_8);
        IBPath path;
        try {
            path = PARSER.fromSpecString(text);
        } catch (IllegalArgumentException expected) {
            return;
        }
        assertEquals(path, PARSER.fromSpecString(path.toString()), path.toString());
    }
}
