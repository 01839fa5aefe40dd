package io.locus.memcached.tenant;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/** The tenant package is pure Java: no Netty, no protocol or proxy types, so it can be tested and reused alone. */
class TenantHasNoHostTypesTest {
    @Test
    void tenantSources_importNoNettyProtocolOrProxyTypes() throws Exception {
        Path dir = Path.of("src", "main", "java", "io", "locus", "memcached", "tenant");
        try (Stream<Path> files = Files.list(dir)) {
            List<String> offenders = files.filter(p -> {
                        try {
                            String s = Files.readString(p);
                            return s.contains("import io.netty")
                                    || s.contains("import io.locus.memcached.protocol")
                                    || s.contains("import io.locus.memcached.server")
                                    || s.contains("import io.locus.memcached.backend")
                                    || s.contains("import io.locus.memcached.deadline")
                                    || s.contains("import io.locus.memcached.balance.netty");
                        } catch (java.io.IOException e) {
                            throw new java.io.UncheckedIOException(e);
                        }
                    })
                    .map(p -> p.getFileName().toString())
                    .sorted()
                    .toList();
            assertEquals(List.of(), offenders, "files in io.locus.memcached.tenant importing host types");
        }
    }
}
