package dev.ssdpulse.cli.run;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ssdpulse.schemas.avro.PhaseKind;
import dev.ssdpulse.schemas.avro.RunStatus;
import dev.ssdpulse.schemas.avro.RunSummary;
import dev.ssdpulse.schemas.avro.SmartSample;
import dev.ssdpulse.schemas.avro.SmartSource;
import dev.ssdpulse.streams.analysis.AnalysisSettings;
import dev.ssdpulse.streams.offline.OfflineRunAnalysis;
import java.io.PrintWriter;
import java.io.StringWriter;
import org.junit.jupiter.api.Test;

/**
 * The text summary's WA: the range a drive's quantised counters allow, "not yet resolvable" while it is wider than
 * 5 %, and the counters in their own unit, from summaries the analysis core made of SMART samples.
 */
class SummaryRendererTest {
    private static final long S = 1_000_000_000L;
    private static final long MIB_32 = 32L << 20;
    private static final long GIB = 1L << 30;

    /**
     * An 8-s TEST phase whose drive counts host writes in {@code hostStep} and NAND writes in {@code nandStep} (in
     * {@code unit}), sampled each second from lifetime readings (whole steps, as a drive shows them), the host side
     * advancing {@code hostPerS} and the NAND side {@code nandPerS} a second.
     */
    private static RunSummary run(String unit, long hostStep, long nandStep, long hostPerS, long nandPerS) {
        OfflineRunAnalysis analysis = new OfflineRunAnalysis("r", AnalysisSettings.defaults(), false);
        analysis.phaseStarted(0, "test", PhaseKind.TEST, 0);
        long hostOrigin = 220_000 * hostStep;
        long nandOrigin = 330_000 * nandStep;
        for (int s = 0; s <= 8; s++) {
            analysis.smart(SmartSample.newBuilder()
                    .setRunId("r")
                    .setTimeNs(s * S)
                    .setSource(SmartSource.SMARTCTL)
                    .setWaUnit(unit)
                    .setWaHostWrites(hostOrigin + s * hostPerS / hostStep * hostStep)
                    .setWaHostResolution(hostStep)
                    .setWaNandWrites(nandOrigin + s * nandPerS / nandStep * nandStep)
                    .setWaNandResolution(nandStep)
                    .build());
            if (s < 8) {
                analysis.io(1, 0, s * S + 1_000, 100_000, 4096, 0);
            }
        }
        return analysis.finish(RunStatus.COMPLETED, null, 8 * S, 8, 0);
    }

    private static String text(RunSummary summary) {
        StringWriter out = new StringWriter();
        SummaryRenderer.text(summary, null, new PrintWriter(out));
        return out.toString();
    }

    private static String waLine(String text) {
        return text.lines().filter(l -> l.startsWith("  WA ")).findFirst().orElseThrow();
    }

    @Test
    void aResolvedWaIsWrittenWithItsRangeAndItsCounters() {
        // 4 GiB from the host, 6 GiB to NAND, both in 32-MiB steps: 1.48 to 1.52, within 5 % of 1.50
        String text = text(run("B", MIB_32, MIB_32, 16 * MIB_32, 24 * MIB_32));
        assertThat(waLine(text))
                .isEqualTo(
                        "  WA       : 1.50 (1.48 to 1.52, resolved; NAND 6.44 GB (6.00 GiB) / host 4.29 GB (4.00 GiB)"
                                + " since the first SMART sample, host counter step 32 MiB, NAND 32 MiB; source SMARTCTL)");
        assertThat(text).contains("phase 0 'test' (TEST), 0.0..7.0 s, WA 1.50 (1.48-1.52)");
    }

    @Test
    void aWaWiderThanFivePercentIsNotYetResolvable() {
        // the same writes with NAND counted in GiB: 5 to 7 GiB over 4 GiB
        String text = text(run("B", MIB_32, GIB, 16 * MIB_32, 6 * GIB / 8));
        assertThat(waLine(text))
                .isEqualTo("  WA       : not yet resolvable (1.24 to 1.76; NAND 6.44 GB (6.00 GiB) / host 4.29 GB (4.00"
                        + " GiB) since the first SMART sample, host counter step 32 MiB, NAND 1 GiB; source"
                        + " SMARTCTL)");
        assertThat(text).contains(", WA not yet resolvable (1.24-1.76)");
    }

    @Test
    void countersInNandPagesAreWrittenAsPagesNotBytes() {
        // Crucial/Micron: host program pages (247) against host + background program pages (247 + 248)
        String text = text(run("NAND page", 1, 2, 125_000, 181_250));
        assertThat(waLine(text))
                .isEqualTo(
                        "  WA       : 1.45 (NAND 1,450,000 / host 1,000,000 in NAND pages since the first SMART sample,"
                                + " host counter step 1 NAND page, NAND 2 NAND pages; source SMARTCTL)")
                .doesNotContain("GB", "GiB", "bytes");
    }
}
