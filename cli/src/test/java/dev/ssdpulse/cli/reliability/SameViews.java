package dev.ssdpulse.cli.reliability;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicReference;

/**
 * Two analytics instances (different application ids) agree on one run: summary, full per-window series,
 * steady-state verdicts and WA intervals, as JSON from their HTTP APIs.
 */
final class SameViews {
    static final List<String> VIEWS = List.of("summary", "series", "steady-state", "wa");

    private SameViews() {}

    /**
     * Waits until both have the run's summary and every view is equal (a summary's WA may still move with a
     * SMART sample processed after RunFinished, so equality is awaited, not sampled once); on timeout the
     * assertion shows the first differing view.
     */
    static JsonNode assertSame(String runId, ApiClient expected, ApiClient actual, Duration timeout) {
        AtomicReference<JsonNode> summary = new AtomicReference<>();
        await("the same views of run " + runId + " on " + actual.baseUrl() + " and " + expected.baseUrl())
                .atMost(timeout)
                .pollInterval(Duration.ofMillis(500))
                .untilAsserted(() -> {
                    Map<String, Optional<JsonNode>> a = views(expected, runId);
                    Map<String, Optional<JsonNode>> b = views(actual, runId);
                    assertThat(a.get("summary"))
                            .as("summary of run " + runId + " on the reference")
                            .isPresent();
                    for (String view : VIEWS) {
                        assertThat(b.get(view))
                                .as(view + " of run " + runId + " (" + actual.baseUrl() + " vs reference "
                                        + expected.baseUrl() + ")")
                                .isEqualTo(a.get(view));
                    }
                    summary.set(a.get("summary").get());
                });
        return summary.get();
    }

    private static Map<String, Optional<JsonNode>> views(ApiClient api, String runId) {
        Map<String, Optional<JsonNode>> out = new LinkedHashMap<>();
        for (String view : VIEWS) {
            Optional<JsonNode> v;
            try {
                v = api.json("/api/runs/" + runId + "/" + view);
            } catch (RuntimeException e) {
                v = Optional.empty();
            }
            out.put(view, v);
        }
        return out;
    }
}
