package io.locus.memcached.backend;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.locus.memcached.stats.ProxyStats;
import org.junit.jupiter.api.Test;

class BackendTest {
    private static Backend backend() {
        return new Backend("127.0.0.1", 1, null, 0, null, 1, null, new ProxyStats(), 1_000_000, 1_000_000, 60_000_000);
    }

    @Test
    void failureBeforeTheBackendWasSeenUpElsewhere_isForgotten() {
        Backend b = backend();
        b.markDown();
        assertEquals("down", b.state());
        b.forgetFailuresBefore(System.nanoTime());
        assertEquals("up", b.state());
    }

    @Test
    void failureAfterThat_keepsFailingFast() {
        Backend b = backend();
        long seenUp = System.nanoTime();
        b.markDown();
        b.forgetFailuresBefore(seenUp);
        assertEquals("down", b.state());
    }
}
