package org.jrdma;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.lang.reflect.Member;
import java.lang.reflect.Modifier;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * Keeps the README's table of the seeds' members honest: every Java member that
 * {@code seed-members.tsv} names for a seed member exists (resolved by reflection: a public
 * method, field, nested type or constructor of the named class), every row without one says what
 * idiom replaces it, and the README holds exactly the table this file renders. Run with
 * {@code -Djrdma.seedMapping.write=true} to write the rendering into the README instead.
 */
class SeedMappingTest {
    private static final String RESOURCE = "seed-members.tsv";
    private static final String BEGIN = "<!-- seed-mapping:begin (generated from jrdma/src/test/resources/org/jrdma/" + RESOURCE
            + " by SeedMappingTest; do not edit) -->";
    private static final String END = "<!-- seed-mapping:end -->";
    private static final Path README = Path.of("..", "README.md");

    /** One row: the seed member, the Java members ({@code package.Class#member}, relative to org.jrdma), a note. */
    record Row(String seed, List<String> java, String note) {
    }

    @Test
    void everyJavaCounterpartExists() throws IOException {
        List<String> missing = new ArrayList<>();
        for (Row row : rows()) {
            for (String ref : row.java()) {
                if (!resolves(ref)) {
                    missing.add(row.seed() + " -> " + ref);
                }
            }
        }
        assertEquals(List.of(), missing, "Java members named in " + RESOURCE + " that do not exist");
    }

    @Test
    void everyRowHasACounterpartOrAnIdiomAndNamesItsSeedMemberOnce() throws IOException {
        Set<String> seen = new HashSet<>();
        for (Row row : rows()) {
            assertTrue(seen.add(row.seed()), "seed member listed twice: " + row.seed());
            assertFalse(row.java().isEmpty() && row.note().isBlank(), row.seed() + " has neither a Java member nor an idiom");
        }
        assertTrue(seen.size() > 200, "the table lists " + seen.size() + " seed members");
    }

    @Test
    void theReadmeHoldsTheTable() throws IOException {
        String readme = Files.readString(README);
        int begin = readme.indexOf(BEGIN);
        int end = readme.indexOf(END);
        assertTrue(begin >= 0 && end > begin, "README.md lacks the seed-mapping markers");
        String table = render(rows());
        if (Boolean.getBoolean("jrdma.seedMapping.write")) {
            Files.writeString(README, readme.substring(0, begin + BEGIN.length()) + "\n" + table + readme.substring(end));
            return;
        }
        assertEquals(table, readme.substring(begin + BEGIN.length() + 1, end), "README.md's seed table differs from " + RESOURCE
                + "; run SeedMappingTest with -Djrdma.seedMapping.write=true to regenerate it");
    }

    static List<Row> rows() throws IOException {
        try (InputStream in = SeedMappingTest.class.getResourceAsStream(RESOURCE)) {
            String text = new String(in.readAllBytes(), StandardCharsets.UTF_8);
            List<Row> rows = new ArrayList<>();
            for (String line : text.split("\n")) {
                if (line.isBlank() || line.startsWith("#")) {
                    continue;
                }
                String[] cells = line.split("\t", -1);
                assertEquals(3, cells.length, "three tab-separated cells: " + line);
                List<String> java = cells[1].isBlank() ? List.of() : Arrays.stream(cells[1].split(",")).map(String::strip).toList();
                rows.add(new Row(cells[0].strip(), java, cells[2].strip()));
            }
            return rows;
        }
    }

    /** The Markdown table: seed member, Java counterpart, note. */
    static String render(List<Row> rows) {
        StringBuilder s = new StringBuilder("| seed member | Java | note |\n|---|---|---|\n");
        for (Row row : rows) {
            String java = row.java().isEmpty() ? "(idiom)"
                    : String.join(", ", row.java().stream().map(ref -> "`" + display(ref) + "`").toList());
            s.append("| `").append(row.seed()).append("` | ").append(java).append(" | ").append(row.note()).append(" |\n");
        }
        return s.toString();
    }

    /** {@code verbs.Context#queryPort} as {@code Context.queryPort}; {@code mad.verbs.VMad#new} as {@code new VMad}. */
    private static String display(String ref) {
        int hash = ref.indexOf('#');
        String type = hash < 0 ? ref : ref.substring(0, hash);
        String simple = type.substring(type.lastIndexOf('.') + 1).replace('$', '.');
        if (hash < 0) {
            return simple;
        }
        String member = ref.substring(hash + 1);
        return member.equals("new") ? "new " + simple : simple + "." + member;
    }

    private static boolean resolves(String ref) {
        int hash = ref.indexOf('#');
        Class<?> type;
        try {
            type = Class.forName("org.jrdma." + (hash < 0 ? ref : ref.substring(0, hash)));
        } catch (ClassNotFoundException e) {
            return false;
        }
        if (!Modifier.isPublic(type.getModifiers())) {
            return false;
        }
        if (hash < 0) {
            return true;
        }
        String member = ref.substring(hash + 1);
        if (member.equals("new")) {
            return type.getConstructors().length > 0;
        }
        return Stream.of(type.getMethods(), type.getFields(), type.getDeclaredMethods()).flatMap(Arrays::stream)
                .map(Member.class::cast)
                .anyMatch(m -> m.getName().equals(member) && Modifier.isPublic(m.getModifiers()))
                || Arrays.stream(type.getClasses()).anyMatch(c -> c.getSimpleName().equals(member));
    }
}
