package io.locus.hdfs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.jar.JarFile;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/** The jar for the NameNode's classpath holds the policy and its plan reader, and nothing that needs more than Hadoop. */
class NameNodeJarIT {
    @Test
    void namenodeJar_holdsThePolicyAndNoSolverOrCli() throws IOException {
        Path jar;
        try (Stream<Path> s = Files.list(Path.of("target"))) {
            jar = s.filter(p -> p.getFileName().toString().endsWith("-namenode.jar"))
                    .findFirst()
                    .orElseThrow(() -> new AssertionError("no *-namenode.jar in target/ (run mvn package)"));
        }
        try (JarFile j = new JarFile(jar.toFile())) {
            List<String> classes = j.stream()
                    .map(e -> e.getName())
                    .filter(n -> n.endsWith(".class"))
                    .sorted()
                    .toList();
            assertTrue(classes.contains("io/locus/hdfs/CastBlockPlacementPolicy.class"), classes.toString());
            assertTrue(classes.contains("io/locus/hdfs/PlacementMap.class"), classes.toString());
            assertTrue(classes.contains("io/locus/hdfs/PlanWatch.class"), classes.toString());
            assertTrue(classes.contains("io/locus/hdfs/PlanWatch$HadoopFile.class"), classes.toString());
            assertTrue(classes.contains("io/locus/hdfs/RegroupHints.class"), classes.toString());
            assertEquals(
                    List.of(),
                    classes.stream()
                            .filter(
                                    n -> !n.startsWith("io/locus/hdfs/")
                                            && !n.equals(
                                                    "org/apache/hadoop/hdfs/server/blockmanagement/LocusPlacementPolicyBase.class"))
                            .toList());
            assertEquals(
                    List.of(),
                    classes.stream()
                            .filter(n -> n.startsWith("io/locus/hdfs/cast/"))
                            .toList(),
                    "no model, solver (OptaPlanner) or CLI class");
        }
    }
}
