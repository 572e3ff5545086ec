package dev.ssdpulse.producer.fio;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Totals from fio's JSON output ({@code --output-format=json} or {@code json+}): per job and data
 * direction, the I/O count, bytes, IOPS and the clat/lat/slat statistics in ns, with percentiles and, from
 * json+, the exact latency bins (bin lower bound ns -&gt; count) for comparison with ssdpulse's histograms.
 * Text before the first '{' (fio may print notes to the same stream) is skipped.
 */
public record FioJsonReport(String fioVersion, long timestampMs, List<Job> jobs) {

    public FioJsonReport {
        jobs = List.copyOf(jobs);
    }

    /** One fio job. */
    public record Job(
            String name, int groupId, int error, long runtimeMs, Direction read, Direction write, Direction trim) {}

    /**
     * Totals of one data direction.
     *
     * @param totalIos  I/Os completed ({@code total_ios})
     * @param ioBytes   bytes transferred
     * @param iops      mean IOPS
     * @param runtimeMs direction run time
     */
    public record Direction(
            long totalIos, long ioBytes, double iops, long runtimeMs, Latency clatNs, Latency latNs, Latency slatNs) {}

    /**
     * Latency statistics in ns. {@code percentiles}: percentile (e.g. 99.9) -&gt; ns; {@code bins}: json+ only,
     * bin value ns -&gt; count (empty for plain json).
     */
    public record Latency(
            long minNs,
            long maxNs,
            double meanNs,
            double stddevNs,
            long count,
            Map<Double, Long> percentiles,
            Map<Long, Long> bins) {
        static final Latency EMPTY = new Latency(0, 0, 0, 0, 0, Map.of(), Map.of());
    }

    public static FioJsonReport read(Path file) {
        String text;
        try {
            text = Files.readString(file, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new FioLogFormatException(file.toString(), "cannot read: " + e.getMessage(), e);
        }
        return parse(text, file.toString());
    }

    public static FioJsonReport parse(String text, String source) {
        int start = text.indexOf('{');
        if (start < 0) {
            throw new FioLogFormatException(source, 0, "no JSON object (was fio run with --output-format=json?)");
        }
        JsonNode root;
        try {
            root = new ObjectMapper().readTree(text.substring(start));
        } catch (IOException e) {
            throw new FioLogFormatException(source, "invalid JSON: " + e.getMessage(), e);
        }
        JsonNode jobsNode = root.get("jobs");
        if (jobsNode == null || !jobsNode.isArray()) {
            throw new FioLogFormatException(source, 0, "no 'jobs' array: not fio JSON output");
        }
        List<Job> jobs = new ArrayList<>();
        try {
            readJobs(jobsNode, jobs);
        } catch (NumberFormatException e) {
            throw new FioLogFormatException(source, "malformed percentile or bin key: " + e.getMessage(), e);
        }
        return new FioJsonReport(
                root.path("fio version").asText(), root.path("timestamp_ms").asLong(), jobs);
    }

    private static void readJobs(JsonNode jobsNode, List<Job> jobs) {
        for (JsonNode j : jobsNode) {
            jobs.add(new Job(
                    j.path("jobname").asText(),
                    j.path("groupid").asInt(),
                    j.path("error").asInt(),
                    j.path("job_runtime").asLong(),
                    direction(j.get("read")),
                    direction(j.get("write")),
                    direction(j.get("trim"))));
        }
    }

    private static Direction direction(JsonNode d) {
        if (d == null || d.isNull()) {
            return new Direction(0, 0, 0, 0, Latency.EMPTY, Latency.EMPTY, Latency.EMPTY);
        }
        return new Direction(
                d.path("total_ios").asLong(),
                d.path("io_bytes").asLong(),
                d.path("iops").asDouble(),
                d.path("runtime").asLong(),
                latency(d.get("clat_ns")),
                latency(d.get("lat_ns")),
                latency(d.get("slat_ns")));
    }

    private static Latency latency(JsonNode l) {
        if (l == null || l.isNull()) {
            return Latency.EMPTY;
        }
        Map<Double, Long> percentiles = new TreeMap<>();
        for (Iterator<Map.Entry<String, JsonNode>> it = l.path("percentile").fields(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> e = it.next();
            percentiles.put(Double.parseDouble(e.getKey()), e.getValue().asLong());
        }
        Map<Long, Long> bins = new TreeMap<>();
        for (Iterator<Map.Entry<String, JsonNode>> it = l.path("bins").fields(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> e = it.next();
            bins.put(Long.parseLong(e.getKey()), e.getValue().asLong());
        }
        return new Latency(
                l.path("min").asLong(),
                l.path("max").asLong(),
                l.path("mean").asDouble(),
                l.path("stddev").asDouble(),
                l.path("N").asLong(),
                Collections.unmodifiableMap(percentiles),
                Collections.unmodifiableMap(bins));
    }
}
