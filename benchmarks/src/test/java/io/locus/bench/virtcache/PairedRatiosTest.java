package io.locus.bench.virtcache;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.locus.bench.virtcache.PairedRatios.Verdict;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

class PairedRatiosTest {

    @Test
    void medianOfOddAndEvenCounts() {
        assertEquals(2.0, PairedRatios.median(new double[] {3, 1, 2}));
        assertEquals(2.5, PairedRatios.median(new double[] {4, 1, 3, 2}));
    }

    @Test
    void equalRatiosGiveAPointInterval() {
        PairedRatios p = PairedRatios.of(List.of(1.02, 1.02, 1.02, 1.02), 0.95, 1);
        assertEquals(1.02, p.median());
        assertEquals(1.02, p.low());
        assertEquals(1.02, p.high());
        assertEquals(4, p.pairs());
        assertEquals(Verdict.MET, p.atLeast(0.95));
    }

    @Test
    void intervalHoldsTheMedianAndNarrowsWithMorePairs() {
        Random random = new Random(42);
        List<Double> few = new ArrayList<>();
        List<Double> many = new ArrayList<>();
        for (int i = 0; i < 400; i++) {
            double r = 1.0 + 0.1 * random.nextGaussian();
            if (i < 10) {
                few.add(r);
            }
            many.add(r);
        }
        PairedRatios a = PairedRatios.of(few, 0.95, 7);
        PairedRatios b = PairedRatios.of(many, 0.95, 7);
        assertTrue(a.low() <= a.median() && a.median() <= a.high(), a.toString());
        assertTrue(b.low() <= b.median() && b.median() <= b.high(), b.toString());
        assertTrue(b.high() - b.low() < a.high() - a.low(), a + " vs " + b);
        // 400 draws around 1.0 with a spread of 0.1: the median's interval is a few hundredths wide around 1.
        assertTrue(b.low() > 0.97 && b.high() < 1.03, b.toString());
    }

    @Test
    void sameSeedSameInterval() {
        List<Double> r = List.of(0.9, 1.1, 1.0, 0.97, 1.05, 0.99);
        assertEquals(PairedRatios.of(r, 0.95, 3), PairedRatios.of(r, 0.95, 3));
    }

    @Test
    void verdictsAgainstAFloorAndACeiling() {
        PairedRatios p = new PairedRatios(1.0, 0.97, 1.03, 20);
        assertEquals(Verdict.MET, p.atLeast(0.95));
        assertEquals(Verdict.UNDECIDED, p.atLeast(0.98));
        assertEquals(Verdict.NOT_MET, p.atLeast(1.05));
        assertEquals(Verdict.MET, p.atMost(1.05));
        assertEquals(Verdict.UNDECIDED, p.atMost(1.0));
        assertEquals(Verdict.NOT_MET, p.atMost(0.95));
    }

    @Test
    void badInputIsNamed() {
        IllegalArgumentException few =
                assertThrows(IllegalArgumentException.class, () -> PairedRatios.of(List.of(1.0), 0.95, 1));
        assertEquals("1 paired ratios (expected: at least 2)", few.getMessage());
        IllegalArgumentException bad =
                assertThrows(IllegalArgumentException.class, () -> PairedRatios.of(List.of(1.0, Double.NaN), 0.95, 1));
        assertEquals("paired ratio 2 is NaN (expected: a finite value > 0)", bad.getMessage());
        IllegalArgumentException zero =
                assertThrows(IllegalArgumentException.class, () -> PairedRatios.of(List.of(0.0, 1.0), 0.95, 1));
        assertEquals("paired ratio 1 is 0.0 (expected: a finite value > 0)", zero.getMessage());
        IllegalArgumentException conf =
                assertThrows(IllegalArgumentException.class, () -> PairedRatios.of(List.of(1.0, 1.0), 1.5, 1));
        assertEquals("confidence 1.5 (expected: between 0 and 1)", conf.getMessage());
    }
}
