package dev.ssdpulse.schemas.serde;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ssdpulse.platform.registry.EmbeddedSchemaRegistry;
import dev.ssdpulse.schemas.SampleRecords;
import dev.ssdpulse.schemas.avro.RunStarted;
import dev.ssdpulse.schemas.registry.RecordingProxy;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The serde configured from a URL, against the real embedded registry (schemas' own tests have no HTTP registry). */
class SpecificAvroSerdeHttpTest {
    @Test
    void configuredFromUrlAgainstAnHttpRegistryAndResolvesTheClassByName() {
        try (EmbeddedSchemaRegistry registry = EmbeddedSchemaRegistry.inMemory();
                RecordingProxy server = new RecordingProxy(registry.url())) {
            Map<String, Object> configs = Map.of(SerdeConfig.SCHEMA_REGISTRY_URL, server.url());
            try (SpecificAvroSerializer<RunStarted> ser = new SpecificAvroSerializer<>();
                    SpecificAvroDeserializer<RunStarted> de = new SpecificAvroDeserializer<>()) {
                ser.configure(configs, false);
                de.configure(configs, false);
                RunStarted record = SampleRecords.runStarted();
                for (int i = 0; i < 50; i++) {
                    assertThat(de.deserialize("ssdpulse.runs.v1", ser.serialize("ssdpulse.runs.v1", record)))
                            .isEqualTo(record);
                }
            }
            // One register by the serializer, one id fetch by the deserializer's own client.
            assertThat(server.requestCount()).isEqualTo(2);
            assertThat(registry.registry().subjects(false)).containsExactly("ssdpulse.runs.v1-value");
        }
    }
}
