package io.locus.cassandra.drop;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.locus.cassandra.TestNamespace;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

class DirectoryRangesTest {
    private static boolean inside(DirectoryRanges.Interval r, String key) {
        byte[] t = PathEncoder.encode(key.getBytes(StandardCharsets.UTF_8));
        return TokenMath.compare(t, r.first()) >= 0 && TokenMath.compare(t, r.last()) <= 0;
    }

    @Test
    void listingAndSubtree_holdExactlyTheDirectorysKeys_onTheRealNamespace() {
        for (String dir : List.of("/usr/bin", "/etc", "/usr/share/doc", "/usr/share/doc/bash", "/usr/lib/jvm")) {
            DirectoryRanges.Interval listing = DirectoryRanges.listing(dir);
            DirectoryRanges.Interval subtree = DirectoryRanges.subtree(dir);
            for (String p : TestNamespace.paths()) {
                List<String> c = PathNames.components(p);
                boolean below = p.startsWith(dir + "/");
                boolean direct = below && c.size() == PathNames.components(dir).size() + 1;
                assertEquals(direct, inside(listing, p), dir + " listing vs " + p);
                assertEquals(below, inside(subtree, p), dir + " subtree vs " + p);
            }
        }
    }

    @Test
    void subtree_deeperThan20Levels_isRejectedWithTheDepth() {
        String deep = "/d".repeat(21);
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> DirectoryRanges.subtree(deep));
        assertEquals(
                "directory \"" + deep + "\" has depth 21 (expected: <= 20 for a subtree interval)", e.getMessage());
        assertEquals(true, inside(DirectoryRanges.listing(deep), deep + "/file"));
    }
}
