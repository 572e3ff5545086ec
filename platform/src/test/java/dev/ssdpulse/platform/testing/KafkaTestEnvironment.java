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
 * <p>System property ssdpulse.test.backend chooses: {@code embedded} (the default of the build's main test runs)
 * runs {@link dev.ssdpulse.platform.LocalStack}; {@code testcontainers} runs containers through a Docker-API
 * engine (Docker, or podman's API service with DOCKER_HOST) and fails if there is none; {@code auto} runs
 * containers where an engine answers (and the image of ssdpulse.test.image, when named, is there) and the
 * embedded stack elsewhere. Either way the tests run, never skip. With ssdpulse.test.image (the ssdpulse image
 * that docker/build-images.sh builds) the containers are that image; otherwise the public apache/kafka and
 * confluentinc/cp-schema-registry images.
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
    private static final ExtensionContext.Namespace NAMESPACE =
            ExtensionContext.Namespace.create(KafkaTestEnvironment.class);
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
        return context.getRoot().getStore(NAMESPACE).getOrComputeIfAbsent(KEY, key -> startStack(), TestStack.class);
    }

    private static TestStack startStack() {
        String backend = System.getProperty("ssdpulse.test.backend", "auto").trim();
        String image = System.getProperty("ssdpulse.test.image", "").trim();
        if (!backend.equals("testcontainers") && !backend.equals("embedded") && !backend.equals("auto")) {
            throw new IllegalArgumentException(
                    "ssdpulse.test.backend must be 'embedded', 'testcontainers' or 'auto', got '" + backend + "'");
        }
        String why;
        boolean containers;
        if (backend.equals("auto")) {
            containers = dockerAvailable() && (image.isEmpty() || imagePresent(image));
            why = containers
                    ? "auto: a container engine answers"
                    : "auto: no container engine"
                            + (image.isEmpty() ? "" : " or no image " + image + " (docker/build-images.sh builds it)");
        } else {
            containers = backend.equals("testcontainers");
            why = "ssdpulse.test.backend=" + backend;
            if (containers && !dockerAvailable()) {
                throw new IllegalStateException("ssdpulse.test.backend=testcontainers, but no container engine answers "
                        + "(Docker, or podman's API service with DOCKER_HOST=unix:///run/podman/podman.sock)");
            }
        }
        long t0 = System.nanoTime();
        TestStack stack = containers ? new ContainerTestStack(image.isEmpty() ? null : image) : new EmbeddedTestStack();
        String message = String.format(
                "KafkaTestEnvironment: backend=%s (%s), bootstrap=%s, registry=%s, started in %d ms",
                stack.backend(),
                why,
                stack.bootstrapServers(),
                stack.schemaRegistryUrl(),
                (System.nanoTime() - t0) / 1_000_000);
        log.info(message);
        // Also on stdout: a module's tests may run without an slf4j binding, and the choice must be visible.
        System.out.println(message);
        return stack;
    }

    private static boolean imagePresent(String image) {
        try {
            DockerClientFactory.instance().client().inspectImageCmd(image).exec();
            return true;
        } catch (RuntimeException e) {
            return false;
        }
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
