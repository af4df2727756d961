package org.jrdma.testkit;

import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Where the real peers' programs are looked for: the {@code PATH}, then {@code /usr/sbin} and
 * {@code /sbin} (where Debian installs OpenSM and ibsim's tools for root).
 */
public final class Executables {
    private Executables() {
    }

    /** Whether an executable of this name is on the PATH (or is an existing executable path). */
    public static boolean isInstalled(String name) {
        if (name.contains("/")) {
            return Files.isExecutable(Path.of(name));
        }
        String path = System.getenv().getOrDefault("PATH", "/usr/bin:/bin");
        for (String dir : path.split(":")) {
            if (!dir.isEmpty() && Files.isExecutable(Path.of(dir, name))) {
                return true;
            }
        }
        for (String dir : new String[] {"/usr/sbin", "/sbin"}) {
            if (Files.isExecutable(Path.of(dir, name))) {
                return true;
            }
        }
        return false;
    }
}
