package dev.ssdpulse.streams.report.chart;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/** The charts drawn outside the browser keep the dashboard's colours: read from the dashboard's own files. */
class PaletteTest {
    private static String resource(String name) throws IOException {
        try (InputStream in = PaletteTest.class.getResourceAsStream("/dashboard/" + name)) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
    }

    private static List<String> colours(String text) {
        List<String> out = new ArrayList<>();
        Matcher m = Pattern.compile("#[0-9a-fA-F]{6}").matcher(text);
        while (m.find()) {
            out.add(m.group().toLowerCase());
        }
        return out;
    }

    private static String line(String js, String start) {
        return js.lines()
                .filter(l -> l.trim().startsWith(start))
                .findFirst()
                .orElseThrow(() -> new AssertionError("no line starting " + start));
    }

    @Test
    void opAndRunColoursAreTheDashboards() throws IOException {
        String app = resource("app.js");
        List<String> ops = colours(line(app, "var OP_COLORS"));
        assertThat(List.of(Palette.op("READ"), Palette.op("WRITE"), Palette.op("TRIM"), Palette.op("FLUSH")))
                .isEqualTo(ops);
        for (int ordinal = 0; ordinal < 4; ordinal++) {
            assertThat(Palette.op(ordinal)).isEqualTo(ops.get(ordinal));
        }
        assertThat(Palette.RUNS).isEqualTo(colours(line(app, "var RUN_COLORS")));
    }

    @Test
    void latencyWaBandMarkerAndThresholdColoursAreTheDashboards() throws IOException {
        String app = resource("app.js");
        assertThat(colours(line(app, "{ label: 'max'"))).containsExactly(Palette.LATENCY_MAX);
        assertThat(colours(line(app, "{ label: 'p99'"))).containsExactly(Palette.LATENCY_P99);
        assertThat(colours(line(app, "{ label: 'p50'"))).containsExactly(Palette.LATENCY_P50);
        assertThat(colours(line(app, "{ label: 'mean'"))).containsExactly(Palette.LATENCY_MEAN);
        assertThat(colours(line(app, "{ label: 'cumulative'"))).containsExactly(Palette.WA_CUMULATIVE);
        assertThat(colours(line(app, "{ label: 'per interval'"))).containsExactly(Palette.WA_INTERVAL);
        String charts = resource("charts.js");
        Pattern band = Pattern.compile("rgba\\((\\d+),(\\d+),(\\d+),(\\.\\d+)\\)");
        Matcher m = band.matcher(line(charts, "ctx.fillStyle = b.color"));
        assertThat(m.find()).isTrue();
        assertThat(String.format(
                        "#%02x%02x%02x",
                        Integer.parseInt(m.group(1)), Integer.parseInt(m.group(2)), Integer.parseInt(m.group(3))))
                .isEqualTo(Palette.STEADY);
        assertThat(Double.parseDouble(m.group(4))).isEqualTo(Palette.STEADY_OPACITY);
        assertThat(charts)
                .contains("ctx.strokeStyle = m.color || '" + Palette.PHASE + "'")
                .contains("ctx.fillStyle = m.color || '" + Palette.PHASE_TEXT + "'")
                .contains("ctx.fillStyle = '" + Palette.STEADY_TEXT + "'")
                .contains("ctx.strokeStyle = '" + Palette.THRESHOLD + "'")
                .contains("ctx.fillStyle = '" + Palette.THRESHOLD_TEXT + "'")
                .contains("ctx.strokeStyle = '" + Palette.GRID + "'")
                .contains("ctx.strokeStyle = '" + Palette.FRAME + "'");
    }
}
