package dev.ssdpulse.producer.trace;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.ssdpulse.schemas.iobatch.IoOpCode;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.zip.GZIPOutputStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class TraceReadersTest {
    @TempDir
    Path dir;

    /** A record as read: time, op, offset, size, line. */
    record Io(long timeNs, String op, long offset, long size, long line) {}

    private Path write(String name, String text) throws IOException {
        Path p = dir.resolve(name);
        Files.writeString(p, text, StandardCharsets.ISO_8859_1);
        return p;
    }

    private static List<Io> read(Path p, TraceFormat format) {
        List<Io> out = new ArrayList<>();
        Trace trace = Trace.scan(new TraceSource.File(p), format);
        try (TraceReader r = trace.open()) {
            TraceRecord rec = new TraceRecord();
            while (r.next(rec)) {
                out.add(new Io(rec.timeNs, IoOpCode.name(rec.op), rec.offsetBytes, rec.sizeBytes, rec.line));
            }
        }
        return out;
    }

    @Test
    void fioIologVersion3HasMicrosecondTimestampsSyncsAndTrimsAndSkipsFileActions() throws IOException {
        Path p = write("v3.iolog", """
                fio version 3 iolog
                0 /dev/nvme0n1 add
                3 /dev/nvme0n1 open
                10 /dev/nvme0n1 read 4096 8192
                25 /dev/nvme0n1 write 1048576 4096
                40 /dev/nvme0n1 trim 0 65536
                41 /dev/nvme0n1 sync 0 0
                42 /dev/nvme0n1 datasync 0 0
                50 /dev/nvme0n1 close
                """);
        assertThat(read(p, TraceFormat.AUTO))
                .containsExactly(
                        new Io(10_000, "READ", 4096, 8192, 4),
                        new Io(25_000, "WRITE", 1048576, 4096, 5),
                        new Io(40_000, "TRIM", 0, 65536, 6),
                        new Io(41_000, "FLUSH", 0, 0, 7),
                        new Io(42_000, "FLUSH", 0, 0, 8));
        assertThat(TraceReader.detect(new TraceSource.File(p))).isEqualTo(TraceFormat.FIO_IOLOG);
    }

    @Test
    void fioIologVersion2WaitsAdvanceTheClockInMicroseconds() throws IOException {
        Path p = write("v2.iolog", """
                fio version 2 iolog
                /dev/sdb add
                /dev/sdb open
                /dev/sdb read 0 4096
                /dev/sdb wait 1500 0
                /dev/sdb read 4096 4096
                /dev/sdb write 8192 4096
                /dev/sdb wait 500 0
                /dev/sdb read 0 4096
                /dev/sdb close
                """);
        assertThat(read(p, TraceFormat.FIO_IOLOG))
                .extracting(Io::timeNs)
                .containsExactly(0L, 1_500_000L, 1_500_000L, 2_000_000L);
    }

    @Test
    void blkparseDefaultOutputReplaysTheIssuedEventsAndStopsAtTheStatistics() throws IOException {
        Path p = write("trace.txt", """
                  8,0    3        1     0.000000000   697  Q   W 223490 + 8 [kjournald]
                  8,0    3        2     0.000002003   697  G   W 223490 + 8 [kjournald]
                  8,0    3        3     0.000004500   697  P   N [kjournald]
                  8,0    3        4     0.000006447   697  I   W 223490 + 8 [kjournald]
                  8,0    3        6     0.000016406   697  D   W 223490 + 8 [kjournald]
                  8,0    1        1     0.000232961     0  C   W 223490 + 8 [0]
                  8,0    3        7     0.001000000   697  Q  RA 1000 + 16 [cat]
                  8,0    3        8     0.001000100   697  D  RA 1000 + 16 [cat]
                  8,0    3        9     0.002000000   697  D   D 2048 + 2048 [fstrim]
                  8,0    3       10     0.003000000   697  D FWS [kworker/3:1]
                  8,0    3       11     0.003500000   697  D  FN [kworker/3:1]
                  8,0    3       12     0.004000000   697  A  WS 4096 + 8 <- (8,1) 2048
                  8,0    0        0     0.005000000     0  m   N cfq697 alloced
                CPU0 (sda):
                 Reads Queued:           1,        8KiB\t Writes Queued:           1,        4KiB
                Total (sda):
                """);
        assertThat(read(p, TraceFormat.AUTO))
                .containsExactly(
                        new Io(16_406, "WRITE", 223490L * 512, 4096, 5),
                        new Io(1_000_100, "READ", 512_000, 8192, 8),
                        new Io(2_000_000, "TRIM", 2048L * 512, 2048L * 512, 9),
                        new Io(3_000_000, "FLUSH", 0, 0, 10),
                        new Io(3_500_000, "FLUSH", 0, 0, 11));
        Trace t = Trace.scan(new TraceSource.File(p), TraceFormat.BLKPARSE);
        assertThat(t.action()).isEqualTo('D');
        assertThat(t.stats().ioCount()).isEqualTo(5);
    }

    @Test
    void blkparseWithQueueEventsOnlyReplaysThem() throws IOException {
        Path p = write("q.txt", """
                259,0    1        1     0.000100000  1234  Q  RS 8 + 8 [app]
                259,0    1        2     0.000200000  1234  Q  WS 64 + 16 [app]
                """);
        Trace t = Trace.scan(new TraceSource.File(p), TraceFormat.AUTO);
        assertThat(t.action()).isEqualTo('Q');
        assertThat(read(p, TraceFormat.AUTO))
                .containsExactly(new Io(100_000, "READ", 4096, 4096, 1), new Io(200_000, "WRITE", 32768, 8192, 2));
    }

    @Test
    void blkparseCustomFormatIsSecondsDotNanosRwbsSectorBlocks() throws IOException {
        // blkparse -a issue -f "%T.%t %d %S %n\n": %t is nanoseconds, zero-padded to 9 digits
        Path p = write("f.txt", """
                0.000001000 R 2048 8
                0.500000000 WS 4096 256
                1.000000000 D 0 2048
                1.250000000 FN 0 0
                """);
        assertThat(read(p, TraceFormat.AUTO))
                .containsExactly(
                        new Io(1_000, "READ", 2048L * 512, 4096, 1),
                        new Io(500_000_000, "WRITE", 4096L * 512, 256L * 512, 2),
                        new Io(1_000_000_000, "TRIM", 0, 2048L * 512, 3),
                        new Io(1_250_000_000, "FLUSH", 0, 0, 4));
    }

    @Test
    void msrCambridgeCsvHasWindowsFiletimesInHundredNanosecondTicks() throws IOException {
        Path p = write("hm_1.csv", """
                Timestamp,Hostname,DiskNumber,Type,Offset,Size,ResponseTime
                128166372003061629,hm,1,Read,3154152448,4096,15232
                128166372003071629,hm,1,Write,3154156544,65536,2000
                128166372013061629,hm,1,read,0,512,100
                """);
        assertThat(read(p, TraceFormat.AUTO))
                .containsExactly(
                        new Io(0, "READ", 3154152448L, 4096, 2),
                        new Io(1_000_000, "WRITE", 3154156544L, 65536, 3),
                        new Io(1_000_000_000, "READ", 0, 512, 4));
    }

    @Test
    void aGzippedTraceIsReadAsItsText() throws IOException {
        Path p = dir.resolve("t.iolog.gz");
        try (OutputStream out = new GZIPOutputStream(Files.newOutputStream(p))) {
            out.write("fio version 3 iolog\n7 /dev/x read 0 4096\n".getBytes(StandardCharsets.US_ASCII));
        }
        assertThat(read(p, TraceFormat.AUTO)).containsExactly(new Io(7_000, "READ", 0, 4096, 2));
    }

    @Test
    void aMalformedLineNamesTheFileTheLineAndWhatWasExpected() throws IOException {
        Path p = write("bad.iolog", "fio version 3 iolog\n10 /dev/x read 0 4096\n20 /dev/x read zero 4096\n");
        assertThatThrownBy(() -> Trace.scan(new TraceSource.File(p), TraceFormat.AUTO))
                .isInstanceOf(TraceFormatException.class)
                .hasMessage(p.toAbsolutePath().normalize() + ":3: expected a byte offset and a length as whole numbers"
                        + " after the action, found '20 /dev/x read zero 4096'")
                .satisfies(e -> assertThat(((TraceFormatException) e).line()).isEqualTo(3));
    }

    @Test
    void anUnknownActionOrFormatIsNamedWithItsLine() throws IOException {
        Path action = write("a.iolog", "fio version 3 iolog\n10 /dev/x scribble 0 4096\n");
        assertThatThrownBy(() -> Trace.scan(new TraceSource.File(action), TraceFormat.AUTO))
                .hasMessageContaining(":2: expected an action read, write, trim, sync or datasync (wait is not"
                        + " allowed in version 3), found '10 /dev/x scribble 0 4096'");
        Path unknown = write("u.txt", "\n# my trace\nR 0 4096\n");
        assertThatThrownBy(() -> Trace.scan(new TraceSource.File(unknown), TraceFormat.AUTO))
                .hasMessageStartingWith(
                        unknown.toAbsolutePath().normalize() + ":2: expected a trace line of a known" + " format")
                .hasMessageContaining("found '# my trace'");
        Path notIolog = write("n.iolog", "0.1 R 0 8\n");
        assertThatThrownBy(() -> Trace.scan(new TraceSource.File(notIolog), TraceFormat.FIO_IOLOG))
                .hasMessageContaining(":1: expected the header 'fio version 2 iolog' or 'fio version 3 iolog'");
        Path msr = write("m.csv", "128166372003061629,hm,1,Read,0,4096,1\n128166372003061630,hm,1,Erase,0,4096,1\n");
        assertThatThrownBy(() -> Trace.scan(new TraceSource.File(msr), TraceFormat.AUTO))
                .hasMessageContaining(":2: expected Type Read or Write in the 4th field");
        Path blk = write("b.txt", "  8,0    3        1     0.000000000   697  Q   X 1 + 8 [a]\n");
        assertThatThrownBy(() -> Trace.scan(new TraceSource.File(blk), TraceFormat.AUTO))
                .hasMessageContaining(":1: expected an RWBS field");
    }

    @Test
    void aTraceWithoutAnIoOrAMissingFileIsRefusedInOneLine() throws IOException {
        Path empty = write("e.iolog", "fio version 3 iolog\n0 /dev/x add\n");
        assertThatThrownBy(() -> Trace.scan(new TraceSource.File(empty), TraceFormat.AUTO))
                .hasMessageContaining("the trace has no I/O to replay");
        assertThatThrownBy(() -> Trace.scan(new TraceSource.File(dir.resolve("nope")), TraceFormat.AUTO))
                .hasMessage("cannot read trace: trace file " + dir.resolve("nope") + " does not exist");
    }

    @Test
    void theScanKnowsTheRangeAlignmentSizesAndDuration() throws IOException {
        Path p = write("s.iolog", """
                fio version 3 iolog
                100 /dev/x read 1048576 4096
                300 /dev/x write 2097152 131072
                200 /dev/x read 1049088 512
                900 /dev/x trim 0 8388608
                """);
        TraceStats s = Trace.scan(new TraceSource.File(p), TraceFormat.AUTO).stats();
        assertThat(s.ioCount()).isEqualTo(4);
        assertThat(s.ioCount(IoOpCode.READ)).isEqualTo(2);
        assertThat(s.bytes(IoOpCode.WRITE)).isEqualTo(131072);
        assertThat(s.minOffsetBytes()).isZero();
        assertThat(s.maxEndBytes()).isEqualTo(8388608);
        assertThat(s.maxTransferBytes()).isEqualTo(131072);
        assertThat(s.maxTrimBytes()).isEqualTo(8388608);
        assertThat(s.alignmentBytes()).isEqualTo(512);
        assertThat(s.firstLineNotAligned(4096)).isEqualTo(4);
        assertThat(s.firstLineNotAligned(512)).isZero();
        assertThat(s.firstTimeNs()).isEqualTo(100_000);
        assertThat(s.recordedDurationNs()).isEqualTo(800_000);
        assertThat(s.outOfOrderCount()).isEqualTo(1);
        assertThat(s.writesData()).isTrue();
    }
}
