package org.jrdma.verbs.ffi;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.OptionalInt;
import java.util.concurrent.TimeUnit;
import org.jrdma.testkit.junit.Peers;
import org.junit.jupiter.api.Test;

/**
 * {@link Ibv#rdmaCoreRelease()}: the rdma-core release read from the mapped libibverbs' file
 * name, on which soft-RoCE's extended CQ polling depends ({@code CqEx}).
 */
class RdmaCoreReleaseTest {
    @Test
    void readsTheReleaseFromTheInstalledName() {
        assertEquals(OptionalInt.of(44), Ibv.rdmaCoreRelease(
                "7f1c2a400000-7f1c2a40c000 r-xp 00004000 fe:01 1837 /usr/lib/x86_64-linux-gnu/libibverbs.so.1.14.44.0"));
        assertEquals(OptionalInt.of(61), Ibv.rdmaCoreRelease("7f00-7f10 r--p 00000000 00:1f 42 /usr/lib64/libibverbs.so.1.15.61.2"));
    }

    @Test
    void otherNamesSayNothing() {
        assertEquals(OptionalInt.empty(), Ibv.rdmaCoreRelease("7f00-7f10 r-xp 00000000 00:1f 42 /opt/ib/libibverbs.so.1"));
        assertEquals(OptionalInt.empty(), Ibv.rdmaCoreRelease(
                "7f00-7f10 r-xp 00000000 00:1f 42 /usr/lib/x86_64-linux-gnu/libibverbs/librxe-rdmav34.so"));
        assertEquals(OptionalInt.empty(), Ibv.rdmaCoreRelease("7f00-7f10 r-xp 00000000 00:1f 42 /tmp/libibverbs.so.1.14.44.0.old"));
        assertEquals(OptionalInt.empty(), Ibv.rdmaCoreRelease("7ffd-7ffe rw-p 00000000 00:00 0 [stack]"));
    }

    /** Once loaded (Ibv's initialiser opens it), the release is the one of the installed Debian package libibverbs1 (44.0-2 on Debian 12: 44). */
    @Test
    void theLoadedLibraryIsTheInstalledPackage() throws IOException, InterruptedException {
        Peers.require(Ibv.unavailabilityCause() == null, "libibverbs: " + Ibv.unavailabilityCause());
        Process dpkg = new ProcessBuilder("dpkg-query", "-W", "-f", "${Version}", "libibverbs1").start();
        String version = new String(dpkg.getInputStream().readAllBytes(), StandardCharsets.US_ASCII);
        dpkg.waitFor(30, TimeUnit.SECONDS);
        Peers.require(dpkg.exitValue() == 0 && !version.isEmpty(), "dpkg-query knows no libibverbs1");
        int major = Integer.parseInt(version.replaceFirst("^\\d+:", "").split("[.-]")[0]);
        assertEquals(OptionalInt.of(major), Ibv.rdmaCoreRelease(), "the release of libibverbs1 " + version);
    }
}
