package dev.ssdpulse.streams.app;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * A Kafka Streams state directory bound to one Kafka cluster. Streams keeps its stores and the changelog offsets
 * they were restored to in this directory; against another cluster (a new ephemeral stack, another environment) those
 * offsets mean nothing: Streams reports every task as corrupted, and stores it has not wiped yet serve the other
 * cluster's runs to the dashboard while {@code report}, which reads the cluster's topics, knows nothing of them. So
 * each cluster has its own directory under a base ({@code base/<cluster id>}), so a new cluster starts with a fresh
 * one, and each directory records the id of the cluster it was made against ({@value #MARKER_FILE}) and is refused
 * against any other (a directory copied or renamed by hand).
 */
public final class ClusterStateDirectory {
    /** The file in a state directory that holds the Kafka cluster id it was made against. */
    public static final String MARKER_FILE = "kafka-cluster-id";

    /** Kafka cluster ids are 22 characters of URL-safe base64; anything else is not used as a directory name. */
    private static final Pattern CLUSTER_ID = Pattern.compile("[A-Za-z0-9_-]{1,64}");

    private ClusterStateDirectory() {}

    /** The state directory of a cluster under {@code base}, claimed for it ({@link #claim}). */
    public static Path of(Path base, String clusterId) {
        return claim(forCluster(base, clusterId), clusterId);
    }

    /** Where the state directory of a cluster is under {@code base}: {@code base/<clusterId>}. */
    public static Path forCluster(Path base, String clusterId) {
        if (!CLUSTER_ID.matcher(clusterId).matches()) {
            throw new IllegalArgumentException("unexpected Kafka cluster id '" + clusterId + "'");
        }
        return base.resolve(clusterId);
    }

    /**
     * Binds {@code dir} to {@code clusterId}: a new or empty directory is stamped with it; one stamped with the same
     * id is used as it is.
     *
     * @throws IllegalArgumentException when the directory was made against another cluster (both ids named), or holds
     *                                  state without a stamp (its cluster cannot be known)
     */
    public static Path claim(Path dir, String clusterId) {
        Path marker = dir.resolve(MARKER_FILE);
        try {
            if (Files.isRegularFile(marker)) {
                String madeFor =
                        Files.readString(marker, StandardCharsets.UTF_8).trim();
                if (!madeFor.equals(clusterId)) {
                    throw new IllegalArgumentException("state directory " + dir + " was made against Kafka cluster "
                            + madeFor + ", but " + clusterId + " answers now (a new stack?): its stores would show"
                            + " the other cluster's runs. Delete the directory, or name it after the cluster it"
                            + " belongs to");
                }
                return dir;
            }
            if (Files.isDirectory(dir) && !isEmpty(dir)) {
                throw new IllegalArgumentException("state directory " + dir + " holds Kafka Streams state of an"
                        + " unknown Kafka cluster (it has no " + MARKER_FILE + " file): delete it, or pass another"
                        + " --state-dir");
            }
            Files.createDirectories(dir);
            Files.writeString(marker, clusterId + "\n", StandardCharsets.UTF_8);
            return dir;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot use state directory " + dir + ": " + e.getMessage(), e);
        }
    }

    private static boolean isEmpty(Path dir) throws IOException {
        try (Stream<Path> entries = Files.list(dir)) {
            return entries.findAny().isEmpty();
        }
    }
}
