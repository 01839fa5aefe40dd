package io.locus.cassandra;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.zip.GZIPInputStream;

/**
 * The real namespace used by the tests: every path installed by dpkg on the Debian bookworm build machine
 * ({@code cat /var/lib/dpkg/info/*.list | LC_ALL=C sort -u}, 112,993 paths, depth 1-20), committed as a resource so
 * runs are reproducible on any machine.
 */
public final class TestNamespace {
    /** Classpath resource holding the gzip-compressed list. */
    public static final String RESOURCE = "/namespace/debian-dpkg-paths.txt.gz";

    private static List<String> paths;

    private TestNamespace() {}

    /** All paths, sorted by byte value; cached. */
    public static synchronized List<String> paths() {
        if (paths == null) {
            try (InputStream in = TestNamespace.class.getResourceAsStream(RESOURCE)) {
                if (in == null) {
                    throw new IllegalStateException("test resource " + RESOURCE + " is missing");
                }
                BufferedReader lines =
                        new BufferedReader(new InputStreamReader(new GZIPInputStream(in), StandardCharsets.UTF_8));
                List<String> read = new ArrayList<>();
                for (String line = lines.readLine(); line != null; line = lines.readLine()) {
                    if (!line.isEmpty()) {
                        read.add(line);
                    }
                }
                paths = List.copyOf(read);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
        return paths;
    }

    /** Paths 0, n, 2n, ... of {@link #paths()}: a smaller sample of the same namespace, in the same order. */
    public static List<String> everyNth(int n) {
        List<String> all = paths();
        List<String> sample = new ArrayList<>(all.size() / n + 1);
        for (int i = 0; i < all.size(); i += n) {
            sample.add(all.get(i));
        }
        return List.copyOf(sample);
    }
}
