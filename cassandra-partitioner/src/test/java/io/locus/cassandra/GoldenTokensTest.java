package io.locus.cassandra;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;

import io.locus.cassandra.drop.TokenLayout;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.HexFormat;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The token of every golden key must equal the committed one byte for byte: the mapping never changes silently. */
class GoldenTokensTest {
    @Test
    void everyGoldenKey_getsExactlyTheCommittedToken() throws IOException {
        List<String> all = goldenLines();
        List<String> lines = all.stream().filter(l -> !l.startsWith("#")).toList();
        assertEquals(GoldenTokens.keys().size(), lines.size(), "vector count");
        for (String line : lines) {
            String[] f = line.split("\t", 3);
            byte[] key = HexFormat.of().parseHex(f[0]);
            String actual = DropPartitioner.instance
                    .getTokenFactory()
                    .toString(DropPartitioner.instance.getToken(ByteBuffer.wrap(key)));
            assertEquals(f[1], actual, "token of golden key '" + f[2] + "' (" + f[0] + ")");
        }
    }

    @Test
    void goldenFileHeader_namesTheCurrentTokenFormat() throws IOException {
        List<String> format = goldenLines().stream()
                .filter(l -> l.startsWith(GoldenTokens.FORMAT_LINE_PREFIX))
                .toList();
        assertEquals(
                List.of(GoldenTokens.FORMAT_LINE_PREFIX + TokenLayout.FORMAT_VERSION),
                format,
                "token-format line of " + GoldenTokens.RESOURCE
                        + " (a new format needs new vectors: see GoldenTokens.main)");
    }

    private List<String> goldenLines() throws IOException {
        try (InputStream in = getClass().getResourceAsStream(GoldenTokens.RESOURCE)) {
            assertNotNull(in, "missing " + GoldenTokens.RESOURCE);
            return new String(in.readAllBytes(), StandardCharsets.UTF_8).lines().toList();
        }
    }
}
