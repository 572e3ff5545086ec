package dev.ssdpulse.cli.reliability;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.ssdpulse.cli.run.OfflineRunOutput;
import dev.ssdpulse.cli.simulate.SimulatedRunDriver;
import dev.ssdpulse.producer.sim.config.SsdPresets;
import dev.ssdpulse.producer.sim.engine.SimulatedDrive;
import dev.ssdpulse.producer.workload.WorkloadSpec;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.List;

/** What a simulated run's live summary must equal: the same workload and seed analysed in-process. */
final class OfflineSummaries {
    private OfflineSummaries() {}

    /** The summary JSON of {@code simulate --ssd SSD --offline --format json} for this spec (1-s windows). */
    static JsonNode of(String runId, String ssd, WorkloadSpec spec) {
        SimulatedDrive drive = new SimulatedDrive(new SsdPresets().resolve(ssd), spec.seed());
        StringWriter json = new StringWriter();
        new SimulatedRunDriver(drive, spec, 1_000_000_000L, 0, null, () -> false)
                .run(new OfflineRunOutput(
                        runId,
                        1_000_000_000L,
                        60_000_000_000L,
                        "json",
                        null,
                        ssd,
                        spec.name(),
                        new PrintWriter(json, true)));
        return ApiClient.parse(json.toString());
    }

    /** The summary without the descriptive device and workload texts, which the two paths word differently. */
    static ObjectNode withoutContext(JsonNode summary) {
        ObjectNode copy = summary.deepCopy();
        copy.remove(List.of("device", "workload"));
        return copy;
    }
}
