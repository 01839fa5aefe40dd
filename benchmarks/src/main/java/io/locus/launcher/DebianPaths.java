package io.locus.launcher;

import java.io.BufferedReader;
import java.io.BufferedWriter;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.OutputStreamWriter;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.regex.Pattern;
import java.util.zip.Deflater;
import java.util.zip.GZIPInputStream;
import java.util.zip.GZIPOutputStream;

/**
 * A gzip key file with every path of Debian bookworm's main/amd64 Contents index, one absolute path per line: the
 * namespace {@code drop-evaluate} measures. The index is downloaded into the cache directory the first time.
 */
public final class DebianPaths {
    public static final String CONTENTS_URL = "http://deb.debian.org/debian/dists/bookworm/main/Contents-amd64.gz";
    static final long MIN_PATHS = 1_000_000;
    // A line is "path<spaces>section/package[,section/package...]": the package list is the last field, and a path may
    // itself hold spaces, so only the last whitespace-separated field is cut off.
    private static final Pattern PACKAGES = Pattern.compile("\\s+\\S+$");

    private final Path cache;

    public DebianPaths(Path cache) {
        this.cache = cache;
    }

    /** {@code $XDG_CACHE_HOME/locus}, or {@code ~/.cache/locus}. */
    public static DebianPaths inUserCache() {
        String xdg = System.getenv("XDG_CACHE_HOME");
        Path base = xdg != null && !xdg.isEmpty() ? Path.of(xdg) : Path.of(System.getProperty("user.home"), ".cache");
        return new DebianPaths(base.resolve("locus"));
    }

    /** The key file, downloading and converting what is missing or stale. */
    public Path keys(BenchRun run) throws IOException, InterruptedException {
        Files.createDirectories(cache);
        Path contents = cache.resolve("bookworm-Contents-amd64.gz");
        Path keys = cache.resolve("bookworm-paths.txt.gz");
        if (!Files.isRegularFile(contents) || Files.size(contents) == 0) {
            run.say("locus: downloading " + CONTENTS_URL + " (11.6 MB) into " + cache + " ...");
            download(contents);
        }
        if (!isGzip(contents)) {
            Files.deleteIfExists(contents);
            Files.deleteIfExists(keys);
            throw new IllegalStateException(contents + " is not a valid gzip file (removed; run again)");
        }
        if (!Files.isRegularFile(keys)
                || Files.size(keys) == 0
                || Files.getLastModifiedTime(keys).compareTo(Files.getLastModifiedTime(contents)) < 0) {
            convert(contents, keys);
        }
        long lines = countLines(keys);
        if (lines <= MIN_PATHS) {
            throw new IllegalStateException(keys + " holds " + lines + " paths (expected: more than 1,000,000; delete "
                    + cache + " and run again)");
        }
        return keys;
    }

    /** One Contents line as a key: the path with a leading slash, without its package list. */
    static String pathOf(String contentsLine) {
        return "/" + PACKAGES.matcher(contentsLine).replaceFirst("");
    }

    private static void download(Path target) throws IOException, InterruptedException {
        HttpClient http = HttpClient.newBuilder()
                .followRedirects(HttpClient.Redirect.NORMAL)
                .connectTimeout(Duration.ofSeconds(30))
                .build();
        Path part = target.resolveSibling(target.getFileName() + ".part");
        IOException last = null;
        for (int attempt = 1; attempt <= 4; attempt++) {
            try {
                HttpResponse<Path> r = http.send(
                        HttpRequest.newBuilder(URI.create(CONTENTS_URL)).build(),
                        HttpResponse.BodyHandlers.ofFile(part));
                if (r.statusCode() == 200) {
                    Files.move(part, target, StandardCopyOption.REPLACE_EXISTING);
                    return;
                }
                last = new IOException("HTTP " + r.statusCode());
            } catch (IOException e) {
                last = e;
            }
        }
        throw new IOException("download of " + CONTENTS_URL + " failed: " + last.getMessage(), last);
    }

    private static boolean isGzip(Path file) {
        try (InputStream in = new GZIPInputStream(Files.newInputStream(file))) {
            in.transferTo(java.io.OutputStream.nullOutputStream());
            return true;
        } catch (IOException e) {
            return false;
        }
    }

    private static void convert(Path contents, Path keys) throws IOException {
        Path part = keys.resolveSibling(keys.getFileName() + ".part");
        try (BufferedReader in = new BufferedReader(new InputStreamReader(
                        new GZIPInputStream(Files.newInputStream(contents), 1 << 16), StandardCharsets.UTF_8));
                BufferedWriter out = new BufferedWriter(
                        new OutputStreamWriter(new FastGzip(Files.newOutputStream(part)), StandardCharsets.UTF_8))) {
            for (String line; (line = in.readLine()) != null; ) {
                out.write(pathOf(line));
                out.write('\n');
            }
        }
        Files.move(part, keys, StandardCopyOption.REPLACE_EXISTING);
    }

    private static long countLines(Path gzip) throws IOException {
        try (BufferedReader in = new BufferedReader(new InputStreamReader(
                new GZIPInputStream(Files.newInputStream(gzip), 1 << 16), StandardCharsets.UTF_8))) {
            return in.lines().count();
        }
    }

    /** gzip -1: the key file is read once per run, so compressing it harder is wasted time. */
    private static final class FastGzip extends GZIPOutputStream {
        FastGzip(java.io.OutputStream out) throws IOException {
            super(out, 1 << 16);
            def.setLevel(Deflater.BEST_SPEED);
        }
    }
}
