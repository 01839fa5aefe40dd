package io.locus.memcached.tenant;

/**
 * A relative deadline: how many microseconds after the proxy has read the whole request the reply is wanted, and
 * whether missing it is acceptable (best-effort, written {@code ~}) or not (hard).
 *
 * <p>Syntax (DESIGN.md, "Tenants and deadlines"): {@code ["~"] [duration]}, duration = digits with an optional
 * fraction and an optional unit {@code us}, {@code ms} (the default) or {@code s}. A bare {@code ~} is best-effort with
 * the nominal deadline {@code be.nominal_deadline}; it is represented by {@link #nominal()} = true.
 *
 * @param bestEffort true for {@code ~} deadlines, which are never rejected
 * @param micros the relative deadline in microseconds, > 0; 0 only together with {@code nominal}
 * @param nominal true for a bare {@code ~}: the caller substitutes {@code be.nominal_deadline}
 */
public record Deadline(boolean bestEffort, long micros, boolean nominal) {
    /** The reply memcached gives for a bad token, reused for a bad {@code L} value. */
    public static final String BAD_TOKEN = "CLIENT_ERROR bad token in command line format";

    public Deadline {
        if (micros < 0 || (micros == 0 && !nominal)) {
            throw new IllegalArgumentException("deadline " + micros + " us (expected: > 0)");
        }
    }

    public static Deadline hard(long micros) {
        return new Deadline(false, micros, false);
    }

    public static Deadline bestEffort(long micros) {
        return new Deadline(true, micros, false);
    }

    /** A bare {@code ~}. */
    public static Deadline nominalBestEffort() {
        return new Deadline(true, 0, true);
    }

    /**
     * Parses the {@code L} syntax.
     *
     * @throws IllegalArgumentException with a message naming the input and the expected syntax
     */
    public static Deadline parse(String text) {
        boolean soft = text.startsWith("~");
        String body = soft ? text.substring(1) : text;
        if (body.isEmpty()) {
            if (soft) {
                return nominalBestEffort();
            }
            throw new IllegalArgumentException("deadline \"\" (expected: [~]<number>[us|ms|s], e.g. 20ms or ~500ms)");
        }
        long unitMicros = 1000;
        String number = body;
        if (body.endsWith("us")) {
            unitMicros = 1;
            number = body.substring(0, body.length() - 2);
        } else if (body.endsWith("ms")) {
            number = body.substring(0, body.length() - 2);
        } else if (body.endsWith("s")) {
            unitMicros = 1_000_000;
            number = body.substring(0, body.length() - 1);
        }
        if (!number.matches("[0-9]{1,12}(\\.[0-9]{1,9})?")) {
            throw new IllegalArgumentException(
                    "deadline \"" + text + "\" (expected: [~]<number>[us|ms|s], e.g. 20ms or" + " ~500ms)");
        }
        long micros = new java.math.BigDecimal(number)
                .multiply(java.math.BigDecimal.valueOf(unitMicros))
                .longValue();
        if (micros <= 0) {
            throw new IllegalArgumentException("deadline \"" + text + "\" is below 1 us (expected: > 0)");
        }
        return new Deadline(soft, micros, false);
    }

    /** The deadline in microseconds, with {@code nominalMicros} standing in for a bare {@code ~}. */
    public long microsOr(long nominalMicros) {
        return nominal ? nominalMicros : micros;
    }

    @Override
    public String toString() {
        return (bestEffort ? "~" : "") + (nominal ? "" : micros + "us");
    }
}
