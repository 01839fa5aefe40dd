package io.locus.memcached.balance;

import java.util.function.LongSupplier;

/** A clock the test moves by hand, in nanoseconds. */
final class ManualClock implements LongSupplier {
    long nowNanos;

    @Override
    public long getAsLong() {
        return nowNanos;
    }
}
