package dev.ssdpulse.producer.smart;

import java.util.List;
import java.util.Map;

/**
 * What one tool's output gave: the counters that matter for write amplification, the drive as the output names
 * it (model, family), a wear counter, and every scalar field as printed.
 */
record ToolReading(String drive, List<SmartCounter> counters, Long eraseCount, Map<String, String> raw) {
    ToolReading {
        counters = List.copyOf(counters);
        raw = Map.copyOf(raw);
    }
}
