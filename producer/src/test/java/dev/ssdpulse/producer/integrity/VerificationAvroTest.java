package dev.ssdpulse.producer.integrity;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ssdpulse.schemas.avro.RunStatus;
import dev.ssdpulse.schemas.avro.VerifiedUnitClass;
import dev.ssdpulse.schemas.avro.WriteDurabilityModel;
import dev.ssdpulse.schemas.avro.WriteVerification;
import java.io.IOException;
import java.time.Instant;
import org.junit.jupiter.api.Test;

class VerificationAvroTest {
    @Test
    void theRecordCarriesTheReportAndWhatTheVerifierKnowsBesides() throws IOException {
        VerificationTest.Log log = new VerificationTest.Log()
                .write(0, 1, 1, 0, 10)
                .write(1, 2, 1, 0, 10)
                .flush(20, 30)
                .write(2, 3, 1, 40, 50);
        VerificationTest.Target target =
                new VerificationTest.Target().holds(1, 0).holds(3, 2);
        VerificationReport report =
                Verification.verify(new Verification.Options(0x5EED, false, Verification.Listener.NONE), log, target);
        WriteVerification v = VerificationAvro.of(
                report,
                new VerificationAvro.Context(
                        "r",
                        Instant.ofEpochMilli(7),
                        "/dev/x",
                        1L << 30,
                        "1.0",
                        RunStatus.FAILED,
                        false,
                        2,
                        5L,
                        6L,
                        null,
                        null,
                        "no OCP log",
                        3L << 12,
                        1_000_000L));
        assertThat(v.getUnitsChecked()).isEqualTo(3);
        assertThat(v.getClasses().getIntact()).isEqualTo(2);
        assertThat(v.getClasses().getLost()).isEqualTo(1);
        assertThat(v.getModels())
                .extracting(m -> m.getModel(), m -> m.getLostUnits())
                .containsExactly(
                        org.assertj.core.groups.Tuple.tuple(WriteDurabilityModel.ACKNOWLEDGED, 1L),
                        org.assertj.core.groups.Tuple.tuple(WriteDurabilityModel.FLUSHED, 1L),
                        org.assertj.core.groups.Tuple.tuple(WriteDurabilityModel.FUA, 0L));
        assertThat(v.getCoverage().getLastFlushSubmitNs()).isEqualTo(20_000L);
        assertThat(v.getCoverage().getMissingBatches()).isEqualTo(2);
        // the open last bucket has no bound
        assertThat(v.getLostAgeCounts()).hasSize(v.getLostAgeBoundsNs().size() + 1);
        assertThat(v.getWorstCases()).singleElement().satisfies(w -> {
            assertThat(w.getLba()).isEqualTo(2);
            assertThat(w.getFound()).isEqualTo(VerifiedUnitClass.LOST);
            assertThat(w.getFlushed()).isTrue();
        });
        assertThat(v.getPowerCounters().getUnsafeShutdownsAfter()).isEqualTo(6L);
        assertThat(v.getRunStatus()).isEqualTo(RunStatus.FAILED);
        assertThat(v.getReadBytes()).isEqualTo(3L << 12);
    }
}
