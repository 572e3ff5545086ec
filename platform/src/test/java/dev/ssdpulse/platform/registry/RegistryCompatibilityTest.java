package dev.ssdpulse.platform.registry;

import static dev.ssdpulse.platform.registry.TestSchemas.*;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.ssdpulse.schemas.registry.AvroCompatibility;
import dev.ssdpulse.schemas.registry.CompatibilityLevel;
import dev.ssdpulse.schemas.registry.SchemaRegistryException;
import java.util.List;
import org.apache.avro.Schema;
import org.junit.jupiter.api.Test;

class RegistryCompatibilityTest {

    private static Schema s(String text) {
        return new Schema.Parser().parse(text);
    }

    @Test
    void addingAFieldWithoutDefaultBreaksBackwardButNotForward() {
        assertThat(AvroCompatibility.incompatibilities(CompatibilityLevel.BACKWARD, s(V2_NO_DEFAULT), List.of(s(V1))))
                .singleElement()
                .asString()
                .contains("BACKWARD")
                .contains("sizeBytes");
        assertThat(AvroCompatibility.incompatibilities(CompatibilityLevel.FORWARD, s(V2_NO_DEFAULT), List.of(s(V1))))
                .isEmpty();
        assertThat(AvroCompatibility.incompatibilities(CompatibilityLevel.FULL, s(V2_NO_DEFAULT), List.of(s(V1))))
                .hasSize(1);
        assertThat(AvroCompatibility.incompatibilities(CompatibilityLevel.NONE, s(V2_NO_DEFAULT), List.of(s(V1))))
                .isEmpty();
    }

    @Test
    void droppingAFieldBreaksForwardOnly() {
        assertThat(AvroCompatibility.incompatibilities(CompatibilityLevel.BACKWARD, s(V2_DROPPED), List.of(s(V1))))
                .isEmpty();
        assertThat(AvroCompatibility.incompatibilities(CompatibilityLevel.FORWARD, s(V2_DROPPED), List.of(s(V1))))
                .singleElement()
                .asString()
                .contains("FORWARD");
    }

    @Test
    void addingAFieldWithDefaultIsFullyCompatible() {
        assertThat(AvroCompatibility.incompatibilities(
                        CompatibilityLevel.FULL_TRANSITIVE, s(V2_WITH_DEFAULT), List.of(s(V1))))
                .isEmpty();
    }

    @Test
    void transitiveLevelsCheckEveryEarlierVersionOthersOnlyTheLatest() {
        // history: {runId:int} -> {} ; candidate {runId:string = ""} reads the latest through the default,
        // but cannot read the int written by the oldest version.
        Schema intRunId =
                s("{\"type\":\"record\",\"name\":\"Sample\",\"namespace\":\"t\",\"fields\":[{\"name\":\"runId\","
                        + "\"type\":\"int\"}]}");
        List<Schema> history = List.of(intRunId, s(V2_DROPPED));
        Schema candidate =
                s("{\"type\":\"record\",\"name\":\"Sample\",\"namespace\":\"t\",\"fields\":[{\"name\":\"runId\","
                        + "\"type\":\"string\",\"default\":\"\"}]}");
        assertThat(AvroCompatibility.incompatibilities(CompatibilityLevel.BACKWARD, candidate, history))
                .isEmpty();
        assertThat(AvroCompatibility.incompatibilities(CompatibilityLevel.BACKWARD_TRANSITIVE, candidate, history))
                .isNotEmpty();
    }

    @Test
    void noEarlierVersionIsAlwaysCompatible() {
        assertThat(AvroCompatibility.incompatibilities(CompatibilityLevel.FULL_TRANSITIVE, s(V1), List.of()))
                .isEmpty();
    }

    @Test
    void levelsParseCaseInsensitivelyAndRejectUnknownWith42203() {
        assertThat(CompatibilityLevel.parse("full_transitive")).isEqualTo(CompatibilityLevel.FULL_TRANSITIVE);
        assertThatThrownBy(() -> CompatibilityLevel.parse("SIDEWAYS"))
                .isInstanceOfSatisfying(SchemaRegistryException.class, e -> {
                    assertThat(e.httpStatus()).isEqualTo(422);
                    assertThat(e.errorCode()).isEqualTo(42203);
                    assertThat(e.getMessage()).contains("SIDEWAYS");
                });
    }

    @Test
    void versionSpecAcceptsLatestMinusOneAndPositiveNumbers() {
        assertThat(VersionSpec.parse("latest").isLatest()).isTrue();
        assertThat(VersionSpec.parse("-1").isLatest()).isTrue();
        assertThat(VersionSpec.parse("3").number()).isEqualTo(3);
        for (String bad : List.of("0", "-2", "abc", "")) {
            assertThatThrownBy(() -> VersionSpec.parse(bad))
                    .isInstanceOfSatisfying(
                            SchemaRegistryException.class,
                            e -> assertThat(e.errorCode()).isEqualTo(42202));
        }
    }
}
