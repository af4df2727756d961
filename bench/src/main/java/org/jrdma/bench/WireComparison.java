package org.jrdma.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.jrdma.iba.wire.Field;
import org.jrdma.iba.wire.IbaStruct;
import org.jrdma.iba.wire.IbaStructs;
import org.openjdk.jmh.profile.GCProfiler;
import org.openjdk.jmh.results.RunResult;
import org.openjdk.jmh.runner.Runner;
import org.openjdk.jmh.runner.RunnerException;
import org.openjdk.jmh.runner.options.Options;
import org.openjdk.jmh.runner.options.OptionsBuilder;
import org.openjdk.jmh.runner.options.TimeValue;

/**
 * Runs the wire-format benchmark for jrdma (JMH, {@link WireBenchmark}) and for libibmad (a C
 * program compiled here with gcc, decoding and encoding the same fields) in one run, and prints
 * ns/op for both, the Java/C ratio, and jrdma's allocated bytes per operation.
 *
 * <p>Usage: {@code WireComparison <path of wire_bench.c> [seconds per measurement]}; run through
 * {@code bin/bench-wire}.
 */
public final class WireComparison {
    private static final List<String> STRUCTS = List.of("SmpPortInfo", "PmPortCountersExtended");

    private WireComparison() {
    }

    /** The fields both sides handle: those libibmad also knows, at most 64 bits, not arrays. */
    static List<Field> comparableFields(IbaStruct attribute) {
        return attribute.fields().stream()
                .filter(f -> f.ibmadName() != null && f.bitLength() <= 64 && f.count() == 1).toList();
    }

    public static void main(String[] args) throws IOException, InterruptedException, RunnerException {
        if (args.length < 1) {
            throw new IllegalArgumentException("usage: WireComparison <wire_bench.c> [seconds]");
        }
        Path source = Path.of(args[0]);
        int seconds = args.length > 1 ? Integer.parseInt(args[1]) : 2;
        Map<String, double[]> c = new LinkedHashMap<>();
        for (String name : STRUCTS) {
            c.put(name, runC(source, name, seconds));
        }
        Map<String, RunResult> java = runJmh(seconds);

        System.out.println();
        System.out.println("Wire formats: decode/encode one whole attribute (the fields libibmad also knows)");
        System.out.printf("%-24s %-7s %7s %12s %12s %10s %12s%n", "attribute", "op", "fields", "jrdma ns/op",
                "libibmad ns", "jrdma/C", "jrdma B/op");
        for (String name : STRUCTS) {
            int fields = comparableFields(IbaStructs.ALL.get(name).get()).size();
            for (int op = 0; op < 2; op++) {
                String method = op == 0 ? "decode" : "encode";
                RunResult r = java.get(name + "/" + method);
                double ns = r.getPrimaryResult().getScore();
                double bytes = r.getSecondaryResults().get("gc.alloc.rate.norm").getScore();
                double cns = c.get(name)[op];
                System.out.printf("%-24s %-7s %7d %12.2f %12.2f %10.2f %12.1f%n", name, method, fields, ns, cns,
                        ns / cns, bytes);
            }
        }
    }

    /** Compiles and runs the C benchmark for one attribute; returns {decode, encode} ns/op. */
    private static double[] runC(Path source, String struct, int seconds) throws IOException, InterruptedException {
        IbaStruct attribute = IbaStructs.ALL.get(struct).get();
        List<Field> fields = comparableFields(attribute);
        if (fields.isEmpty()) {
            throw new IllegalStateException(struct + " has no fields mapped to libibmad");
        }
        Path dir = Files.createTempDirectory("jrdma-wire-bench-");
        Path include = dir.resolve("fields.h");
        List<String> lines = new ArrayList<>();
        for (Field f : fields) {
            lines.add(f.ibmadName().split(",")[0] + ",");
        }
        Files.write(include, lines);
        Path exe = dir.resolve("wire_bench");
        run(List.of("gcc", "-O2", "-DFIELDS_FILE=\"" + include + "\"", "-o", exe.toString(), source.toString(), "-libmad"));
        String out = run(List.of(exe.toString(), Integer.toString(attribute.size()), Integer.toString(seconds)));
        double[] result = new double[2];
        for (String line : out.split("\n")) {
            String[] t = line.split(" ");
            result[t[0].equals("decode") ? 0 : 1] = Double.parseDouble(t[1]);
        }
        return result;
    }

    private static Map<String, RunResult> runJmh(int seconds) throws RunnerException {
        Options options = new OptionsBuilder().include(WireBenchmark.class.getName()).forks(1)
                .warmupIterations(3).warmupTime(TimeValue.seconds(1))
                .measurementIterations(5).measurementTime(TimeValue.seconds(seconds))
                .timeUnit(TimeUnit.NANOSECONDS).addProfiler(GCProfiler.class).build();
        Map<String, RunResult> byKey = new LinkedHashMap<>();
        for (RunResult r : new Runner(options).run()) {
            String method = r.getParams().getBenchmark();
            byKey.put(r.getParams().getParam("struct") + "/" + method.substring(method.lastIndexOf('.') + 1), r);
        }
        return byKey;
    }

    private static String run(List<String> command) throws IOException, InterruptedException {
        Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes());
        if (!p.waitFor(5, TimeUnit.MINUTES) || p.exitValue() != 0) {
            throw new IllegalStateException(String.join(" ", command) + " failed:\n" + out);
        }
        return out;
    }
}
