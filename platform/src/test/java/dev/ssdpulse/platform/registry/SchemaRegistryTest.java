package dev.ssdpulse.platform.registry;

import static dev.ssdpulse.platform.registry.TestSchemas.*;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.ssdpulse.schemas.registry.CompatibilityLevel;
import dev.ssdpulse.schemas.registry.SchemaRegistryException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.apache.avro.Schema;
import org.junit.jupiter.api.Test;

/** Registry semantics on an in-process log; the Kafka-backed log is covered by EmbeddedSchemaRegistryIT. */
class SchemaRegistryTest {
    private final InMemoryRegistryLog log = new InMemoryRegistryLog();
    private final SchemaRegistry registry = new SchemaRegistry(log);

    private static void assertError(Runnable call, int status, int code) {
        assertThatThrownBy(call::run).isInstanceOfSatisfying(SchemaRegistryException.class, e -> {
            assertThat(e.httpStatus()).isEqualTo(status);
            assertThat(e.errorCode()).isEqualTo(code);
        });
    }

    @Test
    void sameSchemaGetsSameIdWithoutNewVersionAndAcrossSubjects() {
        int id = registry.register("a-value", V1, null);
        assertThat(registry.register("a-value", V1.replace(",", ", "), "AVRO"))
                .as("whitespace ignored")
                .isEqualTo(id);
        assertThat(registry.versions("a-value", false)).containsExactly(1);
        assertThat(registry.register("b-value", V1, null)).isEqualTo(id);
        int id2 = registry.register("a-value", V2_WITH_DEFAULT, null);
        assertThat(id2).isEqualTo(id + 1);
        assertThat(registry.versions("a-value", false)).containsExactly(1, 2);
        assertThat(registry.version("a-value", VersionSpec.LATEST, false).id()).isEqualTo(id2);
        assertThat(registry.usesOfId(id, false))
                .extracting(SchemaEntry::subject)
                .containsExactly("a-value", "b-value");
    }

    @Test
    void incompatibleChangeIsRefusedWith409AndLeavesNoTrace() {
        registry.register("s", V1, null);
        int records = log.readAll().size();
        assertError(() -> registry.register("s", V2_NO_DEFAULT, null), 409, 409);
        assertThat(log.readAll()).hasSize(records);
        registry.setSubjectLevel("s", CompatibilityLevel.NONE);
        registry.register("s", V2_NO_DEFAULT, null);
        assertThat(registry.versions("s", false)).containsExactly(1, 2);
    }

    @Test
    void errorsCarryConfluentCodes() {
        assertError(() -> registry.versions("nope", false), 404, 40401);
        registry.register("s", V1, null);
        assertError(() -> registry.version("s", new VersionSpec(9), false), 404, 40402);
        assertError(() -> registry.schemaById(99), 404, 40403);
        assertError(() -> registry.lookup("s", OTHER, null, false), 404, 40403);
        assertError(() -> registry.register("s", "{\"type\":\"record\",\"name\":\"X\"}", null), 422, 42201);
        assertError(() -> registry.register("s", "not json", null), 422, 42201);
        assertError(() -> registry.register("s", V1, "PROTOBUF"), 422, 42201);
        assertError(() -> registry.deleteSubjectLevel("s"), 404, 40408);
    }

    @Test
    void softDeleteHidesVersionsKeepsIdsAndContinuesNumbering() {
        int id = registry.register("s", V1, null);
        assertThat(registry.deleteSubject("s")).containsExactly(1);
        assertError(() -> registry.versions("s", false), 404, 40401);
        assertThat(registry.versions("s", true)).containsExactly(1);
        assertThat(registry.subjects(false)).isEmpty();
        assertThat(registry.schemaById(id))
                .isEqualTo(new Schema.Parser().parse(V1).toString());
        assertThat(registry.register("s", V1, null)).isEqualTo(id);
        assertThat(registry.versions("s", false)).containsExactly(2);
    }

    @Test
    void compatibilityTestFollowsTheSubjectLevel() {
        registry.register("s", V1, null);
        assertThat(registry.testCompatibility("s", VersionSpec.LATEST, V2_NO_DEFAULT, null)
                        .compatible())
                .isFalse();
        assertThat(registry.testCompatibility("s", VersionSpec.LATEST, V2_WITH_DEFAULT, null)
                        .compatible())
                .isTrue();
        assertThat(registry.testCompatibility("s", new VersionSpec(1), V2_DROPPED, null)
                        .compatible())
                .isTrue();
        registry.setSubjectLevel("s", CompatibilityLevel.FORWARD);
        assertThat(registry.testCompatibility("s", new VersionSpec(1), V2_DROPPED, null)
                        .messages())
                .isNotEmpty();
        assertThat(registry.testCompatibility("fresh", VersionSpec.LATEST, V1, null)
                        .compatible())
                .isTrue();
        assertError(() -> registry.testCompatibility("fresh", new VersionSpec(1), V1, null), 404, 40401);
    }

    @Test
    void aNewRegistryOnTheSameLogHasTheSameStateAndContinuesIds() {
        int id1 = registry.register("s", V1, null);
        int id2 = registry.register("s", V2_WITH_DEFAULT, null);
        registry.register("t", OTHER, null);
        registry.deleteSubject("t");
        registry.setGlobalLevel(CompatibilityLevel.FULL);
        registry.setSubjectLevel("s", CompatibilityLevel.NONE);

        SchemaRegistry replayed = new SchemaRegistry(log);
        assertThat(replayed.version("s", new VersionSpec(1), false).id()).isEqualTo(id1);
        assertThat(replayed.version("s", VersionSpec.LATEST, false).id()).isEqualTo(id2);
        assertThat(replayed.subjects(false)).containsExactly("s");
        assertThat(replayed.globalLevel()).isEqualTo(CompatibilityLevel.FULL);
        assertThat(replayed.subjectLevel("s")).contains(CompatibilityLevel.NONE);
        int next = replayed.register("u", "\"string\"", null);
        assertThat(next).as("ids never reused, deleted subjects included").isEqualTo(id2 + 2);
        assertThat(List.of(id1, id2)).doesNotContain(next);
    }

    @Test
    void concurrentRegistrationsOfOneSchemaMakeOneVersionAndOneId() throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(8);
        try {
            List<Future<Integer>> ids = new ArrayList<>();
            for (int i = 0; i < 64; i++) {
                String subject = "s" + (i % 4);
                ids.add(pool.submit(() -> registry.register(subject, V1, null)));
            }
            Set<Integer> distinct = new HashSet<>();
            for (Future<Integer> f : ids) {
                distinct.add(f.get());
            }
            assertThat(distinct).hasSize(1);
            for (int s = 0; s < 4; s++) {
                assertThat(registry.versions("s" + s, false)).containsExactly(1);
            }
            assertThat(log.readAll()).hasSize(4);
        } finally {
            pool.shutdownNow();
        }
    }
}
