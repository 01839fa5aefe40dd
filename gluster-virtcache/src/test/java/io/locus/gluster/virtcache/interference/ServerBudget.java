package io.locus.gluster.virtcache.interference;

/**
 * What one emulated server may use: a CPU quota per period (cgroup v1 {@code cpu.cfs_quota_us} / {@code
 * cpu.cfs_period_us}), a throttle of the shared disk (blkio {@code throttle.*_device}), in I/Os and bytes per
 * second for reads and for writes, and a weight ({@code cpu.shares}) by which the group takes a CPU that other
 * processes of the machine want as well (a process outside any group weighs 1024). Zero leaves that limit, or the
 * kernel's weight, as it is.
 */
public record ServerBudget(
        long cpuQuotaMicros,
        long cpuPeriodMicros,
        long readIops,
        long writeIops,
        long readBps,
        long writeBps,
        long cpuShares) {

    /**
     * Half a core in periods of 20 ms (short periods keep a throttled brick's stalls short), and 2,000 I/Os and 32 MiB
     * per second each way: a small server's disk, well below what this machine's disk serves (about 10,000 random
     * 64 KiB direct reads and as many writes per second), so that a server's budget runs out before the shared disk
     * does.
     */
    public static final ServerBudget SERVER = new ServerBudget(10_000, 20_000, 2_000, 2_000, 32L << 20, 32L << 20, 0);

    /** A client machine: one core, and no disk of its own (its I/O goes to the servers). */
    public static final ServerBudget CLIENT = new ServerBudget(20_000, 20_000, 0, 0, 0, 0, 0);

    /** No limit, and the kernel's weight: a group that only counts. */
    public static final ServerBudget UNLIMITED = new ServerBudget(0, 0, 0, 0, 0, 0, 0);

    /**
     * @throws IllegalArgumentException for a negative value, a quota without a period, or a period outside the kernel's
     *     1 ms to 1 s
     */
    public ServerBudget {
        if (cpuQuotaMicros < 0 || readIops < 0 || writeIops < 0 || readBps < 0 || writeBps < 0 || cpuShares < 0) {
            throw new IllegalArgumentException("negative budget " + this + " (expected: every limit >= 0, 0 for none)");
        }
        if (cpuQuotaMicros > 0 && (cpuPeriodMicros < 1_000 || cpuPeriodMicros > 1_000_000)) {
            throw new IllegalArgumentException(
                    "cpu period " + cpuPeriodMicros + " µs (expected: 1000 to 1000000 with a quota)");
        }
        if (cpuShares != 0 && (cpuShares < 2 || cpuShares > 262_144)) {
            throw new IllegalArgumentException(
                    "cpu shares " + cpuShares + " (expected: 2 to 262144, the kernel's range, or 0 for its default)");
        }
        if (cpuQuotaMicros > 0 && cpuQuotaMicros < 1_000) {
            throw new IllegalArgumentException("cpu quota " + cpuQuotaMicros + " µs (expected: at least 1000, or 0)");
        }
    }

    /** The same budget with weight {@code shares} ({@code cpu.shares}; 0 the kernel's default). */
    public ServerBudget withShares(long shares) {
        return new ServerBudget(cpuQuotaMicros, cpuPeriodMicros, readIops, writeIops, readBps, writeBps, shares);
    }

    /** The budget in words, for the bench's header. */
    public String describe() {
        String cpu = cpuQuotaMicros == 0
                ? "any CPU"
                : String.format(
                        "%.2f cores (%d µs per %d µs)",
                        (double) cpuQuotaMicros / cpuPeriodMicros, cpuQuotaMicros, cpuPeriodMicros);
        if (cpuShares > 0) {
            cpu += String.format(", weight %,d (cpu.shares)", cpuShares);
        }
        if (readIops == 0 && writeIops == 0 && readBps == 0 && writeBps == 0) {
            return cpu;
        }
        return String.format(
                "%s, disk %s reads/s %s MiB/s, %s writes/s %s MiB/s",
                cpu, limit(readIops), limit(readBps >> 20), limit(writeIops), limit(writeBps >> 20));
    }

    private static String limit(long v) {
        return v == 0 ? "any" : String.format("%,d", v);
    }
}
