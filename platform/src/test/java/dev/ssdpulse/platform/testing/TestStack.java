package dev.ssdpulse.platform.testing;

/** A Kafka cluster and a Confluent-API schema registry for integration tests. */
public interface TestStack {

    String bootstrapServers();

    String schemaRegistryUrl();

    /** "testcontainers" (Kafka + Confluent Schema Registry images) or "embedded" (LocalStack). */
    String backend();
}
