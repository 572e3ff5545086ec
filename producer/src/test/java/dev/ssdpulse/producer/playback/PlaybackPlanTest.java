package dev.ssdpulse.producer.playback;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.ssdpulse.schemas.avro.IoBatch;
import dev.ssdpulse.schemas.avro.IoStreamRecord;
import dev.ssdpulse.schemas.avro.PhaseChanged;
import dev.ssdpulse.schemas.avro.PhaseKind;
import dev.ssdpulse.schemas.avro.RunFinished;
import dev.ssdpulse.schemas.avro.RunStatus;
import dev.ssdpulse.schemas.avro.SmartSample;
import dev.ssdpulse.schemas.avro.SmartSource;
import dev.ssdpulse.schemas.iobatch.IoBatchBuilder;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

class PlaybackPlanTest {
    private static final long S = 1_000_000_000L;

    @Test
    void ioKeepsItsOrderSmartSlotsInByTimeAndDueTimesNeverDecrease() {
        IoBatchBuilder b = new IoBatchBuilder("r", 0, 2);
        b.add(0, (byte) 0, 0, 4096, 1 * S, 100, 1, 0);
        IoBatch first = b.add(0, (byte) 0, 0, 4096, 2 * S, 500_000_000L, 1, 0); // completes at 2.5 s
        b.add(0, (byte) 1, 0, 4096, 4 * S, 100, 1, 0);
        IoBatch second = b.add(0, (byte) 1, 0, 4096, 3 * S, 100, 1, 0); // out of order inside: max 4 s + 100 ns
        IoStreamRecord phase = new IoStreamRecord(new PhaseChanged("r", 0, "test", PhaseKind.TEST, 0L));
        IoStreamRecord finished = new IoStreamRecord(RunFinished.newBuilder()
                .setRunId("r")
                .setStatus(RunStatus.COMPLETED)
                .setReason(null)
                .setTimeNs(3 * S)
                .setWallClockEpochMs(Instant.EPOCH)
                .setIoCount(4)
                .setIoCountPerWorker(List.of(4L))
                .setBatchCountPerWorker(List.of(2L))
                .setBytesRead(0)
                .setBytesWritten(0)
                .build());
        SmartSample early = smart(1 * S);
        SmartSample late = smart(9 * S);
        SmartSample mid = smart(3 * S);

        List<PlaybackPlan.Step> steps = PlaybackPlan.of(
                List.of(phase, new IoStreamRecord(first), new IoStreamRecord(second), finished),
                List.of(late, early, mid));

        assertThat(steps)
                .extracting(PlaybackPlan.Step::value)
                .containsExactly(
                        phase, early, new IoStreamRecord(first), mid, new IoStreamRecord(second), late, finished);
        assertThat(steps)
                .extracting(PlaybackPlan.Step::dueNs)
                .containsExactly(0L, 1 * S, 2_500_000_000L, 3 * S, 4 * S + 100, 9 * S, 9 * S);
    }

    @Test
    void speeds() {
        assertThat(PlaybackPlan.parseSpeed("10x")).isEqualTo(10.0);
        assertThat(PlaybackPlan.parseSpeed("0.5X")).isEqualTo(0.5);
        assertThat(PlaybackPlan.parseSpeed("3")).isEqualTo(3.0);
        assertThatThrownBy(() -> PlaybackPlan.parseSpeed("fast")).hasMessageContaining("like 10x");
        assertThatThrownBy(() -> PlaybackPlan.parseSpeed("0x")).hasMessageContaining("above 0");
        assertThatThrownBy(() -> PlaybackPlan.parseSpeed("-2x")).hasMessageContaining("above 0");
    }

    private static SmartSample smart(long t) {
        return SmartSample.newBuilder()
                .setRunId("r")
                .setTimeNs(t)
                .setSource(SmartSource.SIMULATOR)
                .setHostBytesWritten(1L)
                .setNandBytesWritten(2L)
                .build();
    }
}
