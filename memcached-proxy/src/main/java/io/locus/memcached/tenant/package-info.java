/**
 * Who a request is for (its tenant) and how soon it is needed (its deadline), resolved exactly as
 * DESIGN.md, "Tenants and deadlines", says. Pure Java: no Netty or protocol types.
 *
 * <p>Entry point: {@link io.locus.memcached.tenant.TenantResolver#resolve}, given the connection's
 * {@link io.locus.memcached.tenant.Session}, the key and the meta flags. Supporting types: {@link
 * io.locus.memcached.tenant.Deadline} (the {@code L} token syntax), {@link io.locus.memcached.tenant.PrefixMap}
 * (longest-prefix rules), {@link io.locus.memcached.tenant.AuthFile} (memcached {@code -Y} style user list).
 */
package io.locus.memcached.tenant;
