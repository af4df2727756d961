package org.jrdma.path;

import org.jrdma.iba.UntrustedText;
import static org.jrdma.path.Fixtures.PARSER;
import static org.jrdma.path.Fixtures.PORT_1;
import static org.jrdma.path.Fixtures.PORT_2;
import static org.jrdma.path.Fixtures.ROCE;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.function.Function;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.Tuple;
import net.jqwik.api.statistics.Statistics;
import org.jrdma.devices.EndPort;
import org.jrdma.iba.Gid;
import org.jrdma.iba.Mtu;
import org.jrdma.iba.StaticRate;

/**
 * Properties of the path text: every path survives {@code toString} and {@code fromSpecString},
 * and any text, hostile or not, either parses or fails fast with an {@link IllegalArgumentException}.
 */
class PathPropertiesTest {
    private static final EndPort[] END_PORTS = {null, PORT_1, PORT_2, ROCE};
    private static final String ONE_MEGABYTE = "x".repeat(1 << 20);

    @Property(tries = 3000)
    void specificationRoundTrips(@ForAll("paths") IBPath path) {
        String text = path.toString();
        IBPath parsed = PARSER.fromSpecString(text);
        assertEquals(path, parsed, text);
        assertEquals(text, parsed.toString());
        assertEquals(path, PARSER.fromString(text), "fromString reads specifications too");
    }

    @Property(tries = 500)
    void lazyPathsWriteAsThePathTheyUnpackTo(@ForAll("ibPaths") IBPath path) {
        LazyIBPath lazy = new LazyIBPath(() -> path);
        assertEquals(path, PARSER.fromSpecString(lazy.toString()));
    }

    @Property(tries = 500)
    void reversingTwiceWithoutReplyIsTheIdentity(@ForAll("paths") IBPath path) {
        assertEquals(path, path.reverse(false).reverse(false));
    }

    @Property(tries = 5000)
    void anyTextParsesOrFailsFastWithIllegalArgument(@ForAll("hostile") String text) {
        for (Function<String, IBPath> parser : List.<Function<String, IBPath>>of(PARSER::fromSpecString,
                PARSER::fromString)) {
            long start = System.nanoTime();
            try {
                assertNotNull(parser.apply(text));
                Statistics.collect("parsed");
            } catch (IllegalArgumentException e) {
                assertNotNull(e.getMessage());
                assertTrue(e.getMessage().length() < 1000, "message of " + e.getMessage().length() + " chars");
                Statistics.collect("rejected");
            }
            long millis = (System.nanoTime() - start) / 1_000_000;
            assertTrue(millis < 1000, "took " + millis + " ms on " + UntrustedText.quote(text));
        }
    }

    @Provide
    Arbitrary<IBPath> paths() {
        return Arbitraries.oneOf(ibPaths(), drPaths());
    }

    @Provide
    Arbitrary<IBPath> ibPaths() {
        return Arbitraries.randomValue(random -> fill(IBPath.builder(endPort(random)), random, false).build());
    }

    private Arbitrary<IBPath> drPaths() {
        return Arbitraries.randomValue(random -> {
            IBPath.Builder<? extends IBPath> builder = fill(IBDRPath.builder(endPort(random)), random, true);
            int[] route = new int[1 + random.nextInt(IBDRPath.MAX_HOPS + 1)];
            for (int i = 1; i < route.length; i++) {
                route[i] = pick(random, EndPort.MAX_PORT_NUMBER);
            }
            return builder.drPath(route).drSlid(pick(random, 0xFFFF)).drDlid(pick(random, 0xFFFF)).build();
        });
    }

    private static EndPort endPort(Random random) {
        return END_PORTS[random.nextInt(END_PORTS.length)];
    }

    /** Sets each attribute, half of the time, to an edge or random value of its range. */
    private static <B extends IBPath.Builder<?>> B fill(B b, Random r, boolean directed) {
        maybe(r, () -> b.retries(pick(r, 0xFF)));
        maybe(r, () -> b.dlid(pick(r, 0xFFFF)));
        maybe(r, () -> b.slid(pick(r, 0xFFFF)));
        maybe(r, () -> b.sl(pick(r, 15)));
        maybe(r, () -> b.pkey(pick(r, 0xFFFF)));
        maybe(r, () -> b.hasGrh(!directed && r.nextBoolean()));
        maybe(r, () -> b.sgid(gid(r)));
        maybe(r, () -> b.dgid(gid(r)));
        maybe(r, () -> b.hopLimit(pick(r, 0xFF)));
        maybe(r, () -> b.trafficClass(pick(r, 0xFF)));
        maybe(r, () -> b.flowLabel(pick(r, 0xFFFFF)));
        maybe(r, () -> b.dqpn(r.nextInt(4) == 0 ? null : pick(r, 0xFFFFFF)));
        maybe(r, () -> b.sqpn(r.nextInt(4) == 0 ? null : pick(r, 0xFFFFFF)));
        maybe(r, () -> b.qkey(r.nextInt(4) == 0 ? null : r.nextInt()));
        maybe(r, () -> b.mtu(Mtu.values()[r.nextInt(Mtu.values().length)]));
        maybe(r, () -> b.rate(StaticRate.values()[r.nextInt(StaticRate.values().length)]));
        maybe(r, () -> b.umadAgentId(r.nextInt(4) == 0 ? null : pick(r, Integer.MAX_VALUE)));
        maybe(r, () -> b.respTime(pick(r, 31)));
        maybe(r, () -> b.packetLifeTime(r.nextInt(4) == 0 ? null : pick(r, 63)));
        maybe(r, () -> b.minRnrTimer(pick(r, 31)));
        maybe(r, () -> b.dackRespTime(pick(r, 31)));
        maybe(r, () -> b.sackRespTime(pick(r, 31)));
        maybe(r, () -> b.dqpsn(pick(r, 0xFFFFFF)));
        maybe(r, () -> b.sqpsn(pick(r, 0xFFFFFF)));
        maybe(r, () -> b.drdatomic(pick(r, 0xFF)));
        maybe(r, () -> b.srdatomic(pick(r, 0xFF)));
        maybe(r, () -> b.mKey(r.nextInt(3) == 0 ? -1L : r.nextLong()));
        maybe(r, () -> b.smKey(r.nextInt(3) == 0 ? Long.MIN_VALUE : r.nextLong()));
        return b;
    }

