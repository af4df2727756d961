package org.jrdma.subnet;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;

import com.code_intelligence.jazzer.junit.FuzzTest;

/**
 * Coverage-guided fuzz target (Jazzer) for subnet cache files: {@link SubnetCache#read(byte[])}
 * on any bytes. The only exception allowed out is {@link SubnetCacheException}; a cache that reads
 * writes back to bytes that read to the same cache.
 */
class SubnetCacheFuzzTest {

    @FuzzTest(maxDuration = "10s")
    void cacheFile(byte[] cache) {
        Subnet subnet;
        try {
            subnet = SubnetCache.read(cache);
        } catch (SubnetCacheException expected) {
            return;
        }
        byte[] again = SubnetCache.toBytes(subnet);
        assertArrayEquals(again, SubnetCache.toBytes(SubnetCache.read(again)));
    }
}
