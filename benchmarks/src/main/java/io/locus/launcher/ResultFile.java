package io.locus.launcher;

import java.io.BufferedWriter;
import java.io.Closeable;
import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;

/**
 * A bench run's result: its header, then everything the run prints on stdout, into {@code target/bench/AREA.md}.
 * Kept result files ({@code benchmarks/results/}) are only replaced when the run is saved, so a trial run never
 * overwrites the numbers a README quotes.
 */
public final class ResultFile implements Closeable {
    /** Where every run writes its result, relative to the checkout. */
    public static final String RUN_DIR = "target/bench";
    /** Where a saved result goes, relative to the checkout. */
    public static final String SAVED_DIR = "benchmarks/results";

    private final Path file;
    private final PrintStream screen;
    private final BufferedWriter out;

    private ResultFile(Path file, PrintStream screen, BufferedWriter out) {
        this.file = file;
        this.screen = screen;
        this.out = out;
    }

    /** Starts {@code target/bench/AREA.md} under {@code root} with the header and the opening of the output block. */
    public static ResultFile start(Path root, ResultHeader header, PrintStream screen) {
        Path file = root.resolve(RUN_DIR).resolve(header.area() + ".md");
        try {
            Files.createDirectories(file.getParent());
            BufferedWriter out = Files.newBufferedWriter(file, StandardCharsets.UTF_8);
            out.write(header.render());
            out.write("```text\n");
            out.flush();
            return new ResultFile(file, screen, out);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write " + file, e);
        }
    }

    public Path file() {
        return file;
    }

    /** One line of the run's output: on the screen and in the file. */
    public void line(String line) {
        screen.println(line);
        screen.flush();
        try {
            out.write(line);
            out.write('\n');
            out.flush();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write " + file, e);
        }
    }

    /** Closes the output block; a failed run says its exit status after it. */
    public void finish(int status) {
        try {
            out.write("```\n");
            if (status != 0) {
                out.write("\nexit status " + status + "\n");
            }
            out.close();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write " + file, e);
        }
    }

    @Override
    public void close() {
        try {
            out.close();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write " + file, e);
        }
    }

    /** Copies {@code file} into {@code benchmarks/results/} under {@code root}, replacing the kept one; returns it. */
    public static Path save(Path root, Path file) {
        Path saved = root.resolve(SAVED_DIR).resolve(file.getFileName());
        try {
            Files.createDirectories(saved.getParent());
            return Files.copy(file, saved, StandardCopyOption.REPLACE_EXISTING);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot copy " + file + " to " + saved, e);
        }
    }
}
