package dev.ssdpulse.producer.sim;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.ssdpulse.producer.sim.config.SsdPresets;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Issue 13 item 8: every number of every built-in preset says where it comes from (ssd-presets/SOURCES.md). */
class SsdPresetsSourcesTest {

    @Test
    void everyPresetFieldHasASourceLine() throws IOException {
        String sources = resource("ssd-presets/SOURCES.md");
        ObjectMapper mapper = new ObjectMapper();
        for (String name : SsdPresets.BUILT_IN) {
            int start = sources.indexOf("\n## " + name + "\n");
            assertThat(start).as("section for " + name).isPositive();
            int end = sources.indexOf("\n## ", start + 4);
            String section = sources.substring(start, end < 0 ? sources.length() : end);
            JsonNode preset = mapper.readTree(resource("ssd-presets/" + name + ".json"));
            assertThat(preset.get("description").asText())
                    .as(name + " description")
                    .contains("SOURCES.md");
            List<String> missing = new ArrayList<>();
            for (String field : leafFields(preset)) {
                if (!section.contains("`" + field + "`")) {
                    missing.add(field);
                }
            }
            assertThat(missing)
                    .as("fields of " + name + " without a source line")
                    .isEmpty();
        }
    }

    /**
     * At most three numbers across the seed-000 presets (the SandForce drive of exp. 1 and 2, the
     * Marvell drive of exp. 3) are fitted; every other is cited, derived or assumed with its reason.
     */
    @Test
    void theSeed000PresetsHaveAtMostThreeFittedNumbers() throws IOException {
        String sources = resource("ssd-presets/SOURCES.md");
        int fitted = 0;
        for (String name : List.of("sata-mlc-120gb-2012", "sata-mlc-128gb-2012-marvell")) {
            int start = sources.indexOf("\n## " + name + "\n");
            int end = sources.indexOf("\n## ", start + 4);
            String section = sources.substring(start, end < 0 ? sources.length() : end);
            for (String line : section.split("\n- ")) {
                if (line.contains("**fitted**")) {
                    fitted++;
                }
            }
        }
        assertThat(fitted).as("fitted numbers across the seed-000 presets").isBetween(1, 3);
    }

    private static List<String> leafFields(JsonNode root) {
        List<String> out = new ArrayList<>();
        for (Iterator<Map.Entry<String, JsonNode>> it = root.fields(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> e = it.next();
            if (e.getValue().isObject()) {
                e.getValue().fieldNames().forEachRemaining(f -> out.add(e.getKey() + "." + f));
            }
        }
        return out;
    }

    private static String resource(String path) throws IOException {
        try (InputStream in = SsdPresetsSourcesTest.class.getClassLoader().getResourceAsStream(path)) {
            assertThat(in).as(path).isNotNull();
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
    }
}
