package dev.ssdpulse.streams.http.metrics;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

class PrometheusTextMergeTest {
    private static final String LOCAL = """
            # HELP ssdpulse_run_iops I/Os per second
            # TYPE ssdpulse_run_iops gauge
            ssdpulse_run_iops{op="READ",run_id="a"} 100.0
            # HELP jvm_threads_current threads
            # TYPE jvm_threads_current gauge
            jvm_threads_current 40.0
            """;
    private static final String OTHER = """
            # HELP ssdpulse_run_iops I/Os per second
            # TYPE ssdpulse_run_iops gauge
            ssdpulse_run_iops{op="READ",run_id="a"} 99.0
            ssdpulse_run_iops{op="WRITE",run_id="b"} 200.0
            # HELP ssdpulse_run_status 1 for the status
            # TYPE ssdpulse_run_status gauge
            ssdpulse_run_status{run_id="b",status="RUNNING"} 1.0
            # HELP jvm_threads_current threads
            # TYPE jvm_threads_current gauge
            jvm_threads_current 55.0
            """;

    @Test
    void runFamiliesGainTheOtherInstancesSamplesUnderOneHeaderAndInstanceFamiliesStayLocal() {
        String merged = PrometheusTextMerge.merge(LOCAL, List.of(OTHER), name -> name.startsWith("ssdpulse_run_"));
        assertThat(merged).isEqualTo("""
                # HELP ssdpulse_run_iops I/Os per second
                # TYPE ssdpulse_run_iops gauge
                ssdpulse_run_iops{op="READ",run_id="a"} 100.0
                ssdpulse_run_iops{op="WRITE",run_id="b"} 200.0
                # HELP jvm_threads_current threads
                # TYPE jvm_threads_current gauge
                jvm_threads_current 40.0
                # HELP ssdpulse_run_status 1 for the status
                # TYPE ssdpulse_run_status gauge
                ssdpulse_run_status{run_id="b",status="RUNNING"} 1.0
                """);
    }

    @Test
    void withoutOtherInstancesTheLocalExpositionIsUnchanged() {
        assertThat(PrometheusTextMerge.merge(LOCAL, List.of(), name -> true)).isEqualTo(LOCAL);
    }
}
