package dev.ssdpulse.producer.workload;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * A preset as listed by {@code ./ssdpulse workloads}.
 *
 * @param name        preset name ({@code WorkloadPresets.load(name)})
 * @param description one line
 * @param variables   the preset's {@code --set} variables and their defaults, in order of appearance
 */
public record PresetInfo(String name, String description, Map<String, String> variables) {
    public PresetInfo {
        variables = Collections.unmodifiableMap(new LinkedHashMap<>(variables));
    }
}
