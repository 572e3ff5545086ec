package dev.ssdpulse.producer.fio;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class FioLatencyLogParserTest {
    record Io(long timeMs, long latencyNs, byte op, int sizeBytes, long offsetBytes, int prio) {}

    private static List<Io> parse(String text) throws IOException {
        List<Io> out = new ArrayList<>();
        long n = new FioLatencyLogParser()
                .parse(
                        new ByteArrayInputStream(text.getBytes(StandardCharsets.UTF_8)),
                        "t_clat.1.log",
                        (t, l, op, bs, off, prio) -> out.add(new Io(t, l, op, bs, off, prio)));
        assertThat(n).isEqualTo(out.size());
        return out;
    }

    private static FioLogFormatException error(String text) {
        return catchThrowableOfType(FioLogFormatException.class, () -> parse(text));
    }

    @Test
    void sixColumnsWithDecimalOrHexPriority() throws IOException {
        assertThat(parse("0, 318804, 0, 4096, 503808, 0\n12, 151612, 1, 65536, 6209536, 1\n"))
                .containsExactly(
                        new Io(0, 318804, (byte) 0, 4096, 503808, 0), new Io(12, 151612, (byte) 1, 65536, 6209536, 1));
        assertThat(parse("3, 247997, 2, 4096, 503808, 0x2004\r\n"))
                .containsExactly(new Io(3, 247997, (byte) 2, 4096, 503808, 0x2004));
    }

    @Test
    void fiveColumnsAreOffsetWithoutPriorityAndTrailingBlankLinesAreFine() throws IOException {
        assertThat(parse("1700000000123, 99, 1, 512, 0\n\n  \n"))
                .containsExactly(new Io(1_700_000_000_123L, 99, (byte) 1, 512, 0, -1));
        assertThat(parse("")).isEmpty();
        assertThat(parse("5, 6, 0, 4096, 8192")).hasSize(1); // no final newline
    }

    @Test
    void errorsNameFileLineAndText() {
        assertThat(error("0, 1, 0, 4096, 0, 0\n0, x1, 0, 4096, 0, 0\n"))
                .hasMessage(
                        "t_clat.1.log:2: column 2 (latency ns) is not a non-negative whole number: '0, x1, 0, 4096, "
                                + "0, 0'")
                .extracting(FioLogFormatException::lineNumber)
                .isEqualTo(2L);
        assertThat(error("0, 1, 3, 4096, 0, 0\n"))
                .hasMessage(
                        "t_clat.1.log:1: data direction 3 is not 0 (read), 1 (write) or 2 (trim): '0, 1, 3, 4096, 0,"
                                + " 0'");
        assertThat(error("1000, 250, 0, 0, 0, 0\n"))
                .hasMessageContaining("block size 0: a windowed log (log_avg_msec)");
        assertThat(error("0, 1, 0, 4096\n")).hasMessageContaining("t_clat.1.log:1: 4 columns, expected 5 or 6");
        assertThat(error("0, 1, 0, 4096, 0, 0\n0, 1, 0, 4096, 0\n"))
                .hasMessageContaining(":2: 5 columns where earlier lines have 6");
        assertThat(error("0, 1, 0, 4096, 0, 0\n\n0, 1, 0, 4096, 0, 0\n"))
                .hasMessage("t_clat.1.log:2: blank line inside the log (only trailing blank lines are allowed)");
        assertThat(error("0, 1, 0, 4096, 0, 0, 7\n")).hasMessageContaining("more than 6 columns");
        assertThat(error("0; 1, 0, 4096, 0, 0\n")).hasMessageContaining("unexpected character ';' after column 1");
        assertThat(error("0, -1, 0, 4096, 0, 0\n"))
                .hasMessageContaining("column 2 (latency ns) is not a non-negative whole number");
        assertThat(error("0, 1234567890123456789, 0, 4096, 0, 0\n")).hasMessageContaining("too many digits");
        assertThat(error("x".repeat(5000) + "\n")).hasMessageContaining("line longer than 4096 bytes");
        assertThat(error("\u0000\u0001, 1\n")).hasMessageContaining("'\\x00\\x01, 1'");
    }

    @Test
    void logTypeFromTheFileName() {
        assertThat(FioLogType.fromFileName(Path.of("/x/run_clat.1.log"))).isEqualTo(FioLogType.CLAT);
        assertThat(FioLogType.fromFileName(Path.of("run_lat.12.log"))).isEqualTo(FioLogType.LAT);
        assertThat(FioLogType.fromFileName(Path.of("my_flat_slat.1.log"))).isEqualTo(FioLogType.SLAT);
        assertThat(FioLogType.fromFileName(Path.of("run_clat.log"))).isEqualTo(FioLogType.CLAT);
        assertThat(FioLogType.SLAT.isIoLatency()).isFalse();
        assertThat(FioLogType.LAT.isIoLatency()).isTrue();
        assertThat(catchThrowableOfType(
                        FioLogFormatException.class, () -> FioLogType.fromFileName(Path.of("run_bw.1.log"))))
                .hasMessageContaining("run_bw.1.log: not a fio latency log name");
    }
}
