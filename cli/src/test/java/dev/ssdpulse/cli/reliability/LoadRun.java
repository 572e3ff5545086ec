package dev.ssdpulse.cli.reliability;

import dev.ssdpulse.producer.workload.WorkloadOverrides;
import dev.ssdpulse.producer.workload.WorkloadPresets;
import dev.ssdpulse.producer.workload.WorkloadSpec;
import java.util.Map;

/**
 * One simulated run of the cluster load: seed 003's 80/20 random mix at QD4 on the {@code tiny-test} drive (a 20 %
 * precondition, then the rate-limited test phase), differing per run in seed and rate so that no two runs look
 * alike and a record of one run counted in another shows. Passed to a producer process as {@link #arg()}.
 */
record LoadRun(String runId, long seed, long rateIops, int durationS) {
    static final String SSD = "tiny-test";
    static final String WORKLOAD = "seed003-mixed-80-20";

    LoadRun {
        if (rateIops <= 0 || durationS <= 0) {
            throw new IllegalArgumentException(
                    "run " + runId + ": rateIops and durationS must be > 0, got " + rateIops + " and " + durationS);
        }
    }

    WorkloadSpec spec() {
        WorkloadSpec preset = new WorkloadPresets()
                .load(
                        WORKLOAD,
                        Map.of("durationS", Integer.toString(durationS), "preconditionPercent", "20", "qd", "4"));
        return WorkloadOverrides.none()
                .withRateLimitIops(rateIops)
                .withSeed(seed)
                .apply(preset, "load run " + runId);
    }

    /** "runId:seed:rateIops:durationS", what {@link #parse} reads. */
    String arg() {
        return runId + ":" + seed + ":" + rateIops + ":" + durationS;
    }

    static LoadRun parse(String arg) {
        String[] f = arg.split(":");
        if (f.length != 4) {
            throw new IllegalArgumentException("a load run is RUNID:SEED:RATE_IOPS:DURATION_S, got '" + arg + "'");
        }
        try {
            return new LoadRun(f[0], Long.parseLong(f[1]), Long.parseLong(f[2]), Integer.parseInt(f[3]));
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(
                    "a load run is RUNID:SEED:RATE_IOPS:DURATION_S with numbers, got '" + arg + "'", e);
        }
    }
}
