package io.locus.gluster.virtcache.hotblock;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

class TranslatorStatsTest {
    @Test
    void parsesCountersAndTopList() {
        TranslatorStats s = TranslatorStats.parse(
                "version=1\nblock_size=65536\nepoch=2\nreads=8\nwindow_reads=6\ntop=3:5,20:2,21:2\n"
                        .getBytes(StandardCharsets.UTF_8));
        assertEquals(8, s.reads());
        assertEquals(6, s.windowReads());
        assertEquals(2, s.epoch());
        assertEquals(65536, s.blockSize());
        assertEquals(
                List.of(
                        new TranslatorStats.BlockCount(3, 5),
                        new TranslatorStats.BlockCount(20, 2),
                        new TranslatorStats.BlockCount(21, 2)),
                s.top());
        assertEquals(2, s.countOf(21));
        assertEquals(0, s.countOf(4));
    }

    @Test
    void emptyTopList() {
        assertEquals(
                List.of(),
                TranslatorStats.parse("top=\n".getBytes(StandardCharsets.UTF_8)).top());
    }

    @Test
    void badInput_namesLineKeyAndValue() {
        assertMessage("line 2 \"garbage\" (expected: key=value)", "a=1\ngarbage\n");
        assertMessage("key a repeated", "a=1\na=2\n");
        assertMessage("top entry \"3-5\" (expected: block:count)", "top=3-5\n");
        IllegalArgumentException missing = assertThrows(
                IllegalArgumentException.class,
                () -> TranslatorStats.parse("a=1\n".getBytes(StandardCharsets.UTF_8))
                        .reads());
        assertTrue(missing.getMessage().contains("has no key reads"), missing.getMessage());
        IllegalArgumentException notNumber = assertThrows(
                IllegalArgumentException.class,
                () -> TranslatorStats.parse("reads=x\n".getBytes(StandardCharsets.UTF_8))
                        .reads());
        assertTrue(notNumber.getMessage().contains("reads=x (expected: an unsigned integer)"), notNumber.getMessage());
    }

    private static void assertMessage(String expected, String text) {
        IllegalArgumentException e = assertThrows(
                IllegalArgumentException.class, () -> TranslatorStats.parse(text.getBytes(StandardCharsets.UTF_8)));
        assertTrue(e.getMessage().contains(expected), e.getMessage());
    }
}
