package io.locus.memcached.schedule;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

class ServiceLevelsTest {
    private static final long SECOND = 1_000_000_000L;

    private final ServiceLevels levels = new ServiceLevels(
            List.of(
                    TenantServiceLevel.of("shop", ServiceLevel.GOLD),
                    TenantServiceLevel.of("batch", ServiceLevel.BRONZE),
                    TenantServiceLevel.of("app", ServiceLevel.SILVER)),
            ServiceLevel.SILVER,
            ServiceLevels.DEFAULT_URGENT_THRESHOLD,
            Duration.ofSeconds(1));

    @Test
    void levels_startAtInitialInflation() {
        assertEquals(1.0, levels.kappaLevel("shop"));
        assertEquals(1.25, levels.kappaLevel("app"));
        assertEquals(1.5, levels.kappaLevel("batch"));
        assertEquals(ServiceLevel.SILVER, levels.levelOf("unknown"));
    }

    /** Gold rejected 2 % > 1 %: silver and bronze get 10 % more inflation; gold itself does not. */
    @Test
    void goldOverItsRejectBound_inflatesLowerLevels_thenDecays() {
        levels.rollEpoch(0);
        for (int i = 0; i < 100; i++) {
            levels.recordHardOffer("shop", i < 2 ? OfferOutcome.LOWER_LOAD : OfferOutcome.ADMITTED, 1);
        }
        levels.rollEpoch(SECOND);
        assertEquals(1.0, levels.kappaLevel(ServiceLevel.GOLD), 1e-9);
        assertEquals(1.25 * 1.1, levels.kappaLevel(ServiceLevel.SILVER), 1e-9);
        assertEquals(1.5 * 1.1, levels.kappaLevel(ServiceLevel.BRONZE), 1e-9);
        levels.rollEpoch(2 * SECOND);
        assertEquals(Math.max(1.25, 1.25 * 1.1 / 1.05), levels.kappaLevel(ServiceLevel.SILVER), 1e-9);
        for (int e = 3; e < 20; e++) {
            levels.rollEpoch(e * SECOND);
        }
        assertEquals(1.25, levels.kappaLevel(ServiceLevel.SILVER), 1e-9, "decays back to the initial value");
    }

    /** Silver over 5 % raises only bronze; a level's own rejections never raise itself. */
    @Test
    void silverOverBound_inflatesOnlyBronze() {
        levels.rollEpoch(0);
        for (int i = 0; i < 100; i++) {
            levels.recordHardOffer("app", i < 10 ? OfferOutcome.LOWER_LOAD : OfferOutcome.ADMITTED, 1);
            levels.recordHardOffer("batch", OfferOutcome.LOWER_LOAD, 1);
        }
        levels.rollEpoch(SECOND);
        assertEquals(1.25, levels.kappaLevel(ServiceLevel.SILVER), 1e-9);
        assertEquals(1.5 * 1.1, levels.kappaLevel(ServiceLevel.BRONZE), 1e-9);
    }

    /** Gold's lower-load refusals fall by 30 % every epoch: the inflation helps, so it goes on, up to 4. */
    @Test
    void inflation_thatHelps_continues_andIsCappedAtFour() {
        levels.rollEpoch(0);
        for (int e = 1; e <= 11; e++) {
            int refused = (int) Math.round(500 * Math.pow(0.7, e - 1));
            for (int i = 0; i < 1000; i++) {
                levels.recordHardOffer(
                        "shop", i < refused ? OfferOutcome.LOWER_LOAD : OfferOutcome.ADMITTED, (e - 1) * SECOND + 1);
            }
            levels.rollEpoch(e * SECOND);
        }
        assertEquals(ServiceLevels.KAPPA_LEVEL_MAX, levels.kappaLevel(ServiceLevel.BRONZE), 0.0);
    }

