package org.jrdma.path;

import static org.jrdma.path.Fixtures.PORT_1;
import static org.jrdma.path.Fixtures.SITE_GID_1;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.util.List;
import java.util.function.Function;
import org.jrdma.RdmaException;
import org.jrdma.devices.EndPort;
import org.junit.jupiter.api.Test;

/**
 * Paths handed between threads through a data race, as {@link IBPath#returnPath()} caches one:
 * the Java memory model (JLS 17.5) promises such a reader only the final fields; any other field
 * may read as its default. A path must answer the same all the same, never a P_Key or SGID index
 * of 0 for one it does not know.
 */
class IBPathPublicationTest {
    /** Two P_Keys twice: a known index is not the first match. */
    private static final EndPort TWICE = EndPort.builder("d", 1).pkeys(0xFFFF, 0x8001, 0xFFFF, 0x8001)
            .gids(List.of(Fixtures.GID_1, SITE_GID_1)).build();

    @Test
    void returnPathKeepsIndexesKnownAndUnknownAsTheyAre() {
        IBPath known = IBPath.builder(TWICE).pkeyIndex(3).sgidIndex(1).dgid(Fixtures.GID_1).hasGrh(true).build();
        assertEquals(3, known.returnPath().pkeyIndex(), "the P_Key stays, and the index chosen for it");
        assertEquals(0, known.returnPath().sgidIndex(), "the SGID is the other end's, found again");

        IBPath noPort = IBPath.builder(null).sgid(SITE_GID_1).build();
        assertThrows(IllegalStateException.class, () -> noPort.returnPath().pkeyIndex());
        assertThrows(IllegalStateException.class, () -> noPort.returnPath().sgidIndex());
        IBPath missing = IBPath.builder(PORT_1).pkey(0x1234).build();
        assertThrows(RdmaException.class, () -> missing.returnPath().pkeyIndex());
    }

    @Test
    void aPathSeenThroughADataRaceAnswersAsItself() throws ReflectiveOperationException {
        IBPath known = IBPath.builder(TWICE).pkeyIndex(3).sgidIndex(1).dlid(2).build();
        IBPath found = IBPath.builder(PORT_1).pkey(0x7FFF).sgid(SITE_GID_1).dgid(Fixtures.GID_1).hasGrh(true).build();
        IBDRPath directed = IBDRPath.builder(TWICE).pkeyIndex(2).drPath(0, 1, 3).build();
        for (IBPath path : List.of(known, found, found.returnPath(), directed, new LazyIBPath(() -> found))) {
            assertAnswersAsItself(path);
            path.pkeyIndex();
            path.returnPath();
            assertAnswersAsItself(path);
            assertAnswersAsItself(path.returnPath());
        }
        IBPath noPort = IBPath.builder(null).build();
        assertThrows(IllegalStateException.class, () -> racyView(noPort.returnPath()).pkeyIndex(),
                "unknown, not 0");
    }

    private static void assertAnswersAsItself(IBPath path) throws ReflectiveOperationException {
        IBPath expected = path.copy(b -> { });
        IBPath racy = racyView(path);
        assertEquals(expected, racy);
        assertEquals(expected.toString(), racy.toString());
        for (Function<IBPath, Object> derived : List.<Function<IBPath, Object>>of(IBPath::pkeyIndex,
                p -> p instanceof IBDRPath ? "none" : p.sgid().isPresent() ? p.sgidIndex() : "no SGID",
                IBPath::madTimeout, IBPath::qpTimeout, IBPath::returnPath)) {
            assertEquals(derived.apply(expected), derived.apply(racy), path.toString());
        }
    }

    /**
     * {@code path} as a thread that reads it through a data race may see it: every field that is
     * not final at its default (changed in place: the caches a path keeps are all it loses).
     */
    private static IBPath racyView(IBPath path) throws IllegalAccessException {
        for (Class<?> type = path.getClass(); type != Path.class; type = type.getSuperclass()) {
            for (Field field : type.getDeclaredFields()) {
                int modifiers = field.getModifiers();
                if (!Modifier.isStatic(modifiers) && !Modifier.isFinal(modifiers)) {
                    field.setAccessible(true);
                    Class<?> kind = field.getType();
                    Object zero = kind == boolean.class ? Boolean.FALSE : kind.isPrimitive() ? (Object) (byte) 0 : null;
                    field.set(path, zero);
                }
            }
        }
        return path;
    }
}
