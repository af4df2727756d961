package org.jrdma.testkit.vm;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.TimeUnit;

/**
 * A throwaway virtual machine with a working soft-RoCE device {@code rxe0}: each {@link #run}
 * boots Debian's kernel under qemu (software emulation, about 8 s), loads {@code rdma_rxe} on a
 * veth pair ({@code veth0} has 10.0.0.1/24, inside the VM only), runs one shell command as root
 * and powers off.
 *
 * <p>Inside the VM the whole host file system is visible read-only at the same paths (so a host
 * JDK and class folders can be used as they are, even under {@code /tmp}); {@code /tmp} is writable,
 * its writes going to a tmpfs overlaid on the host's {@code /tmp}; {@code HOME} is {@code /tmp} and {@code JAVA_HOME} is this JVM's home, first on {@code PATH}. A folder given to
 * {@link Builder#share} is also mounted writable at its own path.
 *
 * <p>The work is done by the script {@code rxe-vm.sh} shipped beside this class (also run from the
 * source tree by {@code bin/rxe-vm}); it is extracted to a temporary file on first use.
 *
 * <pre>{@code
 * Peers.require(SoftRoceVm.isAvailable(), SoftRoceVm.unavailabilityCause());   // the test kit's rule
 * VmResult r = SoftRoceVm.create().run("ibv_devices", Duration.ofMinutes(2));
 * }</pre>
 */
public final class SoftRoceVm {
    /** Extra time the host side waits for the script past the VM timeout before killing it. */
    private static final Duration GRACE = Duration.ofSeconds(20);
    /** Exit status of the script when the VM timed out. */
    private static final int EXIT_TIMEOUT = 124;
    /** Exit status of the script when the VM infrastructure failed. */
    private static final int EXIT_INFRA = 125;

    private static volatile Path script;
    private static volatile String unavailability;

    private final Path share;
    private final List<String> modules;

    private SoftRoceVm(Builder builder) {
        this.share = builder.share;
        this.modules = List.copyOf(builder.modules);
    }

    /**
     * A VM with the default setup: rxe0 on veth0, no writable share, no extra modules.
     *
     * @return the VM description; nothing is started until {@link #run}
     */
    public static SoftRoceVm create() {
        return builder().build();
    }

    /**
     * A builder for a VM with a writable share or extra kernel modules.
     *
     * @return a new builder
     */
    public static Builder builder() {
        return new Builder();
    }

    /**
     * Whether a VM can be run here: qemu, a Debian kernel with its modules, a static busybox and
     * the RDMA user tools are installed. Checked once per JVM.
     *
     * @return true when {@link #run} can work
     */
    public static boolean isAvailable() {
        return unavailabilityCause() == null;
    }

    /**
     * What is missing to run a VM, with the package to install, or null when nothing is.
     *
     * @return the cause, or null when {@link #isAvailable()}
     */
    public static String unavailabilityCause() {
        String cause = unavailability;
        if (cause == null) {
            cause = check();
            unavailability = cause;
        }
        return cause.isEmpty() ? null : cause;
    }

    /** Runs the script's own check; returns "" when all is there, else what is missing. */
    private static String check() {
        try {
            Output out = execute(List.of("--check"), Duration.ofSeconds(30));
            return out.exitCode == 0 ? "" : ("soft-RoCE VM: " + out.stderr.strip());
        } catch (VmException | UncheckedIOException e) {
            return "soft-RoCE VM: cannot run rxe-vm.sh (is bash installed?): " + e.getMessage();
        }
    }

