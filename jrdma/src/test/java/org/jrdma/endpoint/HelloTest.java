package org.jrdma.endpoint;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** The endpoint's private data: what it sends, and what it refuses as not an endpoint's. */
class HelloTest {
    @Test
    void encodesBigEndianMagicFirstAndDecodesBack() {
        Hello hello = new Hello(64, 0x7f00_1234_5678_9000L, 0x1a2b3c);
        byte[] bytes = hello.encode();
        assertEquals(Hello.BYTES, bytes.length);
        assertArrayEquals(new byte[] {'j', 'R', 'D', 'e', 0, 0, 0, 64}, Arrays.copyOf(bytes, 8));
        assertEquals(Optional.of(hello), Hello.decode(bytes));
    }

    @Test
    void decodesFromPrivateDataPaddedWithZeros() {
        Hello hello = new Hello(64, 0x1000L, 7);
        assertEquals(Optional.of(hello), Hello.decode(Arrays.copyOf(hello.encode(), 196)));
    }

    @Test
    void refusesWhatIsNotAnEndpointsHello() {
        byte[] good = new Hello(64, 0x1000L, 7).encode();
        assertTrue(Hello.decode(null).isEmpty(), "none");
        assertTrue(Hello.decode(Arrays.copyOf(good, Hello.BYTES - 1)).isEmpty(), "too short");
        assertTrue(Hello.decode(Arrays.copyOf("hello".getBytes(StandardCharsets.US_ASCII), 56)).isEmpty(),
                "another program's private data");
        byte[] wrongMagic = good.clone();
        wrongMagic[0] = 'J';
        assertTrue(Hello.decode(wrongMagic).isEmpty(), "wrong magic");
        assertTrue(Hello.decode(withReceives(good, 0)).isEmpty(), "no receives");
        assertTrue(Hello.decode(withReceives(good, -1)).isEmpty(), "negative receives");
        assertTrue(Hello.decode(withReceives(good, Hello.MAX_RECEIVES + 1)).isEmpty(), "too many receives");
        assertEquals(Hello.MAX_RECEIVES, Hello.decode(withReceives(good, Hello.MAX_RECEIVES)).orElseThrow().receives());
    }

    private static byte[] withReceives(byte[] hello, int receives) {
        byte[] changed = hello.clone();
        ByteBuffer.wrap(changed).putInt(4, receives);
        return changed;
    }
}
