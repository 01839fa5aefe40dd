package io.locus.memcached.proxy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.locus.memcached.fixture.MemcachedConfig;
import io.locus.memcached.fixture.MemcachedServers;
import io.netty.util.ResourceLeakDetector;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * A bounded fuzz: 20,000 random and mutated commands on 200 connections through the proxy to real memcached servers.
 * The proxy must keep serving, and a witness connection interleaved with the fuzz must always read back exactly
 * what it wrote (no corruption across connections). Seeded; the seed is printed.
 */
class FuzzIT {
  static final long SEED = Long.getLong("locus.fuzz.seed", 4242L);
  static final int CONNECTIONS = 200;
  static final int COMMANDS_PER_CONNECTION = 100;
  static final Path DIR = Path.of("target", "it", "fuzz");

  static final String[] TEMPLATES = {
      "get fz%d\r\n", "gets fz%d fz%d fz%d\r\n", "gat 10 fz%d fz%d\r\n", "set fz%d 0 0 5\r\nhello\r\n",
      "add fz%d 1 0 2\r\nab\r\n", "replace fz%d 0 0 1\r\nz\r\n", "append fz%d 0 0 3\r\nxyz\r\n",
      "prepend fz%d 0 0 1\r\n<\r\n", "cas fz%d 0 0 1 %d\r\nc\r\n", "delete fz%d\r\n", "incr fz%d %d\r\n",
      "decr fz%d 1 noreply\r\n", "touch fz%d 100\r\n", "set fz%d 0 0 3 noreply\r\nnor\r\n", "mg fz%d v f t c\r\n",
      "mg fz%d v q k O%d\r\n", "ms fz%d 4 T0 F3\r\nmeta\r\n", "ms fz%d 2 q MA\r\nqq\r\n", "md fz%d q\r\n",
      "ma fz%d N0 J%d v\r\n", "me fz%d\r\n", "mn\r\n", "version\r\n", "verbosity 1\r\n", "stats\r\n",
      "mg fz%d v Pten L%dms\r\n", "dlctx tenant=t%d deadline=~%dms\r\n",
  };

  @Test
  void twentyThousandMutatedCommands_neverCrashTheProxyNorCorruptAnotherConnection() throws Exception {
    ResourceLeakDetector.Level previousLevel = ResourceLeakDetector.getLevel();
    ResourceLeakDetector.setLevel(ResourceLeakDetector.Level.PARANOID);
    try {
      fuzz(false, CONNECTIONS);
    } finally {
      // The level is JVM-wide; later tests (LatencyIT) must not pay for PARANOID tracking.
      ResourceLeakDetector.setLevel(previousLevel);
    }
  }

  /** The same against the full proxy (cache, schedulers): fewer connections, the build's time is shared. */
  @Test
  void mutatedCommands_fullProxy_neverCrashNorServeAStaleWitness() throws Exception {
    ResourceLeakDetector.Level previousLevel = ResourceLeakDetector.getLevel();
    ResourceLeakDetector.setLevel(ResourceLeakDetector.Level.PARANOID);
    try {
      fuzz(true, CONNECTIONS / 4);
    } finally {
      ResourceLeakDetector.setLevel(previousLevel);
    }
  }

