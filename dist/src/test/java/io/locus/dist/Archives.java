package io.locus.dist;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;

/** The release archives the build wrote, unpacked with {@code tar} as an operator would. */
final class Archives {
    private Archives() {}

    /**
     * Unpacks {@code locus-VERSION-ID.tar.gz} of {@code dist} into {@code root/ID}.
     *
     * @return {@code root/ID}
     */
    static Path untar(Path dist, String version, String id, Path root) throws Exception {
        Path archive = dist.resolve("locus-" + version + "-" + id + ".tar.gz");
        assertTrue(Files.isRegularFile(archive), archive + " (run mvn package)");
        Path into = root.resolve(id);
        Files.createDirectories(into);
        Process tar = new ProcessBuilder("tar", "-xzf", archive.toString(), "-C", into.toString())
                .redirectErrorStream(true)
                .start();
        String out = new String(tar.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(tar.waitFor(120, TimeUnit.SECONDS), "tar did not finish");
        assertEquals(0, tar.exitValue(), out);
        return into;
    }

    static void deleteTree(Path dir) throws IOException {
        if (!Files.exists(dir)) {
            return;
        }
        try (var walk = Files.walk(dir)) {
            List<Path> all = walk.sorted(Comparator.reverseOrder()).collect(Collectors.toList());
            for (Path p : all) {
                Files.delete(p);
            }
        }
    }
}
