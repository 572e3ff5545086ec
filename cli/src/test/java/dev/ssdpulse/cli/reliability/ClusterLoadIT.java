package dev.ssdpulse.cli.reliability;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ssdpulse.platform.LocalStack;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * The cluster load in small (the 50-run figures come from {@code bench/cluster-load.sh}): five producer
 * processes stream two simulated runs each, all ten at once, into the three-broker cluster (the one
 * {@code ClusterFaultsIT} uses: {@link ThreeBrokerCluster}), analysed by two analytics instances; every run's
 * summary equals its offline analysis, and every window of every run is measured from its last I/O to its
 * appearance in the views.
 */
@ExtendWith(ThreeBrokerCluster.class)
@Timeout(value = 5, unit = TimeUnit.MINUTES)
class ClusterLoadIT {
    @TempDir
    Path tmp;

    @Test
    void tenRunsFromFiveProducersOnTwoInstancesEqualTheirOfflineAnalysis(LocalStack stack) throws Exception {
        // 4 simulated s of test phase after a 20 % precondition, unpaced: several windows a run, in little time
        ClusterLoad.Shape shape = new ClusterLoad.Shape(5, 2, 4, 1500, 0);
        ClusterLoad.Result result = new ClusterLoad(stack, tmp, Duration.ofMinutes(2)).run(shape, 2);

        System.out.println("ClusterLoadIT: " + result.line());
        assertThat(result.ioCount()).isPositive();
        assertThat(result.lags().windows()).as("windows measured").isGreaterThanOrEqualTo(shape.runs() * 4);
        assertThat(result.lags().minMs())
                .as("no window shown before its last I/O was published")
                .isGreaterThanOrEqualTo(0);
        assertThat(result.ioEventsPerSecond()).isPositive();
    }
}
