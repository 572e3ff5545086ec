package dev.ssdpulse.dist;

import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.core.importer.Location;
import com.tngtech.archunit.lang.ArchRule;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * No package of any module depends, directly or through others, on a package that depends on it: every module's
 * packages form layers (the modules themselves depend one way, which Maven enforces). The distribution's test
 * classpath holds every module's main classes, so this one rule covers them all.
 */
class PackageCyclesTest {
    private static final Set<String> MODULES = Set.of("schemas", "platform", "producer", "streams", "cli");

    /** Main classes only: the test trees (and the platform and schemas test jars) may reach across packages. */
    private static final ImportOption MAIN_CLASSES_ONLY =
            (Location location) -> !location.contains("/test-classes/") && !location.contains("-tests.jar");

    /** Every package is a slice of its own, sub-packages included ({@code sim.ftl} and {@code sim.ftl.gc} differ). */
    private static ArchRule noPackageCycle(String root) {
        return slices().matching(root + ".(**)").should().beFreeOfCycles();
    }

    @Test
    void noModuleHasAPackageCycle() {
        JavaClasses classes =
                new ClassFileImporter().withImportOption(MAIN_CLASSES_ONLY).importPackages("dev.ssdpulse");
        // the rule only proves something about the classes it saw: every module's must be among them
        Set<String> modulesSeen = classes.stream()
                .map(c -> c.getPackageName().split("\\."))
                .filter(parts -> parts.length > 2)
                .map(parts -> parts[2])
                .collect(Collectors.toSet());
        assertThat(modulesSeen).containsAll(MODULES);

        noPackageCycle("dev.ssdpulse").check(classes);
    }

    @Test
    void theRuleFindsACycle() {
        JavaClasses fixture = new ClassFileImporter().importPackages("dev.ssdpulse.dist.cycle");
        assertThat(fixture).hasSize(2);

        assertThatThrownBy(() -> noPackageCycle("dev.ssdpulse.dist.cycle").check(fixture))
                .isInstanceOf(AssertionError.class)
                .hasMessageContaining("Cycle detected")
                .hasMessageContaining("dev.ssdpulse.dist.cycle.a.Left")
                .hasMessageContaining("dev.ssdpulse.dist.cycle.b.Right");
    }
}
