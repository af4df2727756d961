package org.jrdma.mad;

import static org.junit.jupiter.api.Assertions.assertTrue;

import com.code_intelligence.jazzer.api.FuzzedDataProvider;
import com.code_intelligence.jazzer.junit.FuzzTest;
import java.time.Duration;
import java.util.Arrays;
import java.util.Optional;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.jrdma.devices.EndPort;
import org.jrdma.iba.wire.MadDecoder;

/**
 * Coverage-guided fuzz target (Jazzer) for RMPP reassembly ({@link RmppReceiver}, IBA 13.6): a
 * first DATA segment and up to 100 further packets (any bytes, any received length, possibly
 * reported dropped), as the engine hands them over. The only exceptions allowed out are
 * {@link MadException} (an abort, the sender's ABORT or STOP) and {@link MadTimeoutException}
 * (the packets run out); a transfer that completes stays within {@link RmppReceiver#MAX_TRANSFER}.
 */
class RmppFuzzTest {
    private static final MadAddress FROM = new MadAddress(7, 1, 0x80010000, 0, 0, null);
    /** The engine only sends ACKs and ABORTs here: into a transport that drops them. */
    private static final MadEngine ENGINE = new MadEngine(new SilentTransport(), 1);

    @FuzzTest(maxDuration = "10s")
    void reassembly(FuzzedDataProvider data) {
        int retries = data.consumeInt(0, 2);
        ReceivedMad first = packet(data);
        if (!Rmpp.isData(first)) {
            return; // the engine hands a receiver only an active DATA segment
        }
        BlockingQueue<ReceivedMad> inbox = new LinkedBlockingQueue<>();
        while (data.remainingBytes() > 0 && inbox.size() < 100) {
            inbox.add(packet(data));
        }
        try {
            ReceivedMad whole = new RmppReceiver(ENGINE, new byte[MadDecoder.MAD_SIZE], first, inbox, Duration.ZERO,
                    retries).receive();
            assertTrue(whole.length() <= RmppReceiver.MAX_TRANSFER + MadDecoder.MAD_SIZE);
        } catch (MadException expected) {
            // an abort, the sender's ABORT or STOP, or the packets ran out (MadTimeoutException)
        }
    }

    /** A 256-byte MAD from the fuzzer's bytes, with a received length and a dropped flag. */
    private static ReceivedMad packet(FuzzedDataProvider data) {
        boolean dropped = data.consumeBoolean();
        int length = data.consumeInt(0, MadDecoder.MAD_SIZE);
        byte[] mad = Arrays.copyOf(data.consumeBytes(MadDecoder.MAD_SIZE), MadDecoder.MAD_SIZE);
        return new ReceivedMad(mad, length, FROM, dropped);
    }

    /** A transport that receives nothing and drops what it is given. */
    private static final class SilentTransport implements MadTransport {
        private final BlockingQueue<ReceivedMad> never = new LinkedBlockingQueue<>();

        @Override
        public void send(byte[] mad, MadAddress to) {
        }

        @Override
        public ReceivedMad receive(int timeoutMillis) {
            try {
                return never.poll(timeoutMillis, TimeUnit.MILLISECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return null;
            }
        }

        @Override
        public String describe() {
            return "fuzzing transport";
        }

        @Override
        public Optional<EndPort> endPort() {
            return Optional.empty();
        }

        @Override
        public void close() {
        }
    }
}
