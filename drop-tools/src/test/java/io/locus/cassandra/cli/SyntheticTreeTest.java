package io.locus.cassandra.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.HashSet;
import java.util.List;
import org.junit.jupiter.api.Test;

class SyntheticTreeTest {
    @Test
    void paths_countsDirectoriesAndFiles_andAreDistinct() {
        List<String> p = SyntheticTree.paths(3, 2, 2, 1_000);
        // level 0: 2 files + 3 dirs; level 1: 3 x (2 + 3); level 2: 9 x 2 files
        assertEquals(5 + 15 + 18, p.size());
        assertEquals(p.size(), new HashSet<>(p).size());
        assertEquals("/f0", p.get(0));
        assertEquals(List.of("/d0/d0/f0", "/d0/d0/f1"), p.subList(p.indexOf("/d0/d0") + 1, p.indexOf("/d0/d0") + 3));
    }

    @Test
    void tooLargeATree_isRefusedWithTheLimit() {
        IllegalArgumentException e =
                assertThrows(IllegalArgumentException.class, () -> SyntheticTree.paths(100, 4, 100, 5_000_000));
        assertEquals(
                "--fanout 100 --depth 4 --files 100 makes more than 5000000 keys (expected: at most 5000000; lower"
                        + " --depth or --fanout)",
                e.getMessage());
    }
}
