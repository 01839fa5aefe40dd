package io.locus.memcached.cache;

/**
 * What a hit carrying a deadline does to the deadline class of the cached item ({@code dlc.class_policy},
 * MicroFuge §3.1.4; the thesis leaves it open, decision 5 of DESIGN.md).
 */
public enum ClassPolicy {
    /** The item moves to the class of the latest access that carried a deadline (default; matches LRU). */
    LATEST,
    /** The item keeps the most urgent deadline ever seen (protects urgent readers, may pin items). */
    MIN
}