    /**
     * Runs a Java {@code main} class of this JVM's class path inside the VM with the host's JDK
     * (this JVM's {@code java.home}), native access enabled, and a class path made of the folders
     * or jars the given classes were loaded from (the VM sees the host's files at the same paths).
     *
     * @param timeout     how long the whole VM run may take
     * @param main        the class whose {@code main} runs
     * @param classPathOf classes whose locations make the class path ({@code main}'s and the test
     *                    kit's, for {@link VmChecks}, are added)
     * @param args        the program's arguments
     */
    public VmResult runJava(Duration timeout, Class<?> main, List<Class<?>> classPathOf, String... args) {
        List<String> locations = new ArrayList<>();
        for (Class<?> c : classPathOf) {
            String location = location(c);
            if (!locations.contains(location)) {
                locations.add(location);
            }
        }
        for (String location : List.of(location(main), location(VmChecks.class))) {
            if (!locations.contains(location)) {
                locations.add(location);
            }
        }
        StringBuilder command = new StringBuilder(quote(Path.of(System.getProperty("java.home"), "bin", "java").toString()))
                .append(" --enable-native-access=ALL-UNNAMED -cp ").append(quote(String.join(":", locations)))
                .append(' ').append(main.getName());
        for (String a : args) {
            command.append(' ').append(quote(a));
        }
        return run(command.toString(), timeout);
    }

    /** The class folder or jar a class was loaded from. */
    private static String location(Class<?> type) {
        try {
            return Path.of(type.getProtectionDomain().getCodeSource().getLocation().toURI()).toString();
        } catch (java.net.URISyntaxException e) {
            throw new IllegalStateException("no file location for " + type.getName(), e);
        }
    }

    /** A POSIX shell single-quoted word. */
    private static String quote(String word) {
        return "'" + word.replace("'", "'\\''") + "'";
    }

    /**
     * Boots the VM, runs {@code command} inside with rxe0 up, and powers the VM off.
     *
     * @param command a bash command line, run as root
     * @param timeout the longest the whole run (boot included) may take before the VM is killed
     * @return the command's exit status and output; a non-zero status is not an error here
     * @throws VmException when the VM is unavailable, fails to boot or to set up rxe0, or times
     *                     out; the message carries the tail of the VM console
     */
    public VmResult run(String command, Duration timeout) {
        Objects.requireNonNull(command, "command");
        if (timeout.isNegative() || timeout.isZero()) {
            throw new IllegalArgumentException("timeout must be positive: " + timeout);
        }
        long seconds = Math.max(1, (timeout.toMillis() + 999) / 1000);
        List<String> arguments = new ArrayList<>(List.of("--timeout", Long.toString(seconds)));
        if (share != null) {
            arguments.addAll(List.of("--share", share.toString()));
        }
        for (String module : modules) {
            arguments.addAll(List.of("--module", module));
        }
        arguments.add("--");
        arguments.add(command);
        long start = System.nanoTime();
        Output out = execute(arguments, Duration.ofSeconds(seconds).plus(GRACE));
        Duration elapsed = Duration.ofNanos(System.nanoTime() - start);
        // The script writes to stderr only when the VM itself failed, or a hung boot was tried again.
        boolean vmFailed = (out.exitCode == EXIT_TIMEOUT || out.exitCode == EXIT_INFRA)
                && !out.stderr.isBlank();
        if (vmFailed) {
            throw new VmException("soft-RoCE VM failed after " + elapsed.toMillis() + " ms running ["
                    + command + "]:\n" + out.stderr.strip()
                    + (out.stdout.isBlank() ? "" : "\n--- command output so far ---\n" + out.stdout.strip()));
        }
        if (!out.stderr.isBlank()) {
            System.err.println(out.stderr.strip());
        }
        return new VmResult(out.exitCode, out.stdout, elapsed);
    }

    /** The script's exit status, standard output and standard error. */
    private record Output(int exitCode, String stdout, String stderr) {
    }

