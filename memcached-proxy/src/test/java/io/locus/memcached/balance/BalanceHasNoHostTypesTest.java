package io.locus.memcached.balance;

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
 * Guard: {@code io.locus.memcached.balance} is a pure core (style: "a guard test per module fails if a core package
 * imports the host, Netty or JNA"). It may not use Netty nor the proxy's adapter packages. Sources and class files are
 * both checked, so fully qualified uses and imports hidden behind wildcards are caught too. Its Netty side,
 * {@code balance.netty}, is a subpackage and not checked here.
 */
class BalanceHasNoHostTypesTest {
    private static final String DIR = "io/locus/memcached/balance";
    private static final List<String> FORBIDDEN = List.of(
            "io.netty",
            "io.locus.memcached.protocol",
            "io.locus.memcached.server",
            "io.locus.memcached.backend",
            "io.locus.memcached.deadline",
            "io.locus.memcached.balance.netty",
            "io.locus.memcached.config",
            "io.locus.memcached.tenant",
            "com.sun.jna");

    @Test
    void balanceSources_doNotReferenceNettyOrAdapters() throws IOException {
        Path root = Path.of("src/main/java").resolve(DIR);
        assertTrue(Files.isDirectory(root), "source directory " + root.toAbsolutePath());
        List<String> offenders = new ArrayList<>();
        int files = 0;
        try (Stream<Path> paths = Files.walk(root, 1)) {
            for (Path p : paths.filter(f -> f.toString().endsWith(".java")).toList()) {
                files++;
                String text = Files.readString(p);
                for (String line : text.split("\n")) {
                    // Javadoc may name the proxy's classes (e.g. KetamaRing) as a cross-reference; code may not.
                    String code = line.strip();
                    if (code.startsWith("*") || code.startsWith("/*") || code.startsWith("//")) {
                        continue;
                    }
                    FORBIDDEN.stream()
                            .filter(code::contains)
                            .forEach(f -> offenders.add(p + " uses " + f + ": " + code));
                }
            }
        }
        assertTrue(files >= 15, "found only " + files + " balance source files");
        assertEquals(List.of(), offenders);
    }

    @Test
    void balanceClasses_doNotReferenceNettyOrAdapters() throws IOException {
        Path root = Path.of("target/classes").resolve(DIR);
        assertTrue(Files.isDirectory(root), "compiled directory " + root.toAbsolutePath());
        List<String> offenders = new ArrayList<>();
        int files = 0;
        try (Stream<Path> paths = Files.walk(root, 1)) {
            for (Path p : paths.filter(f -> f.toString().endsWith(".class")).toList()) {
                files++;
                // Class references sit in the constant pool as UTF-8 internal names (io/netty/...).
                String pool = new String(Files.readAllBytes(p), StandardCharsets.ISO_8859_1);
                FORBIDDEN.stream()
                        .filter(f -> pool.contains(f.replace('.', '/')))
                        .forEach(f -> offenders.add(p + " references " + f));
            }
        }
        assertTrue(files >= 15, "found only " + files + " balance class files");
        assertEquals(List.of(), offenders);
    }

    @Test
    void guard_detectsAnImport() {
        // The guard must be able to fail: the line filter keeps an import line.
        String line = "import io.netty.buffer.ByteBuf;";
        assertTrue(FORBIDDEN.stream().anyMatch(line::contains));
    }
}
