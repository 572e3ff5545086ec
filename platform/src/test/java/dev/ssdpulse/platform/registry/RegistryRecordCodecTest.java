package dev.ssdpulse.platform.registry;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.ssdpulse.schemas.registry.CompatibilityLevel;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

class RegistryRecordCodecTest {

    private static String str(byte[] b) {
        return b == null ? null : new String(b, StandardCharsets.UTF_8);
    }

    @Test
    void schemaRecordsUseConfluentsLayoutAndRoundTrip() {
        var record = new RegistryRecord.SchemaVersion(new SchemaEntry("s-value", 2, 7, "\"string\"", false));
        assertThat(str(RegistryRecordCodec.key(record)))
                .isEqualTo("{\"keytype\":\"SCHEMA\",\"subject\":\"s-value\",\"version\":2,\"magic\":1}");
        assertThat(str(RegistryRecordCodec.value(record)))
                .isEqualTo("{\"subject\":\"s-value\",\"version\":2,\"id\":7,\"schema\":\"\\\"string\\\"\","
                        + "\"deleted\":false}");
        assertThat(RegistryRecordCodec.decode(RegistryRecordCodec.key(record), RegistryRecordCodec.value(record)))
                .contains(record);
    }

    @Test
    void configRecordsRoundTripIncludingGlobalAndTombstone() {
        var global = new RegistryRecord.Config(null, CompatibilityLevel.FULL);
        assertThat(str(RegistryRecordCodec.key(global)))
                .isEqualTo("{\"keytype\":\"CONFIG\",\"subject\":null,\"magic\":0}");
        assertThat(RegistryRecordCodec.decode(RegistryRecordCodec.key(global), RegistryRecordCodec.value(global)))
                .contains(global);
        var removed = new RegistryRecord.Config("s", null);
        assertThat(RegistryRecordCodec.value(removed)).isNull();
        assertThat(RegistryRecordCodec.decode(RegistryRecordCodec.key(removed), null))
                .contains(removed);
    }

    @Test
    void foreignRecordTypesAreSkippedAndMalformedOnesNamed() {
        assertThat(RegistryRecordCodec.decode(
                        "{\"keytype\":\"NOOP\",\"magic\":0}".getBytes(StandardCharsets.UTF_8), null))
                .isEmpty();
        assertThatThrownBy(() -> RegistryRecordCodec.decode(
                        "{\"keytype\":\"SCHEMA\",\"subject\":\"s\",\"version\":1,\"magic\":1}"
                                .getBytes(StandardCharsets.UTF_8),
                        "{\"subject\":\"s\",\"version\":1,\"schema\":\"x\"}".getBytes(StandardCharsets.UTF_8)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("'id'");
    }
}
