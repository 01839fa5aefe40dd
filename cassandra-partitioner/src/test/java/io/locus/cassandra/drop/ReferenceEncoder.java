package io.locus.cassandra.drop;

import com.google.common.hash.HashCode;
import com.google.common.hash.Hashing;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * A second, deliberately naive implementation of the encoding of DESIGN.md, "Token layout" (token format 3:
 * names hashed with {@link NameHash}'s definition), written from that description with String operations, a zero-padded
 * little-endian ByteBuffer for the names' H32 and Guava's murmur3_128 for non-path keys. Tests compare
 * {@link PathEncoder} against it.
 */
final class ReferenceEncoder {
    private ReferenceEncoder() {}

    static byte[] encode(String key) {
        byte[] t = new byte[48];
        if (key.isEmpty()) {
            return t;
        }
        List<String> comps = new ArrayList<>();
        boolean path = key.startsWith("/");
        if (path) {
            for (String s : key.substring(1).split("/", -1)) {
                if (s.equals("..")) {
                    path = false;
                    break;
                }
                if (!s.isEmpty() && !s.equals(".")) {
                    comps.add(s);
                }
            }
        }
        ByteBuffer b = ByteBuffer.wrap(t);
        if (!path) {
            HashCode h = Hashing.murmur3_128(0x44524F50).hashBytes(key.getBytes(StandardCharsets.UTF_8));
            ByteBuffer le = ByteBuffer.wrap(h.asBytes()).order(java.nio.ByteOrder.LITTLE_ENDIAN);
            b.putShort(0, (short) 0xFFFF).putLong(2, le.getLong(0)).putLong(10, le.getLong(8));
            return t;
        }
        if (comps.isEmpty()) {
            b.putInt(44, 1);
            return t;
        }
        List<String> parent = comps.subList(0, comps.size() - 1);
        for (int i = 0; i < Math.min(parent.size(), 20); i++) {
            b.putShort(2 * i, (short) (1 + h32(parent.get(i)) % 0xFFFE));
        }
        if (parent.size() > 20) {
            b.putInt(40, (int) code32(String.join("/", parent.subList(20, parent.size()))));
        }
        b.putInt(44, (int) code32(comps.get(comps.size() - 1)));
        return t;
    }

    /** H32 of token format 3 (the definition in NameHash's class comment), unsigned. */
    private static long h32(String s) {
        byte[] name = s.getBytes(StandardCharsets.UTF_8);
        ByteBuffer padded = ByteBuffer.wrap(java.util.Arrays.copyOf(name, (name.length / 8 + 1) * 8))
                .order(java.nio.ByteOrder.LITTLE_ENDIAN);
        long h = 0x44524F50L;
        for (int i = 0; i < padded.capacity(); i += 8) {
            h = (h ^ padded.getLong(i)) * 0x9E3779B97F4A7C15L;
            h ^= h >>> 32;
        }
        long x = h ^ name.length;
        x = (x ^ (x >>> 29)) * 0xD6E8FEB86659FD93L;
        return x >>> 32;
    }

    private static long code32(String s) {
        long h = h32(s);
        return h == 0 ? 1 : h;
    }
}
