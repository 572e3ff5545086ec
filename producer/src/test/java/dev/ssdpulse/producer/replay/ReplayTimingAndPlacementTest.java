package dev.ssdpulse.producer.replay;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.ssdpulse.producer.io.IoRequest;
import dev.ssdpulse.producer.trace.TraceFormat;
import dev.ssdpulse.producer.trace.TraceSource;
import dev.ssdpulse.producer.workload.Amount;
import dev.ssdpulse.producer.workload.PhaseKind;
import dev.ssdpulse.producer.workload.PhaseSpec;
import dev.ssdpulse.producer.workload.ReplaySpec;
import dev.ssdpulse.producer.workload.Span;
import dev.ssdpulse.producer.workload.WorkloadSpec;
import dev.ssdpulse.schemas.iobatch.IoOpCode;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalLong;
import org.assertj.core.data.Percentage;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ReplayTimingAndPlacementTest {
    private static final long MIB = 1 << 20;

    @TempDir
    Path dir;

    /** Three reads recorded at 10, 30 and 20 ms (the last out of order), from 64 MiB + 4 KiB, and a flush. */
    private Path trace() throws IOException {
        Path p = dir.resolve("t.iolog");
        Files.writeString(p, """
                fio version 3 iolog
                10000 /dev/x read 67112960 4096
                30000 /dev/x write 68157440 65536
                20000 /dev/x read 67108864 4096
                25000 /dev/x sync 0 0
                """);
        return p;
    }

    private WorkloadSpec workload(ReplaySpec.Timing timing, double scale, ReplaySpec.Remap remap, Span span)
            throws IOException {
        ReplaySpec r = new ReplaySpec(new TraceSource.File(trace()), TraceFormat.AUTO, timing, scale, remap);
        PhaseSpec phase = PhaseSpec.builder("load", PhaseKind.REPLAY)
                .queueDepth(4)
                .span(span)
                .replay(r)
                .build();
        return new WorkloadSpec("w", "", 1, OptionalLong.empty(), List.of(phase));
    }

    private static List<IoRequest> drain(ReplayGenerator g) {
        List<IoRequest> out = new ArrayList<>();
        IoRequest r = new IoRequest();
        while (g.next(r)) {
            IoRequest copy = new IoRequest();
            copy.setDue(r.op, r.offsetBytes, r.sizeBytes, r.dueNs);
            out.add(copy);
        }
        return out;
    }

    @Test
    void recordedTimingIsRelativeToTheFirstIoScaledLikeFiosReplayTimeScaleAndNeverGoesBack() throws IOException {
        WorkloadSpec w = workload(ReplaySpec.Timing.RECORDED, 2.0, ReplaySpec.Remap.SHIFT, Span.whole());
        ReplayTraces traces = ReplayTraces.scan(w);
        List<IoRequest> ios = drain(traces.generator(w.schedule().get(0), 1L << 30));
        // recorded at 10, 30, 20, 25 ms; relative to the first: 0, 20, 10, 15; twice the rate: 0, 10, 5, 7.5 ms;
        // file order is kept, so the 3rd and 4th are due with the 2nd
        assertThat(ios).extracting(r -> r.dueNs).containsExactly(0L, 10_000_000L, 10_000_000L, 10_000_000L);
        assertThat(ios)
                .extracting(r -> r.op)
                .containsExactly(IoOpCode.READ, IoOpCode.WRITE, IoOpCode.READ, IoOpCode.FLUSH);
    }

    @Test
    void fastTimingLeavesRequestsUnscheduledInRecordedOrder() throws IOException {
        WorkloadSpec w = workload(ReplaySpec.Timing.FAST, 1.0, ReplaySpec.Remap.SHIFT, Span.whole());
        ReplayGenerator g = ReplayTraces.scan(w).generator(w.schedule().get(0), 1L << 30);
        List<IoRequest> ios = drain(g);
        assertThat(ios).extracting(r -> r.dueNs).containsOnly(IoRequest.UNSCHEDULED);
        assertThat(ios).extracting(r -> r.sizeBytes).containsExactly(4096, 65536, 4096, 0);
        ReplayResult result = g.result();
        assertThat(result.recordedTiming()).isFalse();
        assertThat(result.issuedIoCount()).isEqualTo(4);
        assertThat(result.lateIssueCount()).isZero();
    }

    @Test
    void shiftMovesTheTracesLowestMibToTheSpanStartKeepingDistances() throws IOException {
        Span span = new Span(Amount.ofBytes(8 * MIB), Amount.ofBytes(16 * MIB));
        WorkloadSpec w = workload(ReplaySpec.Timing.FAST, 1.0, ReplaySpec.Remap.SHIFT, span);
        List<IoRequest> ios = drain(ReplayTraces.scan(w).generator(w.schedule().get(0), 1L << 30));
        // the trace's lowest offset 64 MiB goes to the span start, 8 MiB; a flush has no offset
        assertThat(ios).extracting(r -> r.offsetBytes).containsExactly(8 * MIB + 4096, 9 * MIB, 8 * MIB, 0L);
    }

    @Test
    void aTraceLargerThanTheSpanIsRefusedWithBothSizesUnlessWrapped() throws IOException {
        Span small = new Span(Amount.ofBytes(0), Amount.ofBytes(MIB));
        WorkloadSpec shifted = workload(ReplaySpec.Timing.FAST, 1.0, ReplaySpec.Remap.SHIFT, small);
        ReplayTraces traces = ReplayTraces.scan(shifted);
        assertThatThrownBy(() -> traces.checkTarget(shifted, 1L << 30, 1, "the drive"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("phase 'load': trace ")
                .hasMessageContaining("addresses 1114112 B")
                .hasMessageContaining("but the span is 1048576 B")
                .hasMessageContaining("remap: wrap");
        WorkloadSpec none = workload(ReplaySpec.Timing.FAST, 1.0, ReplaySpec.Remap.NONE, Span.whole());
        assertThatThrownBy(() -> ReplayTraces.scan(none).checkTarget(none, 64 * MIB, 1, "the drive"))
                .hasMessageContaining("addresses up to 68222976 B")
                .hasMessageContaining("(offsets as recorded, remap: none) but the span is 67108864 B");
        WorkloadSpec wrapped = workload(ReplaySpec.Timing.FAST, 1.0, ReplaySpec.Remap.WRAP, small);
        List<IoRequest> ios =
                drain(ReplayTraces.scan(wrapped).generator(wrapped.schedule().get(0), 1L << 30));
        // relative offsets 4 KiB, 1 MiB, 0 folded modulo 1 MiB
        assertThat(ios).extracting(r -> r.offsetBytes).containsExactly(4096L, 0L, 0L, 0L);
    }

    @Test
    void aTraceNotAlignedToTheEnginesBlockIsRefusedNamingItsFirstLine() throws IOException {
        Path p = dir.resolve("u.iolog");
        Files.writeString(p, "fio version 3 iolog\n0 /dev/x read 0 4096\n5 /dev/x read 512 512\n");
        ReplaySpec r = new ReplaySpec(
                new TraceSource.File(p), TraceFormat.AUTO, ReplaySpec.Timing.FAST, 1, ReplaySpec.Remap.SHIFT);
        WorkloadSpec w = new WorkloadSpec(
                "w",
                "",
                1,
                OptionalLong.empty(),
                List.of(PhaseSpec.builder("load", PhaseKind.REPLAY).replay(r).build()));
        ReplayTraces traces = ReplayTraces.scan(w);
        traces.checkTarget(w, 1L << 30, 512, "engine libaio");
        assertThatThrownBy(() -> traces.checkTarget(w, 1L << 30, 4096, "engine libaio"))
                .hasMessageContaining("has I/Os aligned to 512 B (the first at line 3); engine libaio needs offsets and"
                        + " sizes in multiples of 4096 B (O_DIRECT)");
    }

    @Test
    void issueLagsAboveTheThresholdAreLateAndPercentilesAreWithinTheirBucket() {
        IssueLag lag = new IssueLag(1_000_000);
        for (int i = 0; i < 98; i++) {
            lag.record(20_000); // 20 us: on time
        }
        lag.record(5_000_000);
        lag.record(-5); // early counts as on time, lag 0
        assertThat(lag.count()).isEqualTo(100);
        assertThat(lag.lateCount()).isEqualTo(1);
        assertThat(lag.maxNs()).isEqualTo(5_000_000);
        assertThat((double) lag.percentileNs(50)).isCloseTo(20_000, Percentage.withPercentage(3.2));
        assertThat((double) lag.percentileNs(99.5)).isCloseTo(5_000_000, Percentage.withPercentage(3.2));
        assertThat(lag.percentileNs(0.5)).isZero();
        for (long v : new long[] {0, 63, 64, 65, 1000, 123_456_789, Long.MAX_VALUE / 3}) {
            long mid = IssueLag.valueOf(IssueLag.index(v));
            assertThat(Math.abs(mid - v)).as("bucket of %d", v).isLessThanOrEqualTo(Math.max(0, v / 32));
        }
    }

    @Test
    void theGeneratorCountsTheLateIssuesItIsToldOf() throws IOException {
        WorkloadSpec w = workload(ReplaySpec.Timing.RECORDED, 1.0, ReplaySpec.Remap.SHIFT, Span.whole());
        ReplayGenerator g = ReplayTraces.scan(w).generator(w.schedule().get(0), 1L << 30);
        IoRequest r = new IoRequest();
        long[] lags = {0, 2_000_000, 999_999, 1_000_001};
        for (long l : lags) {
            assertThat(g.next(r)).isTrue();
            g.issued(l);
        }
        assertThat(g.next(r)).isFalse();
        ReplayResult result = g.result();
        assertThat(result.traceIoCount()).isEqualTo(4);
        assertThat(result.issuedIoCount()).isEqualTo(4);
        assertThat(result.lateIssueCount()).isEqualTo(2);
        assertThat(result.lateThresholdNs()).isEqualTo(ReplayGenerator.LATE_THRESHOLD_NS);
        assertThat(result.issueLagMaxNs()).isEqualTo(2_000_000);
    }
}
