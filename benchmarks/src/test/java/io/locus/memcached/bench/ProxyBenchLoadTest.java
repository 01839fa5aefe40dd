package io.locus.memcached.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/** {@code --load}: the offered rate as a fraction of the emulated servers' capacity, and its refusals. */
class ProxyBenchLoadTest {
    @Test
    void load_isAFractionOfTheEmulatedCapacity() {
        // scaled10: mean service 0.426 ms, about 2,347 requests/s per backend.
        assertEquals(1.2 * 2 * 1e9 / 426_000, ProxyBench.rateAt(1.2, 2, Emulation.SCALED10), 1e-6);
        assertEquals(4 * 4000, ProxyBench.rateAt(1, 4, Emulation.CAPACITY), 1e-6);
    }

    @Test
    void load_withoutACapacityOrWithARate_isRefusedWithTheReason() {
        String expected = "(expected: load > 0, no --rate, an emulation with a capacity)";
        assertRefused(expected, "--load", "0.8", "--emulation", "none");
        assertRefused(expected, "--load", "0.8", "--rate", "1000");
        assertRefused(expected, "--load", "0");
    }

    private static void assertRefused(String expected, String... args) {
        ProxyBench bench = new ProxyBench(System.out, System.err);
        new CommandLine(bench).setCaseInsensitiveEnumValuesAllowed(true).parseArgs(args);
        CommandLine.ParameterException e = assertThrows(CommandLine.ParameterException.class, bench::call);
        assertTrue(e.getMessage().startsWith("--load ") && e.getMessage().contains(expected), e.getMessage());
    }
}
