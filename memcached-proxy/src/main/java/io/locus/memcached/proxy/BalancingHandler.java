package io.locus.memcached.proxy;

import io.locus.memcached.balance.ReplicaDirectory;
import io.locus.memcached.balance.ReplicaDirectory.ReadTarget;
import io.locus.memcached.balance.ReplicaDirectory.WriteTicket;
import io.locus.memcached.protocol.BackendReply;
import io.locus.memcached.protocol.Command;
import io.locus.memcached.protocol.MemcachedRequest;
import io.locus.memcached.protocol.ReplyFormat;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.CompositeByteBuf;
import io.netty.buffer.PooledByteBufAllocator;
import io.netty.channel.EventLoop;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.List;

/**
 * One I/O thread's balancing step in front of its pass-through path: counts every keyed request in the
 * {@link io.locus.memcached.balance.Balancer}, sends single-key {@code get}s of replicated keys to the replica
 * predicted cheapest, and hands writes to replicated keys to the replication thread ({@link BalancingServices}).
 *
 * <p>Guarantees (with the rule of {@link ReplicaDirectory}): a read goes to a shadow only if the shadow acknowledged
 * the newest write begun through this proxy, so no client reads a value older than its own last write through the
 * proxy; a shadow miss or failure is retried at the home, so replication never turns a hit into a miss. Client keys
 * starting with {@code __dlp:} are refused ({@code CLIENT_ERROR reserved key prefix}). Requests whose reply carries
 * home-specific data ({@code gets}, {@code gat}, {@code mg}) and multi-key gets go to the home.
 */
final class BalancingHandler implements RequestHandler {
  static final String RESERVED = "__dlp:";
  private static final byte[] END = "\r\nEND\r\n".getBytes(StandardCharsets.US_ASCII);

  private final BalancingServices services;
  private final RequestHandler passThrough;
  private final BackendPool pool;
  private final EventLoop loop;

  BalancingHandler(BalancingServices services, RequestHandler passThrough, BackendPool pool, EventLoop loop) {
    this.services = services;
    this.passThrough = passThrough;
    this.pool = pool;
    this.loop = loop;
  }

  @Override
  public void handle(ProxyRequest pr, ReplySink reply) {
    MemcachedRequest req = pr.request();
    Command c = req.command();
    if (c.family() == Command.Family.BROADCAST) {
      passThrough.handle(pr, reply);
      return;
    }
    List<String> keys = keysOf(req, pr);
    for (String k : keys) {
      if (k.startsWith(RESERVED)) {
        req.release();
        reply.completeLine("CLIENT_ERROR reserved key prefix");
        return;
      }
    }
    if (keys.isEmpty()) {
      passThrough.handle(pr, reply);
    } else if (services.availability != null) {
      withCopies(pr, keys, reply);
    } else if (c.family() == Command.Family.RETRIEVAL || c == Command.MG || c == Command.ME) {
      read(pr, keys, reply);
    } else {
      write(pr, keys.get(0), reply);
    }
  }

  /**
   * Replication for availability: single-key reads from the first up copy (the next one on a failure), writes to
   * every copy on the replication thread. Multi-key gets go to the primaries as in the pass-through path.
   */
  private void withCopies(ProxyRequest pr, List<String> keys, ReplySink reply) {
    Command c = pr.request().command();
    boolean read = c.family() == Command.Family.RETRIEVAL || c == Command.MG || c == Command.ME;
    if (read) {
      for (String k : keys) {
        services.balancer.onRead(k, false);
      }
      if (keys.size() == 1) {
        services.availability.read(pr, services.availability.copiesOf(keys.get(0)), 0, pool, reply);
      } else {
        passThrough.handle(pr, reply);
      }
      return;
    }
    String key = keys.get(0);
    services.balancer.onWrite(key);
    services.loop.execute(() -> services.availability.write(pr, key, loop, reply));
  }

  /** The keys as hashed on the ring: a meta key with the {@code b} flag is decoded first. */
  private static List<String> keysOf(MemcachedRequest req, ProxyRequest pr) {
    if (!req.command().isMeta()) {
      return req.keys();
    }
    String key = req.key();
    if (pr.resolution().forwardedFlags().stream().anyMatch(f -> f.charAt(0) == 'b')) {
      try {
        key = new String(Base64.getDecoder().decode(key), StandardCharsets.ISO_8859_1);
      } catch (IllegalArgumentException e) {
        return List.of(); // memcached rejects it; the pass-through relays its error
      }
    }
    return List.of(key);
  }

