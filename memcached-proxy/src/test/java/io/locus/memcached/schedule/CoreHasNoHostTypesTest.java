package io.locus.memcached.schedule;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * Guard: the pure cores {@code io.locus.memcached.cache} (with {@code .sim}) and
 * {@code io.locus.memcached.schedule} must not use Netty or the proxy's adapter packages (style: "a guard test
 * per module fails if a core package imports the host, Netty or JNA"). Checks both the sources and the
 * compiled class files, so fully qualified uses are caught too.
 */
class CoreHasNoHostTypesTest {
    private static final List<String> CORE_DIRS = List.of("io/locus/memcached/cache", "io/locus/memcached/schedule");
    private static final List<String> FORBIDDEN = List.of(
            "io.netty",
            "io.locus.memcached.protocol",
            "io.locus.memcached.server",
            "io.locus.memcached.backend",
            "io.locus.memcached.deadline",
            "io.locus.memcached.balance.netty",
            "com.sun.jna");

    @Test
    void coreSources_doNotReferenceHostTypes() throws IOException {
        List<String> offenders = new ArrayList<>();
        int files = 0;
        for (String dir : CORE_DIRS) {
            Path root = Path.of("src/main/java").resolve(dir);
            assertTrue(Files.isDirectory(root), "core source directory " + root.toAbsolutePath());
            try (Stream<Path> paths = Files.walk(root)) {
                for (Path p : paths.filter(f -> f.toString().endsWith(".java")).toList()) {
                    files++;
                    String text = Files.readString(p);
                    FORBIDDEN.stream().filter(text::contains).forEach(f -> offenders.add(p + " uses " + f));
                }
            }
        }
        assertTrue(files > 10, "found only " + files + " core source files");
        assertEquals(List.of(), offenders);
    }

    @Test
    void coreClasses_doNotReferenceHostTypes() throws IOException {
        List<String> offenders = new ArrayList<>();
        int files = 0;
        for (String dir : CORE_DIRS) {
            Path root = Path.of("target/classes").resolve(dir);
            assertTrue(Files.isDirectory(root), "compiled core directory " + root.toAbsolutePath());
            try (Stream<Path> paths = Files.walk(root)) {
                for (Path p : paths.filter(f -> f.toString().endsWith(".class")).toList()) {
                    files++;
                    // Class references sit in the constant pool as UTF-8 internal names (io/netty/...).
                    String pool = new String(Files.readAllBytes(p), StandardCharsets.ISO_8859_1);
                    FORBIDDEN.stream()
                            .filter(f -> pool.contains(f.replace('.', '/')))
                            .forEach(f -> offenders.add(p + " references " + f));
                }
            }
        }
        assertTrue(files > 10, "found only " + files + " core class files");
        assertEquals(List.of(), offenders);
    }
}
