package io.locus.memcached.protocol;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.embedded.EmbeddedChannel;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/**
 * Meta flags are read in the client's line as memcached 1.6 reads them: each error below is the line memcached 1.6.18
 * answers to the same request (the full-mode cache answers these itself; {@code BinaryKeysIT} compares it with a real
 * memcached).
 */
class MetaFlagsTest {
    /** Decodes {@code line} (with its data block, if any) as the proxy's decoder does. */
    private static MemcachedRequest decode(String line) {
        EmbeddedChannel ch = new EmbeddedChannel(new MemcachedRequestDecoder(ProtocolLimits.DEFAULTS));
        ch.writeInbound(Unpooled.copiedBuffer(line, StandardCharsets.ISO_8859_1));
        Object m = ch.readInbound();
        ch.finishAndReleaseAll();
        return (MemcachedRequest) m;
    }

    private static String error(String line) {
        MemcachedRequest r = decode(line);
        try {
            return r.metaFlags().error(r.command());
        } finally {
            r.release();
        }
    }

    @Test
    void acceptedFlags_noError() {
        assertNull(error("mg key v f t k O123 q\r\n"));
        assertNull(error("ms key 2 T60 F4294967295 C12 MS I q\r\nhi\r\n"));
        assertNull(error("ma key N0 J10 D18446744073709551615 MI v\r\n"));
        assertNull(error("md key q I T30 Oab\r\n"));
        assertNull(error("mg key v O" + "x".repeat(31) + "\r\n"), "32 bytes with the O: memcached's longest opaque");
    }

    @Test
    void unknownFlag_invalidFlag_orInvalidOrDuplicateForDeleteAndArithmetic() {
        assertEquals("CLIENT_ERROR invalid flag", error("mg key v x\r\n"));
        assertEquals("CLIENT_ERROR invalid flag", error("ms key 2 Z\r\nhi\r\n"));
        assertEquals("CLIENT_ERROR invalid or duplicate flag", error("md key Z\r\n"));
        assertEquals("CLIENT_ERROR invalid or duplicate flag", error("ma key Dx\r\n"));
        assertEquals(
                "CLIENT_ERROR invalid flag",
                error("mg key v Tx Z\r\n"),
                "an unknown flag wins over an earlier bad number");
    }

    @Test
    void repeatedFlagOrByteFrom0x7f_duplicateFlag() {
        assertEquals("CLIENT_ERROR duplicate flag", error("mg key v v\r\n"));
        assertEquals("CLIENT_ERROR duplicate flag", error("mg key v k1 k2\r\n"));
        assertEquals("CLIENT_ERROR duplicate flag", error("mg key v \u00e9\r\n"));
        assertEquals("CLIENT_ERROR duplicate flag", error("mg key \u007f\r\n"));
    }

    @Test
    void missingOrNonDigitNumber_eachFlagsOwnMessage() {
        assertEquals("CLIENT_ERROR bad token in command line format", error("mg key v T\r\n"));
        assertEquals("CLIENT_ERROR bad token in command line format", error("mg key v Tab\r\n"));
        assertEquals("CLIENT_ERROR bad token in command line format", error("mg key v N\r\n"));
        assertEquals("CLIENT_ERROR bad token in command line format", error("mg key R9223372036854775808\r\n"));
        assertEquals("CLIENT_ERROR bad token in command line format", error("mg key T5x\r\n"));
        assertNull(error("mg key R9223372036854775807 T-9223372036854775808\r\n"), "C's 64-bit long, as memcached");
        assertNull(error("mg key T\t5\t\r\n"), "strtol skips white space before, stops at white space after");
        assertNull(error("mg key C-0 J-18446744073709551615\r\n"), "strtoull negates; only a negative result fails");
        assertEquals("CLIENT_ERROR invalid numeric initial value", error("mg key J-1\r\n"));
        assertEquals("CLIENT_ERROR invalid numeric delta value", error("mg key D18446744073709551616\r\n"));
        assertEquals("CLIENT_ERROR bad token in command line format", error("ms key 2 C-1\r\nhi\r\n"));
        assertEquals("CLIENT_ERROR bad command line format", error("mg key v F\r\n"), "F has no message of its own");
        assertEquals("CLIENT_ERROR bad command line format", error("ms key 2 Fx\r\nhi\r\n"));
        assertEquals("CLIENT_ERROR invalid numeric initial value", error("mg key v Jx\r\n"));
        assertEquals("CLIENT_ERROR invalid numeric delta value", error("ms key 2 D\r\nhi\r\n"));
        assertEquals("CLIENT_ERROR incorrect length for M token", error("ms key 2 MSS\r\nhi\r\n"));
        assertEquals(
                "CLIENT_ERROR invalid numeric initial value",
                error("mg key F Tx Jx\r\n"),
                "the last bad number's message wins");
        assertEquals("CLIENT_ERROR bad token in command line format", error("mg key v q Tx\r\n"), "q hides no error");
    }

    @Test
    void overlongTokens_opaqueTooLong_tooManyFlags() {
        assertEquals("CLIENT_ERROR opaque token too long", error("mg key v O" + "x".repeat(32) + "\r\n"));
        assertEquals("CLIENT_ERROR opaque token too long", error("md key O" + "9".repeat(40) + "\r\n"));
        String eighteen = "mg key v f t k s c h l u q O1 T1 N1 R1 P1 L1 I C1\r\n";
        assertEquals("CLIENT_ERROR options flags are too long", error(eighteen));
        assertNull(error("mg key v f t k s c h l u q O1 T1 N1 R1 P1 L1 I\r\n"), "17 flags: 20 tokens with the last");
        assertEquals(
                "CLIENT_ERROR options flags too long", error("ma key v t c q O1 N1 J1 D1 MI T1 k s f h l u I C1\r\n"));
        assertEquals(
                "CLIENT_ERROR options flags too long",
                error("ms key 2 v t c q O1 N1 T1 k s f h l u I F1 C1 MS\r\nhi\r\n"));
    }

    @Test
    void hiddenHintTokens_areNotForwardedNorChecked() {
        MemcachedRequest r = decode("mg key v Pshop k L~20ms Oab\r\n");
        try {
            MetaFlags f = r.metaFlags();
            assertEquals(5, f.count());
            assertEquals("shop", f.value(1));
            assertTrue(f.complete());
            f.hide(3, 1);
            assertFalse(f.complete());
            assertEquals(3, f.count());
            assertEquals('k', f.letter(1));
            assertEquals('O', f.letter(2));
            ByteBuf out = Unpooled.buffer();
            assertEquals(" v k Oab", f.writeTo(out).toString(StandardCharsets.ISO_8859_1));
            assertEquals(f.writtenBytes(), out.readableBytes());
            assertTrue(f.has('k'));
            assertFalse(f.has('P'));
            assertTrue(f.allOf("vkO"));
            assertFalse(f.anyOf("PL"));
        } finally {
            r.release();
        }
    }
}
