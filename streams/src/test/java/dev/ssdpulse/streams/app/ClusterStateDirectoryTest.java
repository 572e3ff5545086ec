package dev.ssdpulse.streams.app;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ClusterStateDirectoryTest {
    @TempDir
    Path base;

    @Test
    void eachClusterHasItsOwnDefaultDirectory() {
        assertThat(ClusterStateDirectory.forCluster(base, "MkU3OEVBNTcwNTJENDM2Qg"))
                .isEqualTo(base.resolve("MkU3OEVBNTcwNTJENDM2Qg"));
        assertThat(ClusterStateDirectory.forCluster(base, "a"))
                .isNotEqualTo(ClusterStateDirectory.forCluster(base, "b"));
        assertThatThrownBy(() -> ClusterStateDirectory.forCluster(base, "../x"))
                .hasMessageContaining("unexpected Kafka cluster id");
    }

    @Test
    void aDirectoryMadeAgainstAnotherClusterIsRefusedNamingBoth() throws Exception {
        Path dir = base.resolve("state");
        assertThat(ClusterStateDirectory.claim(dir, "clusterA")).isEqualTo(dir);
        assertThat(Files.readString(dir.resolve(ClusterStateDirectory.MARKER_FILE)))
                .isEqualTo("clusterA\n");
        Files.createDirectories(dir.resolve("ssdpulse-analytics/0_0"));
        assertThat(ClusterStateDirectory.claim(dir, "clusterA"))
                .as("the same cluster again")
                .isEqualTo(dir);
        assertThatThrownBy(() -> ClusterStateDirectory.claim(dir, "clusterB"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("was made against Kafka cluster clusterA, but clusterB answers now");
        assertThat(ClusterStateDirectory.of(base, "clusterB")).isEqualTo(base.resolve("clusterB"));
    }

    @Test
    void stateOfAnUnknownClusterIsRefusedAndAnEmptyDirectoryClaimed() throws Exception {
        Path old = Files.createDirectories(base.resolve("old/ssdpulse-analytics"));
        assertThatThrownBy(() -> ClusterStateDirectory.claim(old.getParent(), "clusterB"))
                .hasMessageContaining("unknown Kafka cluster");
        Path empty = Files.createDirectories(base.resolve("empty"));
        assertThat(ClusterStateDirectory.claim(empty, "clusterB")).isEqualTo(empty);
        assertThat(empty.resolve(ClusterStateDirectory.MARKER_FILE)).exists();
    }
}
