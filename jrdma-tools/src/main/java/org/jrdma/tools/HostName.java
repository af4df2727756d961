package org.jrdma.tools;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The name the OpenIB ping servers answer with: {@code gethostname()}, a dot and
 * {@code getdomainname()} (no dot when the domain is empty; Linux reports an unset domain as
 * {@code (none)}), cut to the room the reply has, as ibping's {@code get_host_and_domain} builds it.
 */
final class HostName {
    private HostName() {
    }

    /** {@code host.domain}, at most {@code room - 1} bytes (the reply keeps a NUL). */
    static String hostAndDomain(int room) {
        String host = read("hostname", "?hostname?");
        String domain = read("domainname", "?domainname?");
        String name = domain.isEmpty() ? host : host + "." + domain;
        byte[] bytes = name.getBytes(StandardCharsets.UTF_8);
        return bytes.length < room ? name : new String(bytes, 0, room - 1, StandardCharsets.UTF_8);
    }

    private static String read(String what, String unknown) {
        try {
            return Files.readString(Path.of("/proc/sys/kernel", what)).strip();
        } catch (IOException e) {
            return unknown;
        }
    }
}
