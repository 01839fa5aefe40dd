package io.locus.hdfs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.apache.hadoop.util.VersionInfo;
import org.junit.jupiter.api.Test;

/**
 * Which Hadoop and which policy jar the real-host tests beside this one ran with: the same tests run in this module
 * (Hadoop 3.4.x) and in integration-tests/hadoop-3.5 (3.5.0), and a build that resolved another Hadoop, or loaded the
 * policy from compiled classes instead of its jar, would pass them without testing what an operator installs.
 */
class HadoopRuntimeIT {
    @Test
    void theNameNodeClassesAreTheExpectedHadoopRelease() {
        String expected = System.getProperty("locus.hadoop.expected");
        assertTrue(expected != null && !expected.isEmpty(), "locus.hadoop.expected is not set (see the pom)");
        assertEquals(expected, VersionInfo.getVersion(), "Hadoop on the test classpath");
    }

    @Test
    void thePolicyIsLoadedFromItsJar() {
        String location = CastBlockPlacementPolicy.class
                .getProtectionDomain()
                .getCodeSource()
                .getLocation()
                .getPath();
        assertTrue(location.matches(".*/locus-hdfs-tiering-policy-[^/]*\\.jar"), "policy loaded from " + location);
    }
}
