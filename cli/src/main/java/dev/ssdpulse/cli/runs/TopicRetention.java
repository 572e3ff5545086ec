package dev.ssdpulse.cli.runs;

import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AlterConfigOp;
import org.apache.kafka.clients.admin.Config;
import org.apache.kafka.clients.admin.ConfigEntry;
import org.apache.kafka.common.KafkaFuture;
import org.apache.kafka.common.config.ConfigResource;

/** Reads and sets the retention and cleanup policy of topics on the cluster (not the catalogue's defaults). */
final class TopicRetention {
    record Settings(String cleanupPolicy, long retentionMs) {}

    private TopicRetention() {}

    static Map<String, Settings> describe(Admin admin, Collection<String> topics) throws Exception {
        List<ConfigResource> resources = topics.stream()
                .map(t -> new ConfigResource(ConfigResource.Type.TOPIC, t))
                .toList();
        Map<ConfigResource, Config> configs =
                get(admin.describeConfigs(resources).all());
        Map<String, Settings> out = new LinkedHashMap<>();
        for (ConfigResource r : resources) {
            Config c = configs.get(r);
            ConfigEntry policy = c.get("cleanup.policy");
            ConfigEntry retention = c.get("retention.ms");
            out.put(
                    r.name(),
                    new Settings(
                            policy == null ? "delete" : policy.value(),
                            retention == null ? -1 : Long.parseLong(retention.value())));
        }
        return out;
    }

    static void setRetention(Admin admin, Collection<String> topics, long retentionMs) throws Exception {
        Map<ConfigResource, Collection<AlterConfigOp>> ops = new LinkedHashMap<>();
        for (String t : topics) {
            ops.put(
                    new ConfigResource(ConfigResource.Type.TOPIC, t),
                    List.of(new AlterConfigOp(
                            new ConfigEntry("retention.ms", Long.toString(retentionMs)), AlterConfigOp.OpType.SET)));
        }
        get(admin.incrementalAlterConfigs(ops).all());
    }

    private static <T> T get(KafkaFuture<T> f) throws Exception {
        try {
            return f.get(60, TimeUnit.SECONDS);
        } catch (ExecutionException e) {
            throw e.getCause() instanceof Exception ex ? ex : e;
        } catch (TimeoutException e) {
            throw new org.apache.kafka.common.errors.TimeoutException("the cluster did not answer in 60 s", e);
        }
    }
}
