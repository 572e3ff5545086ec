package dev.ssdpulse.streams.app;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Properties;
import org.apache.kafka.streams.StreamsConfig;
import org.junit.jupiter.api.Test;

/**
 * Security settings in the config's extra properties reach every client of the application unchanged: the
 * Streams clients (through streamsProperties) and the admin client / replay reader (adminProps).
 */
class AnalyticsAppPropertiesTest {
    private static final Map<String, String> SECURITY = new LinkedHashMap<>();

    static {
        SECURITY.put("security.protocol", "SASL_SSL");
        SECURITY.put("sasl.mechanism", "PLAIN");
        SECURITY.put(
                "sasl.jaas.config",
                "org.apache.kafka.common.security.plain.PlainLoginModule required username=\"u\" password=\"p=;w\";");
        SECURITY.put("ssl.truststore.location", "/secrets/trust store.jks");
        SECURITY.put("ssl.truststore.password", "t=p");
    }

    private static AnalyticsConfig config() {
        Map<String, String> extra = new LinkedHashMap<>(SECURITY);
        extra.put("linger.ms", "5");
        return AnalyticsConfig.defaults("broker:9093", "https://registry:8081", Path.of("/tmp/state"))
                .withExtraProperties(extra);
    }

    @Test
    void streamsPropertiesCarryTheSecuritySettingsToEveryStreamsClient() {
        Properties props = AnalyticsApp.streamsProperties(config());
        SECURITY.forEach((k, v) -> assertThat(props.getProperty(k)).as(k).isEqualTo(v));
        StreamsConfig streams = new StreamsConfig(props);
        for (Map<String, Object> client : new Map[] {
            streams.getMainConsumerConfigs("g", "c", 0),
            streams.getRestoreConsumerConfigs("c"),
            streams.getGlobalConsumerConfigs("c"),
            streams.getProducerConfigs("c"),
            streams.getAdminConfigs("c")
        }) {
            SECURITY.forEach(
                    (k, v) -> assertThat(String.valueOf(client.get(k))).as(k).isEqualTo(v));
        }
    }

    @Test
    void adminAndReplayReaderGetTheSecuritySettingsButNotTheTuning() {
        Map<String, Object> admin = AnalyticsApp.adminProps(config());
        assertThat(admin.get("bootstrap.servers")).isEqualTo("broker:9093");
        SECURITY.forEach((k, v) -> assertThat(admin.get(k)).as(k).isEqualTo(v));
        assertThat(admin).doesNotContainKey("linger.ms");
    }
}
