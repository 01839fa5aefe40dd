package io.locus.memcached.backend;

import io.locus.memcached.protocol.MemcachedRequest;
import io.locus.memcached.protocol.MetaFlags;
import io.locus.memcached.tenant.Resolution;

/**
 * A request with what the proxy learned about it.
 *
 * @param request the decoded request; owned by the handler, which must release it
 * @param resolution its tenant and deadline; a meta request's flags to forward are {@link #flags()}
 * @param arrivalNanos {@link System#nanoTime()} when the whole request (data block included) had been read; the
 *     deadline counts from here
 * @param connectionId the client connection's number; all requests of one client connection to one backend must
 *     use the same backend connection (see {@link BackendPool}), or a pipelined get could overtake the set before it
 */
public record ProxyRequest(MemcachedRequest request, Resolution resolution, long arrivalNanos, long connectionId) {
    /** A meta request's flags as they are forwarded, in the client's line (hint tokens hidden); valid while it is. */
    public MetaFlags flags() {
        return request.metaFlags();
    }
}
