package io.locus.memcached.bench;

/**
 * MicroFuge's deadline ranges (Table 6.2 [MicroFuge §6.1.2]) plus best-effort. The code is the second field of every
 * generated key ({@code tenant:code:id}), so the proxy's {@code deadline_rules} give each range its deadline.
 */
public enum DeadlineRange {
    /** Range 1: 10-30 ms in the thesis. */
    R1("1"),
    /** Range 2: 30-100 ms. */
    R2("2"),
    /** Range 3: 100-1000 ms. */
    R3("3"),
    /** No deadline: best-effort, never counted in deadlines met. */
    BEST_EFFORT("b");

    private final String code;

    DeadlineRange(String code) {
        this.code = code;
    }

    /** The key-prefix code of this range. */
    public String code() {
        return code;
    }
}
