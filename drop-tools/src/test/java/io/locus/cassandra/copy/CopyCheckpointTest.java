package io.locus.cassandra.copy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class CopyCheckpointTest {
    private static final String JOB = "10.0.0.1:9042 ks.t -> 10.1.0.1:9042 ks.t";

    @TempDir
    Path dir;

    @Test
    void finishedSlices_surviveAReopen_asRanges() throws Exception {
        Path file = dir.resolve("cp");
        CopyCheckpoint c = CopyCheckpoint.open(file, JOB, 10);
        assertFalse(Files.exists(file), "nothing is written before a slice is done");
        for (int i : new int[] {0, 1, 2, 5, 9}) {
            c.markDone(i);
        }
        assertEquals(List.of("locus-drop-copy 1", "job " + JOB, "splits 10", "done 0-2,5,9"), Files.readAllLines(file));
        CopyCheckpoint again = CopyCheckpoint.open(file, JOB, 10);
        assertEquals(5, again.doneCount());
        assertTrue(again.isDone(2) && again.isDone(9) && !again.isDone(3));
        again.delete();
        assertFalse(Files.exists(file));
    }

    @Test
    void anotherJob_orSplitCount_isRefused_withWhatToDo() throws Exception {
        Path file = dir.resolve("cp");
        CopyCheckpoint.open(file, JOB, 10).markDone(3);
        assertEquals(
                "checkpoint " + file + " belongs to another copy: '" + JOB
                        + "' (this one: 'x ks.u -> y ks.u'); give --checkpoint another file",
                assertThrows(IllegalArgumentException.class, () -> CopyCheckpoint.open(file, "x ks.u -> y ks.u", 10))
                        .getMessage());
        assertEquals(
                "checkpoint " + file + " was written with --splits 10 (this run: 20); resume with --splits 10",
                assertThrows(IllegalArgumentException.class, () -> CopyCheckpoint.open(file, JOB, 20))
                        .getMessage());
    }

    @Test
    void corruptFiles_areRefused_byLine() throws Exception {
        Path file = dir.resolve("cp");
        Files.writeString(file, "hello\n");
        assertEquals(
                "checkpoint " + file + " is not a locus-drop copy checkpoint (expected 4 lines, the first"
                        + " 'locus-drop-copy 1'); move it away to start the copy afresh",
                assertThrows(IllegalArgumentException.class, () -> CopyCheckpoint.open(file, JOB, 10))
                        .getMessage());
        Files.writeString(file, "locus-drop-copy 1\njob " + JOB + "\nsplits 10\ndone 0-3,12\n");
        assertEquals(
                "checkpoint " + file + " line 4: '12' is not a slice or range of slices in 0-9",
                assertThrows(IllegalArgumentException.class, () -> CopyCheckpoint.open(file, JOB, 10))
                        .getMessage());
        Files.writeString(file, "locus-drop-copy 1\njob " + JOB + "\nslices 10\ndone \n");
        assertEquals(
                "checkpoint " + file + " line 3: 'slices 10' (expected: 'splits ...')",
                assertThrows(IllegalArgumentException.class, () -> CopyCheckpoint.open(file, JOB, 10))
                        .getMessage());
    }
}
