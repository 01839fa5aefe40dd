package io.locus.memcached.protocol;

/** What {@link MemcachedRequestDecoder} emits: a well-formed request, or the error line a malformed one earns. */
public sealed interface DecodedRequest permits MemcachedRequest, RequestError {}
