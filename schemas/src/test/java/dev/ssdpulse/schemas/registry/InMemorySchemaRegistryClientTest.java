package dev.ssdpulse.schemas.registry;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.apache.avro.Schema;
import org.junit.jupiter.api.Test;

class InMemorySchemaRegistryClientTest {
    private final InMemorySchemaRegistryClient registry = new InMemorySchemaRegistryClient();

    @Test
    void registeringIsIdempotentAndIdsAreSharedAcrossSubjects() {
        int id = registry.register("a-value", TestSchemas.v1());
        assertThat(registry.register("a-value", TestSchemas.v1())).isEqualTo(id);
        assertThat(registry.register("b-value", TestSchemas.v1())).isEqualTo(id);
        assertThat(registry.listVersions("a-value")).containsExactly(1);
        int id2 = registry.register("a-value", TestSchemas.v2());
        assertThat(id2).isNotEqualTo(id);
        assertThat(registry.listVersions("a-value")).containsExactly(1, 2);
        assertThat(registry.getLatest("a-value")).isEqualTo(new SchemaVersion("a-value", 2, id2, TestSchemas.v2()));
        assertThat(registry.getVersion("a-value", 1).id()).isEqualTo(id);
        assertThat(registry.lookup("a-value", TestSchemas.v2()).version()).isEqualTo(2);
        assertThat(registry.getById(id2)).isEqualTo(TestSchemas.v2());
        assertThat(registry.listSubjects()).containsExactly("a-value", "b-value");
    }

    @Test
    void backwardIncompatibleVersionIsRefusedWith409AndDetails() {
        registry.register("s", TestSchemas.v1());
        assertThat(registry.testCompatibility("s", TestSchemas.incompatible())).isFalse();
        assertThatThrownBy(() -> registry.register("s", TestSchemas.incompatible()))
                .isInstanceOfSatisfying(SchemaRegistryException.class, e -> {
                    assertThat(e.httpStatus()).isEqualTo(409);
                    assertThat(e.errorCode()).isEqualTo(SchemaRegistryException.INCOMPATIBLE_SCHEMA);
                    assertThat(e.getMessage()).contains("incompatible", "\"s\"", "sizeBytes");
                });
        assertThat(registry.listVersions("s")).containsExactly(1);
    }

    @Test
    void compatibilityLevelsFollowConfluentSemantics() {
        registry.register("s", TestSchemas.v2());
        // Removing a field with a default is BACKWARD compatible (new reader ignores it) ...
        assertThat(registry.testCompatibility("s", TestSchemas.v1())).isTrue();
        // ... and adding a required field is FORWARD compatible (old reader ignores it).
        registry.setCompatibility("s", CompatibilityLevel.FORWARD);
        assertThat(registry.getCompatibility("s")).isEqualTo(CompatibilityLevel.FORWARD);
        assertThat(registry.testCompatibility("s", TestSchemas.incompatible())).isTrue();
        registry.setCompatibility("s", CompatibilityLevel.NONE);
        registry.register("s", TestSchemas.incompatible());
        assertThat(registry.listVersions("s")).containsExactly(1, 2);
        assertThat(registry.getGlobalCompatibility()).isEqualTo(CompatibilityLevel.BACKWARD);
        assertThat(registry.getCompatibility("other")).isEqualTo(CompatibilityLevel.BACKWARD);
    }

    @Test
    void transitiveLevelChecksEveryEarlierVersion() {
        registry.register("s", TestSchemas.v1());
        registry.setCompatibility("s", CompatibilityLevel.NONE);
        registry.register("s", TestSchemas.incompatible()); // adds required sizeBytes
        // Reads the latest version (has sizeBytes) but not v1 (lacks it, no default).
        Schema candidate = new Schema.Parser().parse("""
                {"type":"record","name":"Probe","namespace":"dev.ssdpulse.test","fields":[
                  {"name":"runId","type":"string"},{"name":"sizeBytes","type":"int"}]}""");
        registry.setCompatibility("s", CompatibilityLevel.BACKWARD);
        assertThat(registry.testCompatibility("s", candidate)).isTrue();
        registry.setCompatibility("s", CompatibilityLevel.BACKWARD_TRANSITIVE);
        assertThat(registry.testCompatibility("s", candidate)).isFalse();
        assertThat(registry.incompatibilities("s", candidate))
                .singleElement()
                .asString()
                .contains("sizeBytes");
    }

    @Test
    void notFoundErrorsCarryConfluentCodes() {
        registry.register("s", TestSchemas.v1());
        assertThatThrownBy(() -> registry.getLatest("nope"))
                .isInstanceOfSatisfying(
                        SchemaRegistryException.class,
                        e -> assertThat(e.errorCode()).isEqualTo(40401));
        assertThatThrownBy(() -> registry.getVersion("s", 9))
                .isInstanceOfSatisfying(
                        SchemaRegistryException.class,
                        e -> assertThat(e.errorCode()).isEqualTo(40402));
        assertThatThrownBy(() -> registry.getById(99)).isInstanceOfSatisfying(SchemaRegistryException.class, e -> {
            assertThat(e.errorCode()).isEqualTo(40403);
            assertThat(e.httpStatus()).isEqualTo(404);
            assertThat(e.getMessage()).contains("99");
        });
        assertThatThrownBy(() -> registry.lookup("s", TestSchemas.v2()))
                .isInstanceOfSatisfying(
                        SchemaRegistryException.class,
                        e -> assertThat(e.errorCode()).isEqualTo(40403));
    }

    @Test
    void deletedSubjectKeepsIdsResolvableAndContinuesVersionNumbers() {
        int id = registry.register("s", TestSchemas.v1());
        assertThat(registry.deleteSubject("s")).containsExactly(1);
        assertThat(registry.listSubjects()).isEmpty();
        assertThat(registry.getById(id)).isEqualTo(TestSchemas.v1());
        assertThat(registry.register("s", TestSchemas.v1())).isEqualTo(id);
        assertThat(registry.listVersions("s")).containsExactly(2);
    }

    @Test
    void countsCallsPerOperation() {
        registry.register("s", TestSchemas.v1());
        registry.register("s", TestSchemas.v1());
        registry.getById(1);
        assertThat(registry.calls("register")).isEqualTo(2);
        assertThat(registry.calls("getById")).isEqualTo(1);
        assertThat(registry.calls("lookup")).isZero();
        assertThat(registry.totalCalls()).isEqualTo(3);
    }

    @Test
    void invalidCompatibilityLevelNameIsRejectedWith42203() {
        assertThatThrownBy(() -> CompatibilityLevel.parse("SIDEWAYS"))
                .isInstanceOfSatisfying(SchemaRegistryException.class, e -> {
                    assertThat(e.errorCode()).isEqualTo(42203);
                    assertThat(e.getMessage()).contains("SIDEWAYS", "backward");
                });
        assertThat(CompatibilityLevel.parse("full_transitive")).isEqualTo(CompatibilityLevel.FULL_TRANSITIVE);
    }
}