  private void fuzz(boolean fullProxy, int connections) throws Exception {
    Random rnd = new Random(SEED);
    System.out.println("fuzz seed " + SEED + " (rerun with -Dlocus.fuzz.seed=" + SEED + ")");
    long start = System.nanoTime();
    int errorReplies = 0;
    long replyBytes = 0;
    try (MemcachedServers servers = MemcachedServers.start(2, MemcachedConfig.DEFAULTS, DIR);
        ProxyUnderTest proxy = fullProxy
            ? ProxyUnderTest.withDeadlines(servers.addresses(), "backend: {timeout: 500ms}\n")
            : new ProxyUnderTest(servers.addresses(), "backend: {timeout: 500ms}\n");
        RawClient witness = new RawClient(proxy.address)) {
      byte[] witnessValue = new byte[3000];
      rnd.nextBytes(witnessValue);
      for (int conn = 0; conn < connections; conn++) {
        String key = "witness:" + conn;
        ByteArrayOutputStream set = new ByteArrayOutputStream();
        set.writeBytes(RawClient.bytes("set " + key + " 7 0 " + witnessValue.length + "\r\n"));
        set.writeBytes(witnessValue);
        set.writeBytes(RawClient.bytes("\r\n"));
        assertEquals("STORED\r\n", new String(witness.exchange(set.toByteArray()), StandardCharsets.ISO_8859_1));

        byte[] stream = fuzzStream(rnd);
        try (RawClient fuzz = new RawClient(proxy.address)) {
          fuzz.send(stream);
          fuzz.shutdownOutput();
          byte[] got = fuzz.readAvailable(300);
          replyBytes += got.length;
          String s = new String(got, StandardCharsets.ISO_8859_1);
          errorReplies += count(s, "ERROR");
        } catch (java.io.IOException e) {
          // the proxy may close a fuzz connection (binary magic, quit): that is allowed
        }

        ByteArrayOutputStream expected = new ByteArrayOutputStream();
        expected.writeBytes(RawClient.bytes("VALUE " + key + " 7 " + witnessValue.length + "\r\n"));
        expected.writeBytes(witnessValue);
        expected.writeBytes(RawClient.bytes("\r\nEND\r\n"));
        byte[] got = witness.exchange(RawClient.bytes("get " + key + "\r\n"));
        assertEquals(RawClient.preview(expected.toByteArray()), RawClient.preview(got),
            "witness read after fuzz connection " + conn + " (seed " + SEED + ")");
        assertTrue(java.util.Arrays.equals(expected.toByteArray(), got), "witness bytes after connection " + conn);
      }
      long seconds = (System.nanoTime() - start) / 1_000_000_000L;
      assertEquals("VERSION 1.6.0\r\n", new String(witness.exchange(RawClient.bytes("version\r\n")),
          StandardCharsets.ISO_8859_1), "proxy still serves");
      System.out.printf("fuzz%s: %d commands on %d connections in %d s, %d reply bytes, %d error replies%n",
          fullProxy ? " (full proxy)" : "", connections * COMMANDS_PER_CONNECTION, connections, seconds, replyBytes,
          errorReplies);
      assertTrue(errorReplies > 0, "the fuzz produced malformed input the proxy rejected");
    }
  }

  /** One connection's worth of commands, most of them mutated. */
  static byte[] fuzzStream(Random rnd) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    for (int i = 0; i < COMMANDS_PER_CONNECTION; i++) {
      String t = TEMPLATES[rnd.nextInt(TEMPLATES.length)];
      String cmd = t.replace("%d", Integer.toString(rnd.nextInt(50)));
      byte[] b = cmd.getBytes(StandardCharsets.ISO_8859_1);
      int kind = rnd.nextInt(10);
      if (kind == 0 && b.length > 0) {
        b[rnd.nextInt(b.length)] = (byte) rnd.nextInt(256); // flip a byte
      } else if (kind == 1 && b.length > 1) {
        b = java.util.Arrays.copyOf(b, rnd.nextInt(b.length)); // truncate
      } else if (kind == 2) {
        byte[] garbage = new byte[rnd.nextInt(64)];
        rnd.nextBytes(garbage);
        out.writeBytes(garbage);
      } else if (kind == 3) {
        b = RawClient.bytes(cmd.replaceFirst("[0-9]+", Long.toString(rnd.nextLong()))); // absurd numbers
      } else if (kind == 4) {
        b = RawClient.bytes(cmd.replace(" ", "  ").replace("\r\n", "\n"));
      } else if (kind == 5) {
        b = RawClient.bytes("get " + "k".repeat(200 + rnd.nextInt(100)) + "\r\n");
      }
      out.writeBytes(b);
    }
    return out.toByteArray();
  }

  static int count(String s, String what) {
    int n = 0;
    for (int i = s.indexOf(what); i >= 0; i = s.indexOf(what, i + 1)) {
      n++;
    }
    return n;
  }
}