    /** Runs the script with these arguments, killing it (and qemu) after {@code limit}. */
    private static Output execute(List<String> arguments, Duration limit) {
        Path stdout = null;
        Path stderr = null;
        try {
            stdout = Files.createTempFile("rxe-vm-", ".out");
            stderr = Files.createTempFile("rxe-vm-", ".err");
            List<String> commandLine = new ArrayList<>(List.of("bash", script().toString()));
            commandLine.addAll(arguments);
            ProcessBuilder builder = new ProcessBuilder(commandLine)
                    .redirectInput(ProcessBuilder.Redirect.from(Path.of("/dev/null").toFile()))
                    .redirectOutput(stdout.toFile())
                    .redirectError(stderr.toFile());
            builder.environment().put("JAVA_HOME", System.getProperty("java.home"));
            Process process = builder.start();
            try {
                if (!process.waitFor(limit.toMillis(), TimeUnit.MILLISECONDS)) {
                    kill(process);
                    throw new VmException("rxe-vm.sh did not return within " + limit.toSeconds()
                            + " s; killed it and qemu. Its messages:\n" + Files.readString(stderr));
                }
            } catch (InterruptedException e) {
                kill(process);
                Thread.currentThread().interrupt();
                throw new VmException("interrupted while the soft-RoCE VM ran; killed it", e);
            }
            return new Output(process.exitValue(), Files.readString(stdout), Files.readString(stderr));
        } catch (IOException e) {
            throw new UncheckedIOException("running rxe-vm.sh", e);
        } finally {
            deleteQuietly(stdout);
            deleteQuietly(stderr);
        }
    }

    /** Kills the script and everything it started (timeout, qemu), and waits for them briefly. */
    private static void kill(Process process) {
        List<ProcessHandle> descendants = process.descendants().toList();
        process.destroy(); // the script's trap stops qemu and removes its work folder
        try {
            process.waitFor(5, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        descendants.forEach(ProcessHandle::destroyForcibly);
        process.destroyForcibly();
    }

    private static void deleteQuietly(Path file) {
        if (file != null) {
            try {
                Files.deleteIfExists(file);
            } catch (IOException ignored) {
                // a temporary file left behind is harmless
            }
        }
    }

    /** The script extracted from this jar to a temporary file (once per JVM). */
    private static Path script() throws IOException {
        Path path = script;
        if (path == null) {
            synchronized (SoftRoceVm.class) {
                path = script;
                if (path == null) {
                    path = extractScript();
                    script = path;
                }
            }
        }
        return path;
    }

    private static Path extractScript() throws IOException {
        Path path = Files.createTempFile("rxe-vm-", ".sh",
                PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
        path.toFile().deleteOnExit();
        try (InputStream in = SoftRoceVm.class.getResourceAsStream("rxe-vm.sh")) {
            if (in == null) {
                throw new IOException("resource org/jrdma/testkit/vm/rxe-vm.sh missing from the testkit");
            }
            Files.copy(in, path, StandardCopyOption.REPLACE_EXISTING);
        }
        return path;
    }

    /**
     * Options of a {@link SoftRoceVm}: a writable share and extra kernel modules.
     */
    public static final class Builder {
        private Path share;
        private final List<String> modules = new ArrayList<>();

        private Builder() {
        }

        /**
         * Mounts this host folder writable inside the VM, at the same absolute path: the way to
         * get files out of the VM (the rest of the host file system is read-only inside).
         *
         * @param folder an existing host folder
         * @return this builder
         */
        public Builder share(Path folder) {
            this.share = folder.toAbsolutePath();
            return this;
        }

        /**
         * Loads one more kernel module inside the VM (with modprobe) before the command runs.
         *
         * @param name a module of the VM kernel, such as {@code siw}
         * @return this builder
         */
        public Builder module(String name) {
            if (!name.matches("[A-Za-z0-9_-]+")) {
                throw new IllegalArgumentException("not a kernel module name: " + name);
            }
            modules.add(name);
            return this;
        }

        /**
         * The VM with these options; nothing is started until {@link SoftRoceVm#run}.
         *
         * @return the VM
         */
        public SoftRoceVm build() {
            return new SoftRoceVm(this);
        }
    }
}
