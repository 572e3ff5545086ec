package dev.ssdpulse.producer.trace;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ssdpulse.schemas.iobatch.IoOpCode;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/** The shipped traces are what bench/make-load-traces.sh makes, and read as traces of their documented shape. */
class ShippedTracesTest {
    private static final String DIR = "workloads/traces/";

    @Test
    void eachShippedTraceIsTheSynthesizersOutput() throws IOException {
        for (String name : LoadTraceSynthesizer.NAMES) {
            try (InputStream in = new TraceSource.Resource(DIR + name).open()) {
                String shipped = new String(in.readAllBytes(), StandardCharsets.US_ASCII);
                assertThat(shipped)
                        .as("%s differs from LoadTraceSynthesizer's output: run bench/make-load-traces.sh", name)
                        .isEqualTo(LoadTraceSynthesizer.text(name));
            }
        }
    }

    @Test
    void theAppLoadIsMostlySequentialReadsAndTheBootWritesAndFlushes() {
        TraceStats app = Trace.scan(new TraceSource.Resource(DIR + "app-load.iolog.gz"), TraceFormat.AUTO)
                .stats();
        assertThat(app.ioCount()).isEqualTo(4_530);
        assertThat(app.ioCount(IoOpCode.READ)).isEqualTo(4_520);
        assertThat(app.maxEndBytes()).isLessThanOrEqualTo(2L << 30);
        assertThat(app.alignmentBytes()).isGreaterThanOrEqualTo(4096);
        TraceStats boot = Trace.scan(new TraceSource.Resource(DIR + "boot.iolog.gz"), TraceFormat.AUTO)
                .stats();
        assertThat(boot.ioCount(IoOpCode.FLUSH)).isEqualTo(47);
        assertThat(boot.ioCount(IoOpCode.WRITE)).isEqualTo(1_286);
        assertThat(boot.maxEndBytes()).isLessThanOrEqualTo(4L << 30);
        assertThat(boot.recordedDurationNs()).isBetween(5_000_000_000L, 6_000_000_000L);
    }
}
