package dev.ssdpulse.schemas.serde;

import dev.ssdpulse.schemas.registry.RegistryClientConfig;
import java.util.Map;

/** Config keys of the ssdpulse Avro serdes; the names of Confluent's serdes, so configs carry over. */
public final class SerdeConfig {
    /** Comma-separated registry base URLs; required unless a client is passed to the constructor. */
    public static final String SCHEMA_REGISTRY_URL = RegistryClientConfig.URL;
    /** {@code user:password} for HTTP basic auth. */
    public static final String BASIC_AUTH_USER_INFO = RegistryClientConfig.BASIC_AUTH_USER_INFO;
    /** Only {@code USER_INFO} is supported. */
    public static final String BASIC_AUTH_CREDENTIALS_SOURCE = RegistryClientConfig.BASIC_AUTH_CREDENTIALS_SOURCE;
    /** Bound of each registry-client cache. */
    public static final String MAX_SCHEMAS_PER_SUBJECT = RegistryClientConfig.CACHE_CAPACITY;
    /** Timeout of one registry request, ms. */
    public static final String REQUEST_TIMEOUT_MS = RegistryClientConfig.REQUEST_TIMEOUT_MS;

    /** Serializer registers the record's schema under the subject when missing; default true. */
    public static final String AUTO_REGISTER_SCHEMAS = "auto.register.schemas";

    public static final boolean DEFAULT_AUTO_REGISTER_SCHEMAS = true;
    /**
     * Serializer writes with the subject's latest registered schema (requires auto.register.schemas=false,
     * as in Confluent's serializer); default false.
     */
    public static final String USE_LATEST_VERSION = "use.latest.version";

    public static final boolean DEFAULT_USE_LATEST_VERSION = false;

    /** Subject name strategy of keys; only TopicNameStrategy ({@code <topic>-key}) is supported. */
    public static final String KEY_SUBJECT_NAME_STRATEGY = "key.subject.name.strategy";
    /** Subject name strategy of values; only TopicNameStrategy ({@code <topic>-value}) is supported. */
    public static final String VALUE_SUBJECT_NAME_STRATEGY = "value.subject.name.strategy";
    /** Confluent's class name of TopicNameStrategy, accepted as a value of the strategy keys. */
    public static final String TOPIC_NAME_STRATEGY = "io.confluent.kafka.serializers.subject.TopicNameStrategy";

    /** Generated class to read keys into, when the deserializer was built without one. */
    public static final String SPECIFIC_AVRO_KEY_TYPE = "specific.avro.key.type";
    /** Generated class to read values into, when the deserializer was built without one. */
    public static final String SPECIFIC_AVRO_VALUE_TYPE = "specific.avro.value.type";

    private SerdeConfig() {}

    /** The subject of a topic's keys or values under TopicNameStrategy. */
    public static String subject(String topic, boolean isKey) {
        return topic + (isKey ? "-key" : "-value");
    }

    static boolean booleanConfig(Map<String, ?> configs, String key, boolean defaultValue) {
        Object value = configs.get(key);
        if (value == null) {
            return defaultValue;
        }
        if (value instanceof Boolean b) {
            return b;
        }
        String text = value.toString().trim();
        if (text.equalsIgnoreCase("true")) {
            return true;
        }
        if (text.equalsIgnoreCase("false")) {
            return false;
        }
        throw new IllegalArgumentException("config '" + key + "' must be true or false, got '" + value + "'");
    }

    static void requireTopicNameStrategy(Map<String, ?> configs, boolean isKey) {
        String key = isKey ? KEY_SUBJECT_NAME_STRATEGY : VALUE_SUBJECT_NAME_STRATEGY;
        Object value = configs.get(key);
        if (value == null) {
            return;
        }
        String name =
                value instanceof Class<?> c ? c.getName() : value.toString().trim();
        if (!name.equals(TOPIC_NAME_STRATEGY) && !name.equals("TopicNameStrategy")) {
            throw new IllegalArgumentException("config '" + key + "' = '" + name
                    + "' is not supported; ssdpulse serdes use TopicNameStrategy (<topic>-key / <topic>-value)");
        }
    }
}
