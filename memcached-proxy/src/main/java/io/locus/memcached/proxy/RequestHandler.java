package io.locus.memcached.proxy;

/**
 * What the proxy does with a keyed request: the hook where the deadline cache ({@code io.locus.memcached.cache}) and
 * the scheduler ({@code io.locus.memcached.schedule}) plug in, as wrappers around {@link PassThroughHandler}.
 *
 * <p>One instance per I/O thread; {@link #handle} is called on that thread only, so implementations need no locks as
 * long as they keep to it. Commands answered by the proxy itself ({@code version}, {@code stats}, {@code mn},
 * {@code quit}, {@code verbosity}, {@code dlctx}) never reach the handler.
 */
public interface RequestHandler {
  /**
   * Handles one request. Must complete {@code reply} exactly once (possibly later, on the same thread) and release
   * {@code request.request()} once it no longer needs it.
   */
  void handle(ProxyRequest request, ReplySink reply);

  /**
   * Builds the handler of one I/O thread around that thread's pass-through path to the backends; the place where a
   * deadline cache or scheduler wraps the pass-through. Called once per I/O thread, on that thread.
   */
  @FunctionalInterface
  interface Factory {
    /** The identity: requests go straight to the backends. */
    Factory PASS_THROUGH = backends -> backends;

    RequestHandler create(RequestHandler backends);
  }
}
