package io.locus.memcached.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.locus.memcached.balance.BalanceConfig;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/** The balancer's configuration from the proxy's ({@link BalanceSection}). */
class BalanceSectionTest {
    static final String POOL = "pool:\n  servers: [\"127.0.0.1:1:1\", \"127.0.0.1:2:1\", \"127.0.0.1:3:1\"]\n";

    @Test
    void balanceConfig_takesTheProxyKeys() {
        BalanceConfig c = ConfigLoader.parse(
                        POOL + "lb:\n  enabled: true\n"
                                + "  epoch: 250ms\n  replicas_max: 3\n  shadow_updates: async\n  sample_rate: 0.2\n",
                        "test")
                .balance()
                .tuning();
        assertEquals(Duration.ofMillis(250), c.epoch());
        assertEquals(3, c.replicasMax());
        assertFalse(c.syncShadowUpdates());
        assertEquals(0.2, c.sampleRate());
        assertTrue(c.phase1Enabled());
        assertFalse(c.phase3Enabled());
    }

    @Test
    void balanceConfig_takesPhase3_butRefusesItAndPhase1WithAvailabilityCopies() {
        BalanceConfig p1p3 = ConfigLoader.parse(
                        POOL + "lb:\n  enabled: true\n" + "  phases: p1,p3\n  copy_rate: 64k\n", "test")
                .balance()
                .tuning();
        assertTrue(p1p3.phase1Enabled());
        assertTrue(p1p3.phase3Enabled());
        assertEquals(64 * 1024, p1p3.copyRateBytesPerSecond());
        ConfigException p3 = assertThrows(
                ConfigException.class,
                () -> ConfigLoader.parse(POOL + "replication_factor: 2\nlb:\n  enabled: true\n  phases: p3\n", "test")
                        .balance()
                        .tuning());
        assertEquals(
                "lb.phases: \"p3\" with replication_factor 2 (expected: none; bucket migration of availability"
                        + " copies is not supported yet)",
                p3.getMessage());
        ConfigException both = assertThrows(
                ConfigException.class,
                () -> ConfigLoader.parse(POOL + "replication_factor: 2\nlb:\n  enabled: true\n", "test")
                        .balance()
                        .tuning());
        assertEquals(
                "lb.phases: \"p1\" with replication_factor 2 (expected: none; Phase 1 shadows on top of"
                        + " availability copies are not supported yet)",
                both.getMessage());
        BalanceConfig onlyCopies = ConfigLoader.parse(POOL + "replication_factor: 2\n", "test")
                .balance()
                .tuning();
        assertFalse(onlyCopies.phase1Enabled(), "without lb.enabled the balancer only observes");
    }

    @Test
    void balanceConfig_reportsTheBalancersOwnRangeErrors() {
        ConfigException e = assertThrows(
                ConfigException.class,
                () -> ConfigLoader.parse(POOL + "lb:\n  enabled: true\n  phases: p2\n", "test")
                        .balance()
                        .tuning());
        assertTrue(e.getMessage().startsWith("lb.phases"), e.getMessage());
    }

    @Test
    void inactive_withoutLbAndWithOneCopy() {
        assertFalse(ConfigLoader.parse(POOL, "test").balance().active());
        assertTrue(ConfigLoader.parse(POOL + "replication_factor: 2\n", "test")
                .balance()
                .active());
    }
}
