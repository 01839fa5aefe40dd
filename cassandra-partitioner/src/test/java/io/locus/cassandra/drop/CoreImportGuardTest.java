package io.locus.cassandra.drop;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/** The core must stay free of host types so the driver helper and the CLI can use it without a Cassandra node. */
class CoreImportGuardTest {
    private static final Pattern HOST_IMPORT =
            Pattern.compile("(?m)^\\s*import\\s+(static\\s+)?(org\\.apache\\.cassandra|com\\.datastax)");

    @Test
    void coreSources_importNoHostPackage() throws IOException {
        assertEquals(
                List.of(),
                offenders(
                        Path.of("src/main/java/io/locus/cassandra/drop"),
                        ".java",
                        bytes -> HOST_IMPORT
                                .matcher(new String(bytes, StandardCharsets.UTF_8))
                                .find()));
    }

    @Test
    void coreClassFiles_referenceNoHostClass() throws IOException {
        // Catches fully qualified names too: every class a .class file uses is named in its constant pool.
        assertEquals(List.of(), offenders(Path.of("target/classes/io/locus/cassandra/drop"), ".class", bytes -> {
            String pool = new String(bytes, StandardCharsets.ISO_8859_1);
            return pool.contains("org/apache/cassandra") || pool.contains("com/datastax");
        }));
    }

    private interface BytePredicate {
        boolean test(byte[] bytes);
    }

    private static List<String> offenders(Path dir, String suffix, BytePredicate bad) throws IOException {
        assertTrue(Files.isDirectory(dir), "run from the module directory; missing " + dir.toAbsolutePath());
        try (Stream<Path> files = Files.walk(dir)) {
            List<Path> all = files.filter(p -> p.toString().endsWith(suffix)).toList();
            assertTrue(all.size() >= 10, "only " + all.size() + " files in " + dir);
            return all.stream()
                    .filter(p -> {
                        try {
                            return bad.test(Files.readAllBytes(p));
                        } catch (IOException e) {
                            throw new UncheckedIOException(e);
                        }
                    })
                    .map(Path::toString)
                    .toList();
        }
    }
}
