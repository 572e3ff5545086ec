package dev.ssdpulse.platform.testing;

import java.util.List;

/**
 * The build's JVM options for the JVMs tests start and stop within seconds to minutes (the reliability tests'
 * child JVMs, the {@code stack} JVMs, the launched distribution, the compose cluster's containers): the root pom's
 * {@code ssdpulse.test.childJvmArgs}, C1 only, because compiling with C2 is a large share of the CPU of a JVM that
 * short-lived and the suite is CPU-bound. Brokers take theirs from
 * {@link dev.ssdpulse.platform.kafka.EmbeddedKafkaBroker#JVM_ARGS_PROPERTY} instead.
 */
public final class TestJvmOptions {
    public static final String PROPERTY = "ssdpulse.test.childJvmArgs";

    private TestJvmOptions() {}

    /** The options, one per element; empty when the build sets none (e.g. a test run from an IDE). */
    public static List<String> forChildJvms() {
        String value = System.getProperty(PROPERTY, "").strip();
        return value.isEmpty() ? List.of() : List.of(value.split("\\s+"));
    }
}
