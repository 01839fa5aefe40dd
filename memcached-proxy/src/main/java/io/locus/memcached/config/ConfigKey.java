package io.locus.memcached.config;

/**
 * One scalar configuration key.
 *
 * @param name dotted path in the YAML file, e.g. {@code backend.timeout}
 * @param type how the value is written and checked
 * @param defaultValue the value when the key is absent, written as in the YAML file
 * @param min smallest allowed value in the type's unit (bytes, microseconds, count, fraction); ignored for text
 * @param max largest allowed value in the same unit
 * @param description meaning and unit, for the README
 */
public record ConfigKey(String name, Type type, String defaultValue, double min, double max, String description) {
    /** Value types. */
    public enum Type {
        /** A whole number. */
        INT,
        /** A fraction such as 0.10. */
        DOUBLE,
        /** true or false. */
        BOOL,
        /** Free text. */
        STRING,
        /** A single letter. */
        LETTER,
        /** A duration: a number with unit us, ms or s; a bare number is milliseconds. */
        DURATION,
        /** A size: a number with unit b, k, kb, m, mb, g, gb (powers of 1024); a bare number is bytes. */
        SIZE,
        /** A deadline in the L-token syntax: [~][number[us|ms|s]]. */
        DEADLINE,
        /** One of the words listed in the description (between braces). */
        ENUM
    }
}
