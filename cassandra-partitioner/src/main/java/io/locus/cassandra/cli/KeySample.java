package io.locus.cassandra.cli;

import io.locus.cassandra.drop.PathEncoder;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import me.tongfei.progressbar.ProgressBar;

/** A key file read and encoded once: the keys and their DROP tokens, index-aligned. */
record KeySample(List<String> keys, List<byte[]> tokens) {
    static KeySample load(Path file) throws IOException {
        List<String> keys = KeyFile.read(file);
        List<byte[]> tokens = new ArrayList<>(keys.size());
        try (ProgressBar pb = Progress.bar("encode keys", keys.size())) {
            for (String k : keys) {
                tokens.add(PathEncoder.encode(k.getBytes(StandardCharsets.UTF_8)));
                pb.step();
            }
        }
        return new KeySample(keys, tokens);
    }
}
