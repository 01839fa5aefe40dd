package io.locus.memcached;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.fields;
import static com.tngtech.archunit.library.Architectures.layeredArchitecture;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.tngtech.archunit.base.DescribedPredicate;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.domain.JavaField;
import com.tngtech.archunit.core.domain.JavaModifier;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The module's shape (README, "How a request flows"): packages by feature, each depending only on the ones below it,
 * no cycle between packages, no class over {@value #MAX_LINES} lines, and in every package no field other than a
 * constant visible outside its class. Checks the compiled main classes of this module ({@code target/classes}) and its
 * main sources.
 */
class ArchitectureTest {
    static final int MAX_LINES = 400;

    private static JavaClasses classes;

    @BeforeAll
    static void importMainClasses() {
        classes = new ClassFileImporter().importPath(Path.of("target/classes"));
        assertTrue(classes.size() > 100, "imported only " + classes.size() + " classes from target/classes");
    }

    @Test
    void featurePackages_dependOnlyDownwards() {
        layeredArchitecture()
                .consideringOnlyDependenciesInLayers()
                .layer("main")
                .definedBy("io.locus.memcached")
                .layer("server")
                .definedBy("io.locus.memcached.server..")
                .layer("deadline")
                .definedBy("io.locus.memcached.deadline..")
                .layer("balance.netty")
                .definedBy("io.locus.memcached.balance.netty..")
                .layer("backend")
                .definedBy("io.locus.memcached.backend..")
                .layer("stats")
                .definedBy("io.locus.memcached.stats..")
                .layer("config")
                .definedBy("io.locus.memcached.config..")
                .layer("pure cores")
                .definedBy(
                        "io.locus.memcached.protocol..",
                        "io.locus.memcached.tenant..",
                        "io.locus.memcached.cache..",
                        "io.locus.memcached.schedule..",
                        "io.locus.memcached.balance")
                .whereLayer("main")
                .mayOnlyAccessLayers("server", "config")
                .whereLayer("server")
                .mayOnlyAccessLayers("deadline", "balance.netty", "backend", "stats", "config", "pure cores")
                .whereLayer("deadline")
                .mayOnlyAccessLayers("backend", "stats", "config", "pure cores")
                .whereLayer("balance.netty")
                .mayOnlyAccessLayers("backend", "stats", "config", "pure cores")
                .whereLayer("backend")
                .mayOnlyAccessLayers("stats", "config", "pure cores")
                .whereLayer("stats")
                .mayNotAccessAnyLayer()
                .whereLayer("config")
                .mayOnlyAccessLayers("pure cores")
                .check(classes);
    }

    @Test
    void packages_haveNoCycles() {
        slices().matching("io.locus.memcached.(**)").should().beFreeOfCycles().check(classes);
    }

    @Test
    void fields_arePrivateUnlessConstant() {
        fields().that()
                .areDeclaredInClassesThat()
                .resideInAPackage("io.locus.memcached..")
                .and()
                .doNotHaveModifier(JavaModifier.SYNTHETIC)
                .and(NOT_CONSTANT)
                .should()
                .bePrivate()
                .check(classes);
    }

    @Test
    void mainSources_haveAtMost400LinesEach() throws IOException {
        List<String> tooLong;
        long files;
        try (Stream<Path> paths = Files.walk(Path.of("src/main/java"))) {
            List<Path> sources =
                    paths.filter(p -> p.toString().endsWith(".java")).toList();
            files = sources.size();
            tooLong = sources.stream()
                    .filter(p -> lines(p) > MAX_LINES)
                    .map(p -> p + ": " + lines(p) + " lines (expected: <= " + MAX_LINES + ")")
                    .sorted()
                    .toList();
        }
        assertTrue(files > 100, "found only " + files + " main sources");
        assertEquals(List.of(), tooLong);
    }

    private static final DescribedPredicate<JavaField> NOT_CONSTANT = DescribedPredicate.describe(
            "are not constants (static final)",
            f -> !(f.getModifiers().contains(JavaModifier.STATIC)
                    && f.getModifiers().contains(JavaModifier.FINAL)));

    private static long lines(Path source) {
        try (Stream<String> lines = Files.lines(source)) {
            return lines.count();
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }
}
