package io.locus.launcher;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

class DebianPathsTest {
    @Test
    void pathOf_dropsOnlyThePackageList_andKeepsSpacesInThePath() {
        assertEquals("/usr/bin/ls", DebianPaths.pathOf("usr/bin/ls                      utils/coreutils"));
        assertEquals("/usr/share/doc/a b/README", DebianPaths.pathOf("usr/share/doc/a b/README\tdoc/a,doc/b"));
    }
}
