package io.locus.hdfs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.locus.fixture.HostJar;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The jar an operator puts on the NameNode's classpath, as built: every class loads on Java 8 (Hadoop 3.4's NameNodes
 * run on 8 and 11, 3.5's on 17), and it holds the policy and its plan reader only, nothing that needs more than Hadoop.
 */
class HdfsHostJarIT {
    private static final HostJar JAR = new HostJar(Path.of(System.getProperty("locus.host.jar")));

    @Test
    void everyClass_loadsOnJava8() throws IOException {
        assertTrue(JAR.classVersions().size() >= 5, "classes in " + JAR + ": " + JAR.classVersions());
        assertEquals(Map.of(), JAR.classesNewerThan(8), "classes a Java 8 NameNode cannot load");
    }

    @Test
    void holdsThePolicyAndItsPlanReader_only() throws IOException {
        List<String> classes = JAR.entries().stream()
                .filter(n -> n.endsWith(".class"))
                .sorted()
                .toList();
        for (String c : List.of("CastBlockPlacementPolicy", "PlacementMap", "PlanWatch", "RegroupHints")) {
            assertTrue(classes.contains("io/locus/hdfs/" + c + ".class"), c + " missing from " + classes);
        }
        assertEquals(
                List.of(),
                classes.stream()
                        .filter(n -> !n.matches("io/locus/hdfs/[A-Za-z0-9$_-]+\\.class")
                                && !n.equals(
                                        "org/apache/hadoop/hdfs/server/blockmanagement/LocusPlacementPolicyBase.class"))
                        .toList(),
                "classes beside the policy and its plan reader (no model, solver, OptaPlanner or CLI)");
    }
}
