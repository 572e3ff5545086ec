package dev.ssdpulse.streams.http;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.ssdpulse.schemas.avro.IoOp;
import dev.ssdpulse.schemas.avro.SteadyStateMethod;
import dev.ssdpulse.schemas.avro.SteadyStateVerdict;
import dev.ssdpulse.schemas.avro.WindowMetrics;
import dev.ssdpulse.streams.report.AvroJson;
import dev.ssdpulse.streams.report.Outliers;
import dev.ssdpulse.streams.report.ReportTables;
import org.junit.jupiter.api.Test;

class ApiJsonTest {
    @Test
    void capacityIsShownInDecimalAndBinaryUnits() {
        assertThat(ApiJson.capacityText(480_103_981_056L)).isEqualTo("480.10 GB (447.13 GiB)");
        assertThat(ApiJson.capacityText(1L << 30)).isEqualTo("1.07 GB (1.00 GiB)");
    }

    @Test
    void avroJsonKeepsSchemaNamesDropsBytesAndNullsNonFiniteNumbers() {
        SteadyStateVerdict v = SteadyStateVerdict.newBuilder()
                .setRunId("r")
                .setMethod(SteadyStateMethod.SNIA_PTS)
                .setOp(IoOp.WRITE)
                .setPhaseIndex(1)
                .setReached(false)
                .setFinalVerdict(false)
                .setDecidedAtNs(5)
                .setWindowStartNs(0)
                .setWindowEndNs(5)
                .setRoundsOrSamples(3)
                .setMean(Double.NaN)
                .setRange(Double.POSITIVE_INFINITY)
                .setSlope(0.5)
                .setLimit(0.2)
                .setCriteria("c")
                .setExplanation("e")
                .build();
        JsonNode n = AvroJson.record(v);
        assertThat(n.get("method").asText()).isEqualTo("SNIA_PTS");
        assertThat(n.get("mean").isNull()).isTrue();
        assertThat(n.get("range").isNull()).isTrue();
        assertThat(n.get("slope").asDouble()).isEqualTo(0.5);
        WindowMetrics w = TestRecords.window("r", IoOp.READ, 0, 0, 10, 2_000_000);
        JsonNode wn = AvroJson.record(w);
        assertThat(wn.get("latency").has("hdrHistogram")).isFalse();
        assertThat(wn.get("latency").get("binCounts")).hasSize(21);
    }

    @Test
    void aSeriesPointGivesLatencyInMillisecondsAndTimeInSeconds() {
        JsonNode p = ReportTables.POINT.json(TestRecords.window("r", IoOp.READ, 2, 3_000_000_000L, 100, 60_000_000L));
        assertThat(p.get("t").asDouble()).isEqualTo(3.0);
        assertThat(p.get("phase").asInt()).isEqualTo(2);
        assertThat(p.get("latencyMs").get("max").asDouble()).isEqualTo(60.0);
        assertThat(p.get("latencyMs").get("mean").asDouble()).isEqualTo(1.5);
    }

    @Test
    void latencyLabelsMatchTheSummaryJsonKeys() {
        assertThat(Outliers.label(10_000_000L)).isEqualTo("10ms");
        assertThat(Outliers.label(4_700_000_000L)).isEqualTo("4.7s");
        assertThat(Outliers.label(50_000L)).isEqualTo("50us");
    }
}
