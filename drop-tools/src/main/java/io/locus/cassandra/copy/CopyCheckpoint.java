package io.locus.cassandra.copy;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.BitSet;
import java.util.List;

/**
 * Which slices of a copy are finished, kept in a small text file beside the operator's shell so that a copy stopped
 * by a crash, a kill or {@code --max-splits} resumes with the first unfinished slice. A slice is recorded only after
 * every write of it was acknowledged; one interrupted half way is copied again whole (writes are idempotent upserts).
 *
 * <pre>
 * locus-drop-copy 1
 * job 10.0.0.1:9042 shop.orders -> 10.1.0.1:9042 shop.orders
 * splits 256
 * done 0-17,19
 * </pre>
 *
 * <p>Every save writes a temporary file and renames it over the old one, so a crash leaves the old or the new file,
 * never half of one. Not thread-safe.
 */
public final class CopyCheckpoint {
    static final String MAGIC = "locus-drop-copy 1";

    private final Path file;
    private final String job;
    private final int splits;
    private final BitSet done;

    private CopyCheckpoint(Path file, String job, int splits, BitSet done) {
        this.file = file;
        this.job = job;
        this.splits = splits;
        this.done = done;
    }

    /**
     * The checkpoint in {@code file} for this job, or a new empty one if the file does not exist.
     *
     * @throws IllegalArgumentException if the file is not a checkpoint, or one of another job or split count (the
     *     message says which line and what to do)
     */
    public static CopyCheckpoint open(Path file, String job, int splits) {
        if (!Files.exists(file)) {
            return new CopyCheckpoint(file, job, splits, new BitSet(splits));
        }
        List<String> lines;
        try {
            lines = Files.readAllLines(file, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read the checkpoint " + file, e);
        }
        if (lines.size() != 4 || !MAGIC.equals(lines.get(0))) {
            throw new IllegalArgumentException("checkpoint " + file + " is not a locus-drop copy checkpoint (expected 4"
                    + " lines, the first '" + MAGIC + "'); move it away to start the copy afresh");
        }
        String savedJob = field(file, lines, 1, "job");
        if (!savedJob.equals(job)) {
            throw new IllegalArgumentException("checkpoint " + file + " belongs to another copy: '" + savedJob
                    + "' (this one: '" + job + "'); give --checkpoint another file");
        }
        int savedSplits;
        try {
            savedSplits = Integer.parseInt(field(file, lines, 2, "splits"));
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("checkpoint " + file + " line 3: splits is not a number");
        }
        if (savedSplits != splits) {
            throw new IllegalArgumentException("checkpoint " + file + " was written with --splits " + savedSplits
                    + " (this run: " + splits + "); resume with --splits " + savedSplits);
        }
        return new CopyCheckpoint(file, job, splits, parseDone(file, field(file, lines, 3, "done"), splits));
    }

    private static String field(Path file, List<String> lines, int index, String name) {
        String line = lines.get(index);
        if (!line.startsWith(name + " ")) {
            throw new IllegalArgumentException(
                    "checkpoint " + file + " line " + (index + 1) + ": '" + line + "' (expected: '" + name + " ...')");
        }
        return line.substring(name.length() + 1).trim();
    }

    private static BitSet parseDone(Path file, String text, int splits) {
        BitSet done = new BitSet(splits);
        if (text.isEmpty()) {
            return done;
        }
        for (String part : text.split(",")) {
            try {
                int dash = part.indexOf('-');
                int from = Integer.parseInt(dash < 0 ? part : part.substring(0, dash));
                int to = dash < 0 ? from : Integer.parseInt(part.substring(dash + 1));
                if (from < 0 || to < from || to >= splits) {
                    throw new NumberFormatException();
                }
                done.set(from, to + 1);
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException("checkpoint " + file + " line 4: '" + part
                        + "' is not a slice or range of slices in 0-" + (splits - 1));
            }
        }
        return done;
    }

    public boolean isDone(int split) {
        return done.get(split);
    }

    public int doneCount() {
        return done.cardinality();
    }

    public int splits() {
        return splits;
    }

    /** Records {@code split} as finished and saves the file. */
    public void markDone(int split) {
        done.set(split);
        save();
    }

    /** Deletes the file: the copy is complete and checked. */
    public void delete() {
        try {
            Files.deleteIfExists(file);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot delete the checkpoint " + file, e);
        }
    }

    private void save() {
        String text = MAGIC + "\njob " + job + "\nsplits " + splits + "\ndone " + ranges() + "\n";
        Path tmp = file.resolveSibling(file.getFileName() + ".tmp");
        try {
            Files.writeString(tmp, text, StandardCharsets.UTF_8);
            try {
                Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
            } catch (AtomicMoveNotSupportedException e) {
                Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot save the checkpoint " + file, e);
        }
    }

    private String ranges() {
        StringBuilder b = new StringBuilder();
        for (int from = done.nextSetBit(0); from >= 0; ) {
            int to = done.nextClearBit(from) - 1;
            if (b.length() > 0) {
                b.append(',');
            }
            b.append(from);
            if (to > from) {
                b.append('-').append(to);
            }
            from = done.nextSetBit(to + 1);
        }
        return b.toString();
    }
}
