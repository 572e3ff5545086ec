package dev.ssdpulse.schemas.registry;

/** Config keys read by {@link HttpSchemaRegistryClient#fromConfig}; the usual Confluent names. */
public final class RegistryClientConfig {
    /** Comma-separated registry base URLs; the next one is tried when a connection fails. */
    public static final String URL = "schema.registry.url";
    /** Source of basic-auth credentials; only {@code USER_INFO} is supported. */
    public static final String BASIC_AUTH_CREDENTIALS_SOURCE = "basic.auth.credentials.source";
    /** {@code user:password} for HTTP basic auth; optional. */
    public static final String BASIC_AUTH_USER_INFO = "basic.auth.user.info";
    /** Alternative name Confluent also accepts for {@link #BASIC_AUTH_USER_INFO}. */
    public static final String SCHEMA_REGISTRY_BASIC_AUTH_USER_INFO = "schema.registry.basic.auth.user.info";
    /** Capacity of each client-side cache (Confluent's name); default {@value #DEFAULT_CACHE_CAPACITY}. */
    public static final String CACHE_CAPACITY = "max.schemas.per.subject";

    public static final int DEFAULT_CACHE_CAPACITY = 1000;
    /** Timeout of one HTTP request in ms; default {@value #DEFAULT_REQUEST_TIMEOUT_MS}. */
    public static final String REQUEST_TIMEOUT_MS = "schema.registry.request.timeout.ms";

    public static final int DEFAULT_REQUEST_TIMEOUT_MS = 30_000;

    /** A truststore of the CAs to trust for an https registry (Confluent's name); default: the JVM's. */
    public static final String SSL_TRUSTSTORE_LOCATION = "schema.registry.ssl.truststore.location";

    public static final String SSL_TRUSTSTORE_PASSWORD = "schema.registry.ssl.truststore.password";
    /** PKCS12 (default) or JKS. */
    public static final String SSL_TRUSTSTORE_TYPE = "schema.registry.ssl.truststore.type";

    private RegistryClientConfig() {}
}
