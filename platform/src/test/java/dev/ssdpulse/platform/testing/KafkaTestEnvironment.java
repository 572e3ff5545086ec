package dev.ssdpulse.platform.testing;

import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.ParameterContext;
import org.junit.jupiter.api.extension.ParameterResolutionException;
import org.junit.jupiter.api.extension.ParameterResolver;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.testcontainers.DockerClientFactory;

/**
 * JUnit 5 extension giving integration tests a Kafka cluster and a Confluent-API schema registry.
 *
 * <p>With a Docker engine it runs Testcontainers (apache/kafka + confluentinc/cp-schema-registry);
 * without one it runs the embedded {@link dev.ssdpulse.platform.LocalStack}. Either way the tests
 * run, never skip. System property ssdpulse.test.backend=embedded|testcontainers forces a choice.
 *
 * <p>One stack per test JVM: it lives in the root ExtensionContext store, so every test class of
 * the run shares it, and JUnit closes it when the run ends. Tests must therefore use their own topic
 * and subject names (e.g. with a random suffix).
 *
 * <pre>
 * &#64;ExtendWith(KafkaTestEnvironment.class)
 * class MyIT {
 *     &#64;Test void works(TestStack stack) { ... stack.bootstrapServers() ... stack.schemaRegistryUrl() ... }
 * }
 * </pre>
 * A {@code static @BeforeAll} method may take the TestStack parameter too.
 */
public final class KafkaTestEnvironment implements ParameterResolver {
    private static final Logger log = LoggerFactory.getLogger(KafkaTestEnvironment.class);
    private static final ExtensionContext.Namespace NAMESPACE = ExtensionContext.Namespace.create(KafkaTestEnvironment.class);
    private static final String KEY = "stack";

    @Override
    public boolean supportsParameter(ParameterContext parameterContext, ExtensionContext extensionContext) {
        return parameterContext.getParameter().getType() == TestStack.class;
    }

    @Override
    public Object resolveParameter(ParameterContext parameterContext, ExtensionContext extensionContext)
            throws ParameterResolutionException {
        return stack(extensionContext);
    }

    /** The shared stack, started on first use. */
    public static TestStack stack(ExtensionContext context) {
        return context.getRoot().getStore(NAMESPACE)
                .getOrComputeIfAbsent(KEY, key -> startStack(), TestStack.class);
    }

    private static TestStack startStack() {
        String forced = System.getProperty("ssdpulse.test.backend", "");
        boolean docker = forced.isEmpty() ? dockerAvailable() : forced.equals("testcontainers");
        if (!forced.isEmpty() && !forced.equals("testcontainers") && !forced.equals("embedded")) {
            throw new IllegalArgumentException("ssdpulse.test.backend must be 'embedded' or 'testcontainers', got '" + forced + "'");
        }
        long t0 = System.nanoTime();
        TestStack stack = docker ? new ContainerTestStack() : new EmbeddedTestStack();
        String message = String.format("KafkaTestEnvironment: backend=%s (%s), bootstrap=%s, registry=%s, started in %d ms",
                stack.backend(), forced.isEmpty() ? (docker ? "Docker engine found" : "no Docker engine") : "forced by ssdpulse.test.backend",
                stack.bootstrapServers(), stack.schemaRegistryUrl(), (System.nanoTime() - t0) / 1_000_000);
        log.info(message);
        // Also on stdout: a module's tests may run without an slf4j binding, and the choice must be visible.
        System.out.println(message);
        return stack;
    }

    private static boolean dockerAvailable() {
        try {
            return DockerClientFactory.instance().isDockerAvailable();
        } catch (Throwable e) {
            // Any failure to reach Docker means no Docker here; the embedded stack takes over.
            return false;
        }
    }
}
