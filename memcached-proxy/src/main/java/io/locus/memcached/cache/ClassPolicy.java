package io.locus.memcached.cache;

/**
 * What a hit carrying a deadline does to the deadline class of the cached item ({@code dlc.class_policy},
 * {@code shared/specs/proxy.md} §1.5; the thesis leaves it open, register §3 row 5).
 */
public enum ClassPolicy {
    /** The item moves to the class of the latest access that carried a deadline (default; matches LRU). */
    LATEST,
    /** The item keeps the most urgent deadline ever seen (protects urgent readers, may pin items). */
    MIN
}
