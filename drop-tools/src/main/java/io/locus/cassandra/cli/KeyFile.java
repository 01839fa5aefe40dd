package io.locus.cassandra.cli;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.zip.GZIPInputStream;

/** Reads a key list: one key per line, UTF-8, optionally gzip-compressed (name ending in .gz); blank lines skipped. */
public final class KeyFile {
    private KeyFile() {}

    /** All keys of {@code file}, in file order. */
    public static List<String> read(Path file) throws IOException {
        if (!Files.isRegularFile(file)) {
            throw new IOException(
                    "key file " + file + " does not exist or is not a regular file (expected: one key per line)");
        }
        try (InputStream in = Files.newInputStream(file)) {
            return read(file.toString().endsWith(".gz") ? new GZIPInputStream(in) : in);
        }
    }

    /** All keys of a stream (not closed). */
    public static List<String> read(InputStream in) throws IOException {
        List<String> keys = new ArrayList<>();
        BufferedReader r = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8));
        for (String line = r.readLine(); line != null; line = r.readLine()) {
            if (!line.isEmpty()) {
                keys.add(line);
            }
        }
        return keys;
    }
}
