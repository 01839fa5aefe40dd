package io.locus.memcached.backend;

import io.locus.memcached.protocol.MemcachedRequest;
import io.locus.memcached.tenant.Resolution;

/**
 * A request with what the proxy learned about it.
 *
 * @param request the decoded request; owned by the handler, which must release it
 * @param resolution its tenant, deadline and the meta flags to forward (hint tokens removed)
 * @param arrivalNanos {@link System#nanoTime()} when the whole request (data block included) had been read; the
 *     deadline counts from here
 * @param connectionId the client connection's number; all requests of one client connection to one backend must
 *     use the same backend connection (see {@link BackendPool}), or a pipelined get could overtake the set before it
 */
public record ProxyRequest(MemcachedRequest request, Resolution resolution, long arrivalNanos, long connectionId) {}
