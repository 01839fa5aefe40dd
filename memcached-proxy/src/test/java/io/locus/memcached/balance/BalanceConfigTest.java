package io.locus.memcached.balance;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class BalanceConfigTest {

    @Test
    void defaults_matchSpecTables() {
        // MBal §3.1, Figure 4 threshold table and README.md, "Configuration".
        BalanceConfig c = BalanceConfig.defaults();
        assertEquals(Duration.ofSeconds(1), c.epoch());
        assertEquals(4, c.persistenceEpochs());
        assertEquals(0.05, c.sampleRate());
        assertEquals(1024, c.hotKeyTableSize());
        assertEquals(4, c.writeWeight());
        assertEquals(0.5, c.decay());
        assertEquals(0.02, c.hotRateFraction());
        assertEquals(0.5, c.hotHomeLoadFraction());
        assertEquals(0.1, c.replicaRateFraction());
        assertEquals(2, c.replicasMax());
        assertEquals(64, c.replHigh());
        assertEquals(4, c.leaseP1Epochs());
        assertEquals(0.20, c.imbalanceRdev());
        assertEquals(0.75, c.serverLoadThresh());
        assertEquals(0.10, c.imbThresh());
        assertEquals(8, c.maxIter());
        assertEquals(30, c.p3CooldownEpochs());
        assertEquals(0.10, c.p3MinGain());
        assertEquals(0.5, c.p1BenefitFraction());
        assertEquals(16, c.cacheletsPerBackend());
        assertEquals(2, c.fallbackEpochs());
        assertEquals(4L << 20, c.copyRateBytesPerSecond());
        assertEquals(1, c.replicationFactor());
        assertTrue(c.phase1Enabled());
        assertTrue(c.phase3Enabled());
    }

    @Test
    void phases_selectWhichPhasesRun() {
        BalanceConfig none = BalanceConfig.defaults().withOverrides(Map.of("lb.phases", "none"));
        assertFalse(none.phase1Enabled() || none.phase3Enabled());
        BalanceConfig p3 = BalanceConfig.defaults().withOverrides(Map.of("lb.phases", " P3 "));
        assertFalse(p3.phase1Enabled());
        assertTrue(p3.phase3Enabled());
        assertEquals(
                "lb.phases: \"p1,p2\" (expected: none, or a comma-separated list of p1 and p3; there is no p2 for"
                        + " unmodified memcached)",
                assertThrows(
                                IllegalArgumentException.class,
                                () -> BalanceConfig.defaults().withOverrides(Map.of("lb.phases", "p1,p2")))
                        .getMessage());
    }

    @ParameterizedTest
    @CsvSource(
            delimiter = '|',
            value = {
                "lb.sample_rate|0|lb.sample_rate: 0.0 (expected: 0.0 < value <= 1.0)",
                "lb.sample_rate|1.5|lb.sample_rate: 1.5 (expected: 0.0 < value <= 1.0)",
                "lb.persistence|0|lb.persistence: 0 (expected: 1 <= value <= 1000)",
                "lb.decay|1|lb.decay: 1.0 (expected: 0.0 <= value < 1.0)",
                "lb.replicas_max|0|lb.replicas_max: 0 (expected: 1 <= value <= 16)",
                "lb.repl_high|-1|lb.repl_high: -1 (expected: 0 <= value <= 1048576)",
                "lb.server_load_thresh|0|lb.server_load_thresh: 0.0 (expected: 0.0 < value <= 1.0)",
                "lb.max_iter|0|lb.max_iter: 0 (expected: 1 <= value <= 1000)",
                "lb.cachelets_per_backend|5000|lb.cachelets_per_backend: 5000 (expected: 1 <= value <= 4096)",
                "replication_factor|0|replication_factor: 0 (expected: 1 <= value <= 16)",
                "lb.copy_rate|0|lb.copy_rate: 0 (expected: >= 1 byte per second)",
                "lb.epoch|0s|lb.epoch: PT0S (expected: a positive duration)",
                "lb.persistence|four|lb.persistence: \"four\" (expected: an integer)",
                "lb.sample_rate|five|lb.sample_rate: \"five\" (expected: a decimal number)",
                "lb.epoch|1h|lb.epoch: \"1h\" (expected: a duration such as 1s or 500ms)",
                "lb.shadow_updates|maybe|lb.shadow_updates: \"maybe\" (expected: sync or async)",
                "lb.copy_rate|4g|lb.copy_rate: \"4g\" (expected: bytes per second such as 4m)",
            })
    void badValue_isRejectedWithKeyValueAndRange(String key, String value, String message) {
        IllegalArgumentException e = assertThrows(
                IllegalArgumentException.class, () -> BalanceConfig.defaults().withOverrides(Map.of(key, value)));
        assertEquals(message, e.getMessage());
    }

    @Test
    void unknownKey_isRejectedListingKnownKeys() {
        IllegalArgumentException e = assertThrows(
                IllegalArgumentException.class,
                () -> BalanceConfig.defaults().withOverrides(Map.of("lb.sampel_rate", "0.1")));
        assertEquals(true, e.getMessage().startsWith("unknown balancer key \"lb.sampel_rate\" (expected one of: ["));
        assertEquals(true, e.getMessage().contains("lb.sample_rate"));
    }

    @Test
    void overrides_parseEveryUnit() {
        BalanceConfig c = BalanceConfig.defaults()
                .withOverrides(Map.of(
                        "lb.epoch",
                        "500ms",
                        "lb.copy_rate",
                        "8m",
                        "lb.shadow_updates",
                        "async",
                        "lb.replicas_max",
                        "3",
                        "lb.sample_rate",
                        " 0.1 "));
        assertEquals(Duration.ofMillis(500), c.epoch());
        assertEquals(500_000_000L, c.epochNanos());
        assertEquals(8L << 20, c.copyRateBytesPerSecond());
        assertFalse(c.syncShadowUpdates());
        assertEquals(3, c.replicasMax());
        assertEquals(0.1, c.sampleRate());
        assertEquals(
                512L << 10,
                BalanceConfig.defaults()
                        .withOverrides(Map.of("lb.copy_rate", "512k"))
                        .copyRateBytesPerSecond());
    }

    @Test
    void overrides_withOneBadValue_leaveTheOriginalUntouched() {
        BalanceConfig c = BalanceConfig.defaults();
        assertThrows(
                IllegalArgumentException.class, () -> c.withOverrides(Map.of("lb.replicas_max", "3", "lb.decay", "2")));
        assertEquals(BalanceConfig.defaults(), c);
    }
}
