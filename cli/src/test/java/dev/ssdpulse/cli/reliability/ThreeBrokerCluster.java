package dev.ssdpulse.cli.reliability;

import dev.ssdpulse.platform.LocalStack;
import dev.ssdpulse.platform.TopicCreation;
import dev.ssdpulse.platform.kafka.BrokerSettings;
import dev.ssdpulse.platform.kafka.EmbeddedKafkaCluster;
import dev.ssdpulse.schemas.topics.Topics;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.ParameterContext;
import org.junit.jupiter.api.extension.ParameterResolver;

/**
 * One three-broker cluster (child JVMs, replication factor 3, min.insync.replicas 2) plus the schema registry and
 * every ssdpulse topic, shared by the test classes that take a {@link LocalStack} parameter through this
 * extension ({@code ClusterFaultsIT}, {@code ClusterLoadIT}): three JVMs booting on two cores take 15-35 s, paid
 * once per test JVM. Closed (an AutoCloseable in the root store) when the test JVM's root context closes. A test that
 * kills a node restarts it and waits until every replica is in sync again, so the next test finds the cluster whole.
 */
public final class ThreeBrokerCluster implements ParameterResolver {
    private static final ExtensionContext.Namespace NAMESPACE =
            ExtensionContext.Namespace.create(ThreeBrokerCluster.class);

    @Override
    public boolean supportsParameter(ParameterContext parameterContext, ExtensionContext extensionContext) {
        return parameterContext.getParameter().getType() == LocalStack.class;
    }

    @Override
    public Object resolveParameter(ParameterContext parameterContext, ExtensionContext extensionContext) {
        return extensionContext
                .getRoot()
                .getStore(NAMESPACE)
                .getOrComputeIfAbsent("stack", key -> new Shared(start()), Shared.class)
                .stack;
    }

    /** A started three-broker stack with every ssdpulse topic (the bench starts its own through this too). */
    static LocalStack start() {
        LocalStack stack = LocalStack.start(BrokerSettings.defaults().withHeapMb(384), 3, 0);
        try {
            EmbeddedKafkaCluster cluster = stack.cluster();
            stack.createTopics(TopicCreation.catalogue(
                    Topics.DEFAULT_PARTITIONS, cluster.replicationFactor(), cluster.minInSyncReplicas()));
            System.out.printf(
                    "ThreeBrokerCluster: %s started in %d ms%n",
                    stack.bootstrapServers(), stack.startDuration().toMillis());
            return stack;
        } catch (RuntimeException e) {
            stack.close();
            throw e;
        }
    }

    private record Shared(LocalStack stack) implements AutoCloseable {
        @Override
        public void close() {
            stack.close();
        }
    }
}
