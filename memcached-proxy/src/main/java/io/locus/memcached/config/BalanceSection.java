package io.locus.memcached.config;

import io.locus.memcached.balance.BalanceConfig;

/**
 * MBal's balancer and the availability copies.
 *
 * @param active whether the proxy runs the balancer at all: {@code lb.enabled}, or {@code replication_factor} above 1
 * @param replicationFactor {@code replication_factor}
 * @param capacity {@code lb.capacity}: operations per second one backend serves
 * @param memoryPollMicros {@code lb.memory_poll}; 0 = never read the backends' memory
 * @param tuning the balancer's own settings from the other {@code lb.*} keys; its defaults when not active
 */
public record BalanceSection(
        boolean active, int replicationFactor, double capacity, long memoryPollMicros, BalanceConfig tuning) {}
