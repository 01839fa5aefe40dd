package io.locus.memcached.proxy;

import io.locus.memcached.protocol.BackendReply;
import io.locus.memcached.protocol.ReplyFormat;
import io.netty.buffer.ByteBuf;
import io.netty.util.concurrent.ScheduledFuture;

/**
 * One request to one backend and what to do with the reply. Exactly one of {@link Callback#onReply} and
 * {@link Callback#onFailure} is called, once, on the backend connection's event loop.
 */
final class BackendCall {
  /** Receives the outcome. */
  interface Callback {
    /** The backend's whole reply; the callee must release it. */
    void onReply(BackendReply reply);

    /** No reply: {@code line} is the {@code SERVER_ERROR ...} line to give the client (without {@code \r\n}). */
    void onFailure(String line);
  }

  final ReplyFormat format;
  /** The encoded request; owned by this call until written. */
  ByteBuf request;
  final Callback callback;
  /** {@code System.nanoTime()} after which the call times out; set when the connection takes it. */
  long timeoutAtNanos;
  boolean done;

  BackendCall(ReplyFormat format, ByteBuf request, Callback callback) {
    this.format = format;
    this.request = request;
    this.callback = callback;
  }

  void reply(BackendReply reply) {
    if (done) {
      reply.release();
      return;
    }
    finish();
    callback.onReply(reply);
  }

  void fail(String line) {
    if (done) {
      return;
    }
    finish();
    callback.onFailure(line);
  }

  private void finish() {
    done = true;
    if (request != null) {
      request.release();
      request = null;
    }
  }
}
