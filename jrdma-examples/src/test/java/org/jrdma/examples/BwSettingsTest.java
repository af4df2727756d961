package org.jrdma.examples;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/**
 * {@code ib_write_bw}'s and {@code ib_send_bw}'s command lines as {@link BwSettings} reads them:
 * perftest's defaults per verb, its {@code -c} and {@code -q}, the receive depth of a send
 * test's server, and what the Java versions refuse.
 */
class BwSettingsTest {
    @Test
    void sendAndWriteDefaults() throws UsageException {
        BwSettings write = BwSettings.parse(new String[] {"-d", "rxe0"});
        assertEquals(5000, write.iters());
        assertEquals(1, write.qps());
        assertFalse(write.ud() || write.send());
        BwSettings send = BwSettings.parseSend(new String[] {"-R", "-d", "rxe0"});
        assertEquals(1000, send.iters());
        assertEquals(512, send.rxDepth(), "DEF_RX_SEND, below -n");
        assertTrue(send.noPeak(), "a send test's server measures no peak");
        assertFalse(BwSettings.parseSend(new String[] {"-R", "10.0.0.1"}).noPeak());
        assertEquals(1, send.cqMod(), "CQ moderation off above 8 KiB");
    }

    @Test
    void udTakesEveryReceiveUpFront() throws UsageException {
        BwSettings ud = BwSettings.parseSend(new String[] {"-R", "-c", "UD", "-n", "1000"});
        assertTrue(ud.ud());
        assertEquals(1000, ud.rxDepth(), "UD: all iterations, up to 16000");
        assertEquals(100, ud.cqMod(), "UD keeps CQ moderation");
        assertEquals(6, BwSettings.parseSend(new String[] {"-R", "-n", "5"}).rxDepth(), "an odd depth made even");
    }

    @Test
    void severalQpsWithRdmaCm() throws UsageException {
        assertEquals(4, BwSettings.parse(new String[] {"-R", "-q", "4"}).qps());
        assertEquals(4, BwSettings.parseSend(new String[] {"-R", "-q", "4", "10.0.0.1"}).qps());
        assertThrows(UsageException.class, () -> BwSettings.parse(new String[] {"-q", "4"}));
        assertThrows(UsageException.class, () -> BwSettings.parse(new String[] {"-R", "-q", "0"}));
    }

    @Test
    void refusals() {
        UsageException udWrite = assertThrows(UsageException.class,
                () -> BwSettings.parse(new String[] {"-R", "-c", "UD"}));
        assertEquals(" UD connection only possible in SEND verb", udWrite.getMessage());
        assertThrows(UsageException.class, () -> BwSettings.parseSend(new String[] {"-R", "-c", "UC"}));
        assertThrows(UsageException.class, () -> BwSettings.parseSend(new String[] {"-R", "-c", "XY"}));
        assertThrows(UsageException.class, () -> BwSettings.parseSend(new String[] {"-d", "rxe0"}), "no -R");
        assertThrows(UsageException.class, () -> BwSettings.parseSend(new String[] {"-R", "-D", "2"}));
    }
}
