package io.locus.cassandra.cli;

import io.locus.cassandra.drop.PathEncoder;
import io.locus.cli.Progress;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import me.tongfei.progressbar.ProgressBar;

/** A key sample encoded once: the keys and their DROP tokens, index-aligned. */
record KeySample(List<String> keys, List<byte[]> tokens) {
    static KeySample of(List<String> keys) {
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
