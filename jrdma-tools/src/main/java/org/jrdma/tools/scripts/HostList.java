package org.jrdma.tools.scripts;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * ibfindnodesusing's {@code compress_hostlist}: host names grouped by the text before their trailing
 * digits, runs of consecutive numbers written as ranges ({@code lx01,lx02,lx03,lx05} is
 * {@code lx01-03,lx05}), prefixes in byte order, joined by commas. As the script, an undefined name
 * (null; the script's list always starts with one) counts as an empty name.
 */
final class HostList {
    private static final Pattern TRAILING_DIGITS = Pattern.compile("(\\d*)$");
    private static final Pattern PREFIX_AND_NUMBER = Pattern.compile("^(.*?)(\\d*)$", Pattern.DOTALL);

    private HostList() {
    }

    static String compress(List<String> hosts) {
        List<String> sorted = new ArrayList<>(hosts.stream().map(h -> h == null ? "" : h).toList());
        sorted.sort(Comparator.comparingDouble(h -> Perl.number(trailingDigits(h))));
        // prefix -> its ranges; slot 0 is taken only by a run that starts at 1, as the script's index arithmetic has it
        Map<String, List<List<String>>> ranges = new TreeMap<>();
        for (String host : sorted) {
            Matcher m = PREFIX_AND_NUMBER.matcher(host);
            m.find();
            String prefix = m.group(1);
            String number = m.group(2);
            List<List<String>> slots = ranges.computeIfAbsent(prefix, _ -> new ArrayList<>());
            int current = Math.max(slots.size() - 1, 0);
            List<String> run = current < slots.size() ? slots.get(current) : null;
            double last = run == null || run.isEmpty() ? 0 : Perl.number(run.getLast());
            if (last == Perl.number(number) - 1) {
                if (run == null) {
                    run = new ArrayList<>();
                    slots.add(run);
                }
                run.add(number);
            } else {
                while (slots.size() <= current) {
                    slots.add(null);
                }
                slots.add(new ArrayList<>(List.of(number)));
            }
        }
        List<String> names = new ArrayList<>();
        ranges.forEach((prefix, slots) -> {
            for (List<String> run : slots) {
                if (run != null) {
                    names.add(prefix + (run.size() > 1 ? run.getFirst() + "-" + run.getLast() : run.getFirst()));
                }
            }
        });
        return String.join(",", names);
    }

    private static String trailingDigits(String host) {
        Matcher m = TRAILING_DIGITS.matcher(host);
        return m.find() ? m.group(1) : "";
    }
}
