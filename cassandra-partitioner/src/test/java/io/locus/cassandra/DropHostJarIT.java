package io.locus.cassandra;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.locus.fixture.HostJar;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * The jar an operator copies into Cassandra's {@code lib/}, as built: every class loads on Java 11 (Cassandra 5.0
 * runs on 11 and 17), and it holds the partitioner and its token scheme only, no operator tool or library.
 */
class DropHostJarIT {
    private static final HostJar JAR = new HostJar(Path.of(System.getProperty("locus.host.jar")));

    @Test
    void everyClass_loadsOnJava11() throws IOException {
        assertTrue(JAR.classVersions().size() >= 10, "classes in " + JAR + ": " + JAR.classVersions());
        assertEquals(Map.of(), JAR.classesNewerThan(11), "classes a Java 11 node cannot load");
    }

    @Test
    void holdsThePartitionerAndTheTokenScheme_only() throws IOException {
        List<String> classes =
                JAR.entries().stream().filter(e -> !e.startsWith("META-INF/")).collect(Collectors.toList());
        assertTrue(classes.contains("io/locus/cassandra/DropPartitioner.class"), classes.toString());
        assertTrue(classes.contains("io/locus/cassandra/drop/PathEncoder.class"), classes.toString());
        List<String> foreign = classes.stream()
                .filter(e -> !e.matches("io/locus/cassandra/[A-Za-z0-9$_-]+\\.class")
                        && !e.matches("io/locus/cassandra/drop/[A-Za-z0-9$_-]+\\.class"))
                .collect(Collectors.toList());
        assertEquals(List.of(), foreign, "entries beside the partitioner and io.locus.cassandra.drop");
    }
}