    private static void maybe(Random random, Runnable set) {
        if (random.nextBoolean()) {
            set.run();
        }
    }

    /** 0, the maximum, or a random value in between. */
    private static int pick(Random random, int max) {
        return switch (random.nextInt(4)) {
            case 0 -> 0;
            case 1 -> max;
            default -> random.nextInt(max) + 1;
        };
    }

    private static Gid gid(Random random) {
        return switch (random.nextInt(4)) {
            case 0 -> null;
            case 1 -> new Gid(-1L, -1L);
            case 2 -> new Gid(Gid.DEFAULT_PREFIX, random.nextLong());
            default -> new Gid(random.nextLong(), random.nextLong());
        };
    }

    @Provide
    Arbitrary<String> hostile() {
        Arbitrary<String> grammarSoup = Arbitraries.strings()
                .withChars("IBDRPath()=,'\"GID:.0123456789abcdefxNoneTrue_ %/\t\\\n-")
                .ofMaxLength(200);
        Arbitrary<String> anyText = Arbitraries.strings().all().ofMaxLength(100);
        Arbitrary<String> mutated = paths().map(IBPath::toString).flatMap(spec -> Arbitraries.integers()
                .between(0, spec.length()).tuple3().map(t -> mutate(spec, t.get1(), t.get2(), t.get3())));
        Arbitrary<String> hugeNumbers = Arbitraries.strings().numeric().ofMinLength(1).ofMaxLength(5000)
                .flatMap(digits -> Arbitraries.of("DLID", "SL", "qkey", "MKey", "drSLID", "MTU", "rate", "dqpn")
                        .map(key -> (key.startsWith("dr") ? "IBDRPath(" : "IBPath(") + key + "=" + digits + ")"));
        Arbitrary<String> unknownKeys = Arbitraries.strings().alpha().ofMinLength(1).ofMaxLength(80)
                .map(key -> "IBPath(" + key + "=1)");
        Arbitrary<String> nesting = Arbitraries.integers().between(1, 5_000)
                .flatMap(depth -> Arbitraries.of("IBPath(DLID=", "GID(", "(", "IBPath(SGID=GID(")
                        .map(open -> open.repeat(depth) + ")".repeat(depth)));
        Arbitrary<String> huge = Arbitraries.of(ONE_MEGABYTE, "IBPath(end_port='" + ONE_MEGABYTE + "')",
                "IBPath(" + "SL=1,".repeat(200_000) + ")", "0," + "1,".repeat(500_000), ONE_MEGABYTE + "%mlx4_0",
                "fe80::1%" + ONE_MEGABYTE);
        Arbitrary<String> destinations = Arbitraries.of("12", "0xc", "fe80::1", "fe80::1%mlx4_0/1", "0002:c903:0000:1491",
                "0,1,", "IBPath(DLID=2,SL=2)", "IBDRPath(drPath=0:1:)");
        return Arbitraries.frequencyOf(
                Tuple.of(3, grammarSoup), Tuple.of(2, anyText),
                Tuple.of(4, mutated), Tuple.of(1, hugeNumbers),
                Tuple.of(1, unknownKeys), Tuple.of(1, nesting),
                Tuple.of(1, huge), Tuple.of(1, destinations));
    }

    /** {@code spec} with the characters from {@code a} to {@code b} (in either order) replaced by those from {@code c}. */
    private static String mutate(String spec, int a, int b, int c) {
        int from = Math.min(a, b);
        int to = Math.max(a, b);
        char[] chars = spec.toCharArray();
        String tail = new String(Arrays.copyOfRange(chars, Math.min(c, chars.length), Math.min(c + (to - from), chars.length)));
        return spec.substring(0, from) + tail + spec.substring(to);
    }
}
