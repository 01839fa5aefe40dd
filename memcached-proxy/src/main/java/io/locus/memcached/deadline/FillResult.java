package io.locus.memcached.deadline;

import io.locus.memcached.cache.DeadlineCache;
import io.locus.memcached.schedule.RejectReason;
import io.netty.buffer.ByteBuf;
import java.nio.charset.StandardCharsets;

/**
 * The outcome of one fill, the backend request {@code mg <key> v f t} the proxy sends on a local miss
 * (DESIGN.md, "Commands"): a value with its client flags and remaining TTL, a miss, a failure line
 * ({@code SERVER_ERROR ...}, {@code CLIENT_ERROR ...}) or a refusal by the scheduler.
 *
 * @param value the data block, or null
 * @param clientFlags the item's client flags (valid with a value)
 * @param ttlNanos remaining TTL, {@link DeadlineCache#NEVER_EXPIRES} for none (valid with a value)
 * @param failure the error line to pass on, or null
 * @param refusal why the scheduler refused the fill, or null
 * @param estimateMicros the scheduler's estimate for a refusal, µs from now
 */
record FillResult(
        byte[] value, int clientFlags, long ttlNanos, String failure, RejectReason refusal, long estimateMicros) {
    static final FillResult MISS = new FillResult(null, 0, 0, null, null, 0);

    static FillResult failure(String line) {
        return new FillResult(null, 0, 0, line, null, 0);
    }

    static FillResult refused(RejectReason reason, long estimateMicros) {
        return new FillResult(null, 0, 0, null, reason, estimateMicros);
    }

    boolean hit() {
        return value != null;
    }

    boolean miss() {
        return value == null && failure == null && refusal == null;
    }

    /** Parses the backend's reply to {@code mg <key> v f t}; the buffer is not released. */
    static FillResult parse(ByteBuf reply) {
        int start = reply.readerIndex();
        FillResult r = next(reply);
        reply.readerIndex(start);
        return r;
    }

    /**
     * Parses the next reply to {@code mg <key> v f t} from the buffer's reader index and moves past it, for a batch of
     * such requests answered back to back; the buffer is not released.
     */
    static FillResult next(ByteBuf reply) {
        int start = reply.readerIndex();
        int eol = reply.indexOf(start, reply.writerIndex(), (byte) '\r');
        if (eol < 0) {
            return failure("SERVER_ERROR backend sent an unterminated line");
        }
        if (eol - start == 2 && reply.getByte(start) == 'E' && reply.getByte(start + 1) == 'N') {
            reply.readerIndex(Math.min(eol + 2, reply.writerIndex())); // a miss, most keys of a large get
            return MISS;
        }
        String line = reply.toString(start, eol - start, StandardCharsets.ISO_8859_1);
        reply.readerIndex(Math.min(eol + 2, reply.writerIndex()));
        if (!line.startsWith("VA ")) {
            return failure(line);
        }
        String[] tokens = line.split(" ");
        int length = Integer.parseInt(tokens[1]);
        int flags = 0;
        long ttl = DeadlineCache.NEVER_EXPIRES;
        for (int i = 2; i < tokens.length; i++) {
            String t = tokens[i];
            if (t.startsWith("f")) {
                flags = Integer.parseUnsignedInt(t.substring(1));
            } else if (t.startsWith("t")) {
                long seconds = Long.parseLong(t.substring(1));
                ttl = seconds < 0 ? DeadlineCache.NEVER_EXPIRES : seconds * 1_000_000_000L;
            }
        }
        byte[] value = new byte[length];
        reply.getBytes(eol + 2, value);
        reply.readerIndex(Math.min(eol + 4 + length, reply.writerIndex()));
        return new FillResult(value, flags, ttl, null, null, 0);
    }
}
