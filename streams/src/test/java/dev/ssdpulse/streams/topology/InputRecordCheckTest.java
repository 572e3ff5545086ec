package dev.ssdpulse.streams.topology;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ssdpulse.schemas.avro.IoBatch;
import dev.ssdpulse.schemas.avro.IoStreamRecord;
import dev.ssdpulse.schemas.avro.RunHeartbeat;
import dev.ssdpulse.schemas.avro.RunStarted;
import dev.ssdpulse.schemas.iobatch.IoBatchBuilder;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Values the accumulators would throw on are caught before processing; real batches pass. */
class InputRecordCheckTest {

    private static IoBatch batch() {
        IoBatchBuilder b = new IoBatchBuilder("r", 0, 8);
        for (int i = 0; i < 3; i++) {
            b.add(0, (byte) 1, 4096L * i, 4096, 1_000L * i, 20_000L, 1, 0);
        }
        return b.flush();
    }

    @Test
    void aBuiltBatchAndOtherEventsPass() {
        assertThat(InputRecordCheck.problem(new IoStreamRecord(batch()))).isNull();
        assertThat(InputRecordCheck.problem(new IoStreamRecord(
                        new RunHeartbeat("r", 5L, Instant.ofEpochMilli(1L), 0L, 0L, 0L, null, null))))
                .isNull();
        assertThat(InputRecordCheck.problem("anything else")).isNull();
    }

    @Test
    void negativeLatencyOrSizeIsRefusedNamingTheIo() {
        IoBatch b = batch();
        b.setLatencyNs(new ArrayList<>(List.of(1L, -1L, 1L)));
        assertThat(InputRecordCheck.problem(new IoStreamRecord(b)))
                .contains("I/O #1")
                .contains("latencyNs -1");
        IoBatch s = batch();
        s.setSizeBytes(new ArrayList<>(List.of(4096, 4096, -4096)));
        assertThat(InputRecordCheck.problem(new IoStreamRecord(s)))
                .contains("I/O #2")
                .contains("sizeBytes");
    }

    @Test
    void columnsThatDisagreeWithIoCountAreRefused() {
        IoBatch b = batch();
        b.setQueueDepth(new ArrayList<>(List.of(1)));
        assertThat(InputRecordCheck.problem(new IoStreamRecord(b))).contains("queueDepth");
        IoBatch n = batch();
        n.setIoCount(-1);
        assertThat(InputRecordCheck.problem(new IoStreamRecord(n))).contains("negative");
    }

    @Test
    void timesThatWouldOverflowAreRefusedIncludingLongMinValue() {
        IoBatch base = batch();
        base.setBaseSubmitTimeNs(Long.MIN_VALUE);
        assertThat(InputRecordCheck.problem(new IoStreamRecord(base))).contains("baseSubmitTimeNs");
        IoBatch delta = batch();
        delta.setSubmitTimeDeltaNs(new ArrayList<>(List.of(0L, Long.MIN_VALUE, 0L)));
        assertThat(InputRecordCheck.problem(new IoStreamRecord(delta))).contains("submitTimeDeltaNs");
        IoBatch drift = batch();
        long step = InputRecordCheck.MAX_ABS_TIME_NS / 2;
        drift.setSubmitTimeDeltaNs(new ArrayList<>(List.of(step, step, step)));
        assertThat(InputRecordCheck.problem(new IoStreamRecord(drift)))
                .contains("I/O #1")
                .contains("out of range");
        IoBatch latency = batch();
        latency.setLatencyNs(new ArrayList<>(List.of(1L, Long.MAX_VALUE, 1L)));
        assertThat(InputRecordCheck.problem(new IoStreamRecord(latency))).contains("I/O #1");
    }

    @Test
    void aRunStartedWithoutAnyStartTimeIsRefusedAndOneWithEitherPasses() {
        RunStarted started = TestRuns.runStarted("r");
        started.setWallClockStart(null);
        started.setWallClockStartEpochNs(null);
        assertThat(InputRecordCheck.problem(started)).contains("RunStarted run r has no start time");
        started.setWallClockStartEpochNs(1_700_000_000_123_456_789L);
        assertThat(InputRecordCheck.problem(started))
                .as("a run recorded before wallClockStart")
                .isNull();
        started.setWallClockStartEpochNs(null);
        started.setWallClockStart(Instant.ofEpochSecond(1_700_000_000L));
        assertThat(InputRecordCheck.problem(started)).isNull();
    }
}
