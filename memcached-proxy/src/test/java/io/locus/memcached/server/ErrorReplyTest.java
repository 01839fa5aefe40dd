package io.locus.memcached.server;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

class ErrorReplyTest {
    private static ByteBuf reply(String s) {
        return Unpooled.copiedBuffer(s, StandardCharsets.ISO_8859_1);
    }

    @Test
    void memcachedsErrorLines_areErrors() {
        assertTrue(ErrorReply.is(reply("ERROR\r\n")));
        assertTrue(ErrorReply.is(reply("CLIENT_ERROR bad data chunk\r\n")));
        assertTrue(ErrorReply.is(reply("SERVER_ERROR backend timeout\r\n")));
    }

    @Test
    void replies_thatStartLikeAnError_butAreNot_areNot() {
        for (String ok : new String[] {
            "END\r\n",
            "EXISTS\r\n",
            "EN\r\n",
            "STORED\r\n",
            "NOT_STORED\r\n",
            "VALUE k 0 1\r\nE\r\nEND\r\n",
            "HD\r\n",
            "SERVER",
            "CLIENT_ERRO",
            ""
        }) {
            assertFalse(ErrorReply.is(reply(ok)), ok);
        }
        assertFalse(ErrorReply.is(null), "a quiet request's silence");
    }

    @Test
    void readsFromTheReadersIndex() {
        ByteBuf b = reply("VALUE x\r\nSERVER_ERROR out of memory\r\n");
        b.readerIndex("VALUE x\r\n".length());
        assertTrue(ErrorReply.is(b));
    }
}