  private void read(ProxyRequest pr, List<String> keys, ReplySink reply) {
    MemcachedRequest req = pr.request();
    if (req.command() != Command.GET || keys.size() != 1) {
      int home = -1;
      for (String k : keys) {
        home = services.balancer.onRead(k, false).backend();
      }
      passThrough.handle(pr, keys.size() == 1 ? timed(home, reply) : reply);
      return;
    }
    String key = keys.get(0);
    ReadTarget target = services.balancer.onRead(key, true);
    if (!target.shadow()) {
      passThrough.handle(pr, timed(target.backend(), reply));
      return;
    }
    shadowRead(pr, key, target.backend(), reply);
  }

  /** {@code get key} answered from a shadow's {@code __dlp:r:key}; a miss or failure asks the home instead. */
  private void shadowRead(ProxyRequest pr, String key, int shadow, ReplySink reply) {
    long start = System.nanoTime();
    String line = "mg " + BalancingServices.shadowKey(key) + " b v f\r\n";
    ByteBuf wire = PooledByteBufAllocator.DEFAULT.buffer(line.length());
    wire.writeCharSequence(line, StandardCharsets.ISO_8859_1);
    pool.backend(shadow).send(new BackendCall(ReplyFormat.META, wire, new BackendCall.Callback() {
      @Override
      public void onReply(BackendReply r) {
        BalancingServices.HomeValue v;
        try {
          v = BalancingServices.parseMetaValue(r.bytes());
        } finally {
          r.release();
        }
        if (v.data == null) {
          fallback();
          return;
        }
        services.balancer.onCompletion(shadow, System.nanoTime() - start);
        services.shadowReads.increment();
        services.stats.cmdGet.increment();
        services.stats.getHits.increment();
        pr.request().release();
        String head = "VALUE " + key + " " + v.flags + " " + v.data.readableBytes() + "\r\n";
        CompositeByteBuf out = PooledByteBufAllocator.DEFAULT.compositeBuffer(3);
        out.addComponent(true, PooledByteBufAllocator.DEFAULT.buffer(head.length())
            .writeBytes(head.getBytes(StandardCharsets.ISO_8859_1)));
        out.addComponent(true, v.data);
        out.addComponent(true, PooledByteBufAllocator.DEFAULT.buffer(END.length).writeBytes(END));
        reply.complete(out);
      }

      @Override
      public void onFailure(String failure) {
        fallback();
      }

      private void fallback() {
        services.shadowFallbacks.increment();
        passThrough.handle(pr, reply);
      }
    }), pr.connectionId());
  }

  private void write(ProxyRequest pr, String key, ReplySink reply) {
    int stripe = BalancingServices.stripeOf(key);
    services.inFlightWrites.incrementAndGet(stripe);
    WriteTicket ticket;
    synchronized (services.order) {
      ticket = services.balancer.onWrite(key);
      if (ticket.shadows().length > 0) {
        // Versioned; the stripe stays counted until the write is done, so that a copy for a replica set created
        // after this one's lease ended cannot read the home before this write lands.
        WriteTicket t = ticket;
        services.loop.execute(() -> services.versionedWrite(pr, key, t.version(), t.home(), t.shadows(), loop,
            reply, () -> services.inFlightWrites.decrementAndGet(stripe)));
        return;
      }
    }
    int home = ticket.home();
    long start = System.nanoTime();
    passThrough.handle(pr, new ReplySink() {
      @Override
      public void complete(ByteBuf bytes) {
        landed();
        reply.complete(bytes);
      }

      @Override
      public void completeLine(String line) {
        landed();
        reply.completeLine(line);
      }

      @Override
      public void completeSilently() {
        landed();
        reply.completeSilently();
      }

      private void landed() {
        services.inFlightWrites.decrementAndGet(stripe);
        services.balancer.onCompletion(home, System.nanoTime() - start);
      }
    });
  }

  /** Records the request's latency at {@code backend} when it completes. */
  private ReplySink timed(int backend, ReplySink reply) {
    if (backend < 0) {
      return reply;
    }
    long start = System.nanoTime();
    return new ReplySink() {
      @Override
      public void complete(ByteBuf bytes) {
        services.balancer.onCompletion(backend, System.nanoTime() - start);
        reply.complete(bytes);
      }

      @Override
      public void completeLine(String line) {
        services.balancer.onCompletion(backend, System.nanoTime() - start);
        reply.completeLine(line);
      }

      @Override
      public void completeSilently() {
        services.balancer.onCompletion(backend, System.nanoTime() - start);
        reply.completeSilently();
      }
    };
  }
}
