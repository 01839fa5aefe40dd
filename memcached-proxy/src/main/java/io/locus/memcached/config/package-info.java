/**
 * The proxy's YAML configuration: {@link io.locus.memcached.config.ConfigLoader} reads a file into a validated
 * {@link io.locus.memcached.config.ProxyConfig}: one typed record per section (server, limits, backend, deadline, local
 * cache, balance, tenants), built in {@code Sections}, the one place that reads keys by name. Every scalar key, its type, default, range and meaning is one row of
 * {@link io.locus.memcached.config.ConfigKeys}; the README's table is checked against it. Unknown keys and bad values
 * fail at start-up with a {@link io.locus.memcached.config.ConfigException} naming the key, the value and what was
 * expected.
 */
package io.locus.memcached.config;
