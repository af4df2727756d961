package org.jrdma.monitor;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A strict parser of the Prometheus text exposition format 0.0.4 (prometheus.io/docs/instrumenting/exposition_formats):
 * {@code # HELP name text} and {@code # TYPE name type} lines, and samples
 * {@code name{label="value",...} value [timestamp]} with the format's escapes ({@code \\}, {@code \"},
 * {@code \n}) in label values and Go float syntax for values. Anything else fails with the line it is
 * on; a sample of a family whose TYPE was not given before it fails too, as Prometheus' parser requires the TYPE first.
 * No Java parser of the text format is published on Maven Central (the Prometheus Java client writes it but does not read it).
 */
final class PrometheusText {
    /** One sample line. */
    record Sample(String name, Map<String, String> labels, double value) {
    }

    /** A parsed exposition: samples in order, and each family's TYPE. */
    record Exposition(List<Sample> samples, Map<String, String> types) {
        /** The samples of {@code name} whose labels include all of {@code labels}. */
        List<Sample> find(String name, Map<String, String> labels) {
            return samples.stream().filter(s -> s.name().equals(name) && s.labels().entrySet().containsAll(labels.entrySet())).toList();
        }

        /** The one sample of {@code name} with those labels. */
        Sample one(String name, Map<String, String> labels) {
            List<Sample> found = find(name, labels);
            if (found.size() != 1) {
                throw new AssertionError(found.size() + " samples of " + name + labels + " in the exposition: " + found);
            }
            return found.getFirst();
        }
    }

    private final String text;
    private int pos;
    private int line = 1;

    private PrometheusText(String text) {
        this.text = text;
    }

    static Exposition parse(String text) {
        return new PrometheusText(text).exposition();
    }

    private Exposition exposition() {
        List<Sample> samples = new ArrayList<>();
        Map<String, String> types = new HashMap<>();
        while (pos < text.length()) {
            if (peek() == '\n') {
                next();
                continue;
            }
            if (peek() == '#') {
                next();
                expect(' ');
                String keyword = word();
                if (keyword.equals("HELP") || keyword.equals("TYPE")) {
                    expect(' ');
                    String name = metricName();
                    expect(' ');
                    String rest = restOfLine();
                    if (keyword.equals("TYPE")) {
                        if (!List.of("counter", "gauge", "histogram", "summary", "untyped").contains(rest)) {
                            throw error("unknown type " + rest);
                        }
                        if (types.put(name, rest) != null) {
                            throw error("second TYPE for " + name);
                        }
                    }
                } else {
                    restOfLine();
                }
                continue;
            }
            String name = metricName();
            Map<String, String> labels = new LinkedHashMap<>();
            if (peek() == '{') {
                next();
                while (peek() != '}') {
                    String label = labelName();
                    expect('=');
                    expect('"');
                    labels.put(label, labelValue());
                    if (peek() == ',') {
                        next();
                    } else if (peek() != '}') {
                        throw error("expected , or } in the labels");
                    }
                }
                next();
            }
            expect(' ');
            double value = number(token());
            if (peek() == ' ') {
                next();
                Long.parseLong(token());
            }
            if (pos < text.length()) {
                expect('\n');
            }
            String family = types.containsKey(name) ? name : name.replaceAll("_(total|created|bucket|sum|count|info)$", "");
            if (!types.containsKey(family)) {
                throw error("sample " + name + " before its TYPE");
            }
            samples.add(new Sample(name, Map.copyOf(labels), value));
        }
        return new Exposition(List.copyOf(samples), Map.copyOf(types));
    }

    private String metricName() {
        int start = pos;
        while (pos < text.length() && (Character.isLetterOrDigit(peek()) || peek() == '_' || peek() == ':') && (pos > start || !Character.isDigit(peek()))) {
            pos++;
        }
        if (pos == start) {
            throw error("expected a metric name");
        }
        return text.substring(start, pos);
    }

    private String labelName() {
        int start = pos;
        while (pos < text.length() && (Character.isLetterOrDigit(peek()) || peek() == '_') && (pos > start || !Character.isDigit(peek()))) {
            pos++;
        }
        if (pos == start) {
            throw error("expected a label name");
        }
        return text.substring(start, pos);
    }

    private String labelValue() {
        StringBuilder value = new StringBuilder();
        while (true) {
            char c = next();
            if (c == '"') {
                return value.toString();
            }
            if (c == '\n') {
                throw error("newline in a label value");
            }
            if (c == '\\') {
                char escaped = next();
                switch (escaped) {
                    case '\\' -> value.append('\\');
                    case '"' -> value.append('"');
                    case 'n' -> value.append('\n');
                    default -> throw error("bad escape \\" + escaped);
                }
            } else {
                value.append(c);
            }
        }
    }

    private double number(String token) {
        return switch (token) {
            case "+Inf" -> Double.POSITIVE_INFINITY;
            case "-Inf" -> Double.NEGATIVE_INFINITY;
            case "NaN" -> Double.NaN;
            default -> {
                try {
                    yield Double.parseDouble(token);
                } catch (NumberFormatException e) {
                    throw error("not a value: " + token);
                }
            }
        };
    }

    private String word() {
        int start = pos;
        while (pos < text.length() && Character.isLetter(peek())) {
            pos++;
        }
        return text.substring(start, pos);
    }

    private String token() {
        int start = pos;
        while (pos < text.length() && peek() != ' ' && peek() != '\n') {
            pos++;
        }
        if (pos == start) {
            throw error("expected a value");
        }
        return text.substring(start, pos);
    }

    private String restOfLine() {
        int end = text.indexOf('\n', pos);
        end = end < 0 ? text.length() : end;
        String rest = text.substring(pos, end);
        pos = end;
        return rest;
    }

    private char peek() {
        if (pos >= text.length()) {
            throw error("unexpected end");
        }
        return text.charAt(pos);
    }

    private char next() {
        char c = peek();
        pos++;
        if (c == '\n') {
            line++;
        }
        return c;
    }

    private void expect(char c) {
        if (next() != c) {
            throw error("expected '" + c + "'");
        }
    }

    private IllegalArgumentException error(String what) {
        return new IllegalArgumentException("line " + line + ": " + what);
    }
}
