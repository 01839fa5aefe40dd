package io.locus.bench.compare;

import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.infra.Blackhole;

/**
 * A benchmark whose cost the test controls: {@value #TOKENS} of JMH's {@link Blackhole#consumeCPU} tokens (work linear
 * in the token count), times {@code 1 +} the system property {@value #SLOWDOWN_PROPERTY}. The slowdown is not a
 * {@code @Param}, so a slowed run keeps the same benchmark key and {@code compare} sets the two runs side by side.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
public class CalibratedWorkBenchmark {
    static final String SLOWDOWN_PROPERTY = "locus.test.slowdown";
    static final long TOKENS = 4_000;

    private long tokens;

    @Setup
    public void setUp() {
        tokens = Math.round(TOKENS * (1 + Double.parseDouble(System.getProperty(SLOWDOWN_PROPERTY, "0"))));
    }

    @Benchmark
    public void work() {
        Blackhole.consumeCPU(tokens);
    }
}
