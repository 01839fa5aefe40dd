/**
 * The memcached text and meta protocols as Netty codecs.
 *
 * <p>Entry points: {@link io.locus.memcached.protocol.MemcachedRequestDecoder} turns client bytes into
 * {@link io.locus.memcached.protocol.MemcachedRequest}s (or {@link io.locus.memcached.protocol.RequestError}s that carry
 * the exact error line memcached would send); {@link io.locus.memcached.protocol.BackendResponseDecoder} turns a
 * backend's bytes into whole {@link io.locus.memcached.protocol.BackendReply}s, given the
 * {@link io.locus.memcached.protocol.ReplyFormat} expected for each request it was sent; {@link
 * io.locus.memcached.protocol.RequestWriter} writes a request (or part of a multi-get) for a backend.
 *
 * <p>Framing follows memcached's {@code doc/protocol.txt}: a command line ends at {@code \n} (an optional {@code \r}
 * before it is dropped), tokens are separated by one or more spaces, and a data block is exactly the declared number
 * of bytes followed by {@code \r\n}. Every length is bounded (key, line, value), and where memcached 1.6 answers a
 * malformed line, the decoder answers with the same line so that the proxy is transparent to clients.
 */
package io.locus.memcached.protocol;