    /**
     * Gold refused 20 % every epoch for lower levels' load, and inflating them does not lower that: they inflate in
     * the first epoch and the first of the two-epoch block after it, then decay back to their initial values.
     */
    @Test
    void inflation_thatDoesNotHelp_stops_andDecays() {
        levels.rollEpoch(0);
        double[] silver = new double[12];
        for (int e = 1; e <= silver.length; e++) {
            for (int i = 0; i < 100; i++) {
                levels.recordHardOffer(
                        "shop", i < 20 ? OfferOutcome.LOWER_LOAD : OfferOutcome.ADMITTED, (e - 1) * SECOND + 1);
            }
            levels.rollEpoch(e * SECOND);
            silver[e - 1] = levels.kappaLevel(ServiceLevel.SILVER);
        }
        assertEquals(1.25 * 1.1 * 1.1, silver[1], 1e-9, "two epochs of inflation");
        assertEquals(1.25 * 1.1 * 1.1 / 1.05, silver[2], 1e-9, "then decay");
        assertEquals(1.25, silver[11], 1e-9, "back at the initial value while gold stays refused");
    }

    /** While decaying, gold's refusals rise by more than a quarter: the inflation was helping, so it resumes. */
    @Test
    void decay_thatHurtsTheHigherLevel_resumesInflation() {
        levels.rollEpoch(0);
        int[] refusedPerEpoch = {20, 20, 20, 40, 40};
        for (int e = 1; e <= refusedPerEpoch.length; e++) {
            for (int i = 0; i < 100; i++) {
                levels.recordHardOffer(
                        "shop",
                        i < refusedPerEpoch[e - 1] ? OfferOutcome.LOWER_LOAD : OfferOutcome.ADMITTED,
                        (e - 1) * SECOND + 1);
            }
            levels.rollEpoch(e * SECOND);
        }
        assertEquals(1.25 * 1.1 * 1.1 / 1.05 / 1.05 * 1.1, levels.kappaLevel(ServiceLevel.SILVER), 1e-9);
    }

    /** Refusals that lower levels cannot cause (idle backend, own level's work, urgent quota) inflate nobody. */
    @Test
    void refusalsLowerLevelsCannotCause_doNotInflate() {
        levels.rollEpoch(0);
        for (int i = 0; i < 100; i++) {
            OfferOutcome o = i < 10
                    ? OfferOutcome.IDLE_INFEASIBLE
                    : i < 20 ? OfferOutcome.OWN_LOAD : i < 30 ? OfferOutcome.TENANT_QUOTA : OfferOutcome.ADMITTED;
            levels.recordHardOffer("shop", o, 1);
        }
        levels.recordHardOffer("shop", OfferOutcome.OTHER, 1);
        levels.rollEpoch(SECOND);
        assertEquals(1.25, levels.kappaLevel(ServiceLevel.SILVER), 1e-9, "1 of 101 is within gold's 1 %");
        assertEquals("101", levels.statsLines().get("locus_level:gold:offers"));
        assertEquals("10", levels.statsLines().get("locus_level:gold:idle_infeasible"));
        assertEquals("1.250", levels.statsLines().get("locus_level:silver:kappa_level"));
    }

    /** Burst 10, then 50 per second: 10 immediate re-issues, the 11th gets a token about 20 ms later. */
    @Test
    void reissue_boundedPerTenant() {
        for (int i = 0; i < 10; i++) {
            assertEquals(true, levels.tryAcquireReissue("shop", 0), "burst token " + i);
        }
        assertEquals(false, levels.tryAcquireReissue("shop", 0));
        assertEquals(true, levels.tryAcquireReissue("batch", 0), "buckets are per tenant");
        assertEquals(false, levels.tryAcquireReissue("shop", 19_000_000));
        assertEquals(true, levels.tryAcquireReissue("shop", 21_000_000));
    }

    @Test
    void parse_acceptsConfigNamesAndRejectsOthers() {
        assertEquals(ServiceLevel.GOLD, ServiceLevel.parse("gold"));
        assertEquals(ServiceLevel.BRONZE, ServiceLevel.parse(" Bronze "));
        assertEquals(
                "service level \"platinum\" (expected: gold, silver or bronze)",
                assertThrows(IllegalArgumentException.class, () -> ServiceLevel.parse("platinum"))
                        .getMessage());
    }

    @Test
    void duplicateTenant_isRejected() {
        assertEquals(
                "tenant \"a\" listed twice (expected: once)",
                assertThrows(
                                IllegalArgumentException.class,
                                () -> new ServiceLevels(
                                        List.of(
                                                TenantServiceLevel.of("a", ServiceLevel.GOLD),
                                                TenantServiceLevel.of("a", ServiceLevel.BRONZE)),
                                        ServiceLevel.GOLD,
                                        Duration.ZERO,
                                        Duration.ofSeconds(1)))
                        .getMessage());
    }
}
