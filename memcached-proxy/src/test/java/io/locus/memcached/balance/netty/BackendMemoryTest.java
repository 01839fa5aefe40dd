package io.locus.memcached.balance.netty;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.StringReader;
import org.junit.jupiter.api.Test;

class BackendMemoryTest {
    private static BackendMemory parse(String reply) throws IOException {
        return BackendMemory.parse(new BufferedReader(new StringReader(reply)), "m0");
    }

    @Test
    void readsBytesAndLimit_amongOtherStats() throws IOException {
        assertEquals(
                new BackendMemory(1234, 67108864),
                parse("STAT pid 7\r\nSTAT bytes 1234\r\nSTAT curr_items 3\r\nSTAT limit_maxbytes 67108864\r\nEND\r\n"));
    }

    @Test
    void badReplies_nameTheServerAndTheProblem() {
        assertEquals(
                "stats of m0: no bytes/limit_maxbytes lines",
                assertThrows(IOException.class, () -> parse("STAT pid 7\r\nEND\r\n"))
                        .getMessage());
        assertEquals(
                "stats of m0: unexpected line \"ERROR\"",
                assertThrows(IOException.class, () -> parse("ERROR\r\n")).getMessage());
        assertEquals(
                "stats of m0: not a number in \"STAT bytes x\"",
                assertThrows(IOException.class, () -> parse("STAT bytes x\r\nEND\r\n"))
                        .getMessage());
        assertEquals(
                "stats of m0: connection closed before END",
                assertThrows(IOException.class, () -> parse("STAT bytes 1\r\n")).getMessage());
    }
}
