package io.locus.cassandra.copy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

class RowDigestTest {
    private static ByteBuffer b(String s) {
        return ByteBuffer.wrap(s.getBytes(StandardCharsets.UTF_8));
    }

    @Test
    void orderOfRows_doesNotMatter_butEveryValueDoes() {
        RowDigest a = new RowDigest();
        a.add(new ByteBuffer[] {b("/a"), b("1")});
        a.add(new ByteBuffer[] {b("/b"), null});
        RowDigest b = new RowDigest();
        b.add(new ByteBuffer[] {b("/b"), null});
        b.add(new ByteBuffer[] {b("/a"), b("1")});
        assertTrue(a.sameAs(b));
        assertEquals(2, a.rows());

        RowDigest nullVsEmpty = new RowDigest();
        nullVsEmpty.add(new ByteBuffer[] {b("/a"), b("1")});
        nullVsEmpty.add(new ByteBuffer[] {b("/b"), b("")});
        assertFalse(a.sameAs(nullVsEmpty), "a null and an empty value differ");

        RowDigest shifted = new RowDigest();
        shifted.add(new ByteBuffer[] {b("/a1"), b("")});
        shifted.add(new ByteBuffer[] {b("/b"), null});
        assertFalse(a.sameAs(shifted), "bytes moved between columns differ");

        RowDigest missing = new RowDigest();
        missing.add(new ByteBuffer[] {b("/a"), b("1")});
        assertFalse(a.sameAs(missing));
    }

    @Test
    void addingDoesNotConsumeTheCallersBuffers() {
        ByteBuffer v = b("value");
        new RowDigest().add(new ByteBuffer[] {v});
        assertEquals(5, v.remaining());
    }
}
