package io.locus.cassandra;

import io.locus.cassandra.drop.PathEncoder;
import io.locus.cassandra.drop.TokenLayout;
import io.locus.cassandra.drop.TokenMath;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The golden token vectors: (key, token) pairs in {@code src/test/resources/golden-tokens.tsv}, one per line as
 * {@code <key hex> TAB <token hex> TAB <description>}. The file is written once by {@link #main} and then only ever
 * read: a change in any token is a change of the on-disk format and must be a deliberate, reviewed edit.
 */
public final class GoldenTokens {
    /** Classpath resource of the vectors. */
    public static final String RESOURCE = "/golden-tokens.tsv";
    /** Header line naming the mapping version ({@link TokenLayout#FORMAT_VERSION}) the vectors were written with. */
    static final String FORMAT_LINE_PREFIX = "# token-format: ";

    private GoldenTokens() {}

    /** The keys of the vectors with a description each, in file order. */
    static Map<String, byte[]> keys() {
        Map<String, byte[]> k = new LinkedHashMap<>();
        for (String s : List.of(
                "/",
                "/usr",
                "/usr/bin",
                "/usr/bin/ls",
                "/usr/bin/cat",
                "/usr/share/doc/bash/copyright",
                "/etc/passwd",
                "/var/lib/dpkg/info/bash.list",
                "/home/alice/.bashrc",
                "/tmp",
                "/a",
                "/b/c")) {
            k.put("path " + s, utf8(s));
        }
        k.put("empty key (minimum token)", new byte[0]);
        k.put("double slash (root)", utf8("//"));
        k.put("dot (root)", utf8("/."));
        k.put("repeated and trailing slashes", utf8("//usr///bin//ls/"));
        k.put("dot segments", utf8("/./usr/./bin/./ls"));
        k.put("dot-dot segment (non-path region)", utf8("/usr/../etc/passwd"));
        k.put("bare dot-dot (non-path region)", utf8(".."));
        k.put("relative path (non-path region)", utf8("usr/bin/ls"));
        k.put("system key (non-path region)", utf8("system_schema"));
        k.put("single byte non-path", utf8("x"));
        k.put("unicode names", utf8("/ünïcødé/名前/файл.txt"));
        k.put("space tab newline in names", utf8("/my docs/a\tb/line\nbreak"));
        k.put("NUL byte in a name", new byte[] {'/', 'a', 0, 'b', '/', 'c'});
        k.put("invalid UTF-8 bytes", new byte[] {'/', 'x', '/', (byte) 0xC3, (byte) 0x28, '/', (byte) 0xFF, (byte) 0xFE
        });
        k.put("name of 1000 bytes", utf8("/long/" + "n".repeat(1000)));
        k.put("20 levels (deepest without overflow)", utf8(deep(20)));
        k.put("21 levels (overflow field used)", utf8(deep(21)));
        k.put("30 levels", utf8(deep(30)));
        k.put("30 levels with repeated slashes", utf8(deep(30).replace("/d25/", "//d25/./")));
        return k;
    }

    private static String deep(int levels) {
        StringBuilder b = new StringBuilder();
        for (int i = 1; i <= levels; i++) {
            b.append("/d").append(i);
        }
        return b.append("/file").toString();
    }

    private static byte[] utf8(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    /**
     * Writes the vectors to the path given as the only argument. Run once per token format; review every diff of the
     * file. From the repository root, after {@code mvn -pl cassandra-partitioner -am test-compile}:
     * {@code java -cp cassandra-partitioner/target/test-classes:cassandra-partitioner/target/classes
     * io.locus.cassandra.GoldenTokens cassandra-partitioner/src/test/resources/golden-tokens.tsv}
     */
    public static void main(String[] args) throws IOException {
        List<String> lines = new ArrayList<>();
        lines.add(
                "# DROP golden token vectors (mode H, 48-byte tokens). key hex\ttoken hex\tdescription. Never edit silently.");
        lines.add(FORMAT_LINE_PREFIX + TokenLayout.FORMAT_VERSION);
        for (Map.Entry<String, byte[]> e : keys().entrySet()) {
            lines.add(HexFormat.of().formatHex(e.getValue()) + "\t" + TokenMath.toHex(PathEncoder.encode(e.getValue()))
                    + "\t" + e.getKey());
        }
        Files.write(Path.of(args[0]), lines, StandardCharsets.UTF_8);
    }
}
