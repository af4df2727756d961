package org.jrdma.tools;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.jrdma.testkit.fabric.Fabric;
import org.jrdma.testkit.junit.SimulatedFabric;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * {@code -y/--m_key}: the M_Key goes into every SMP ibtool sends (read back from the requests
 * {@code --trace} decodes), and the commands print what the C tools print with the same
 * {@code -y}. ibsim does not check M_Keys (its SMA ignores them), so the output with a key equals
 * the output without; what the key changes is the request on the wire.
 */
@SimulatedFabric(topology = "fat-tree")
class MKeyOptionTest {
    private static final String KEY = "0x1234abcd5678ef01";
    /**
     * Bytes 16 to 31 of a MAD in {@code --trace}'s hex dump; the SMP's M_Key is bytes 24 to 31 (IBA
     * 14.2.1.1, the same place in LID-routed and directed-route SMPs), the last eight shown.
     */
    private static final Pattern SENT_MKEY = Pattern.compile("(?m)^\\s*0010:(?:\\s+\\p{XDigit}{2}){8}((?:\\s+\\p{XDigit}{2}){8})\\s*$");

    @ParameterizedTest
    @ValueSource(strings = {"smpquery nodeinfo 4", "smpquery -D portinfo 0,1 1", "smpdump 4 0x11", "smpdump -D 0,1 0x15",
            "ibroute 3", "ibtracert 4 13", "iblinkinfo", "ibaddr 4", "sminfo", "perfquery 4 1"})
    void printsWhatTheCToolPrintsWithTheSameKey(String command, Fabric fabric) {
        String[] words = (command.replaceFirst(" ", " -y " + KEY + " ")).split(" ");
        AgainstC.run(fabric, words[0], Arrays.copyOfRange(words, 1, words.length))
                .assertSame(s -> s.replaceAll("activity count \\d+", "activity count <n>")
                        .replaceAll("(?m)^((?:Port(?:Xmit|Rcv)(?:Data|Pkts)):\\.+)\\d+$", "$1<n>"));
    }

    @Test
    void ibnetdiscoverPrintsWhatTheCToolPrintsWithTheSameKey(Fabric fabric) {
        AgainstC.run(fabric, "ibnetdiscover", "--m_key", KEY).assertSame(IbtoolRun::withoutDate);
    }

    @ParameterizedTest
    @ValueSource(strings = {"smpquery nodeinfo 4", "smpquery -D nodedesc 0,1,1", "smpdump -D 0,1 0x15", "ibtracert 4 13", "ibnetdiscover"})
    void everySmpSentCarriesTheKey(String command, Fabric fabric) {
        String[] words = (command.replaceFirst(" |$", " --sim " + fabric.socketName() + " --trace -y " + KEY + " ")).trim().split(" ");
        IbtoolRun run = IbtoolRun.of(words);
        assertEquals(0, run.exitCode(), run.err());
        int smps = 0;
        for (String sent : run.err().split("(?m)^(?=SEND |RECV |TIMEOUT )")) {
            if (sent.startsWith("SEND ")) {
                Matcher m = SENT_MKEY.matcher(sent);
                assertTrue(m.find(), "no M_Key in a sent SMP:\n" + sent);
                assertEquals(KEY, mKey(m), sent);
                smps++;
            }
        }
        assertTrue(smps > 0, "--trace showed no SMP sent:\n" + run.err());
    }

    @Test
    void withoutTheOptionTheKeyIsZero(Fabric fabric) {
        IbtoolRun run = IbtoolRun.of("smpquery", "--sim", fabric.socketName(), "--trace", "nodeinfo", "4");
        Matcher m = SENT_MKEY.matcher(run.err());
        assertTrue(m.find(), run.err());
        assertEquals("0x0000000000000000", mKey(m));
    }

    /** The M_Key of a {@link #SENT_MKEY} match, as 0x and 16 hex digits. */
    private static String mKey(Matcher m) {
        return "0x" + m.group(1).replaceAll("\\s", "");
    }

    @Test
    void aKeyThatIsNotA64BitNumberIsAUsageError() {
        IbtoolRun run = IbtoolRun.of("smpquery", "--sim", "x", "-y", "0x1ffffffffffffffff", "nodeinfo", "4");
        assertEquals(ExitCodes.USAGE, run.exitCode());
        assertTrue(run.err().contains("is not a 64-bit number"), run.err());
        assertFalse(run.err().contains("Exception"), run.err());
    }
}
