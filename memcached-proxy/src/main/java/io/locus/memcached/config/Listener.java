package io.locus.memcached.config;

import io.locus.memcached.tenant.Deadline;

/**
 * One address the proxy accepts clients on.
 *
 * @param host address to bind
 * @param port TCP port, 0..65535 (0 picks a free port, for tests)
 * @param tenant the tenant of this port's clients when nothing more specific names one, or null
 * @param defaultDeadline the default deadline of this port's requests, or null
 */
public record Listener(String host, int port, String tenant, Deadline defaultDeadline) {}
