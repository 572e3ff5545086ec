package dev.ssdpulse.producer.fio;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.Tuple;

/**
 * Garbage in: either lines are accepted or a FioLogFormatException names the line; never anything else. Well-
 * formed lines with any numbers are parsed exactly, or refused at the first line breaking a documented limit.
 */
class FioLogGarbagePropertyTest {
    private final FioLatencyLogParser parser = new FioLatencyLogParser();

    @Property(tries = 2000)
    void randomBytesGiveOnlyFormatErrors(@ForAll byte[] bytes) {
        check(bytes);
    }

    @Property(tries = 2000)
    void logLikeTextGivesOnlyFormatErrors(@ForAll("logLike") String text) {
        check(text.getBytes(StandardCharsets.UTF_8));
    }

    @Provide
    Arbitrary<String> logLike() {
        // digits, separators, signs, hex prefixes and newlines: mostly near-valid lines, the parser's hard cases
        return Arbitraries.strings()
                .withChars("0123456789, \t\r\nx-+.abcdefABCDEFX")
                .ofMaxLength(300);
    }

    /** One line's columns: time ms, latency ns, ddir, block size, offset, priority. */
    record Line(long timeMs, long latencyNs, long ddir, long sizeBytes, long offsetBytes, long prio) {
        String render(boolean six, String sep) {
            return timeMs
                    + sep
                    + latencyNs
                    + sep
                    + ddir
                    + sep
                    + sizeBytes
                    + sep
                    + offsetBytes
                    + (six ? sep + prio : "");
        }

        boolean acceptable(boolean six) {
            return timeMs <= FioLatencyLogParser.MAX_TIME_MS
                    && ddir <= 2
                    && sizeBytes > 0
                    && sizeBytes <= Integer.MAX_VALUE
                    && (!six || prio <= Integer.MAX_VALUE);
        }
    }

    @Property(tries = 1000)
    void wellFormedLinesAreParsedExactlyOrRefusedAtTheFirstBadLine(
            @ForAll("logLines") List<Line> lines,
            @ForAll boolean six,
            @ForAll("separators") String sep,
            @ForAll boolean crlf)
            throws Exception {
        StringBuilder text = new StringBuilder();
        for (Line l : lines) {
            text.append(l.render(six, sep)).append(crlf ? "\r\n" : "\n");
        }
        int firstBad = -1;
        for (int i = 0; i < lines.size() && firstBad < 0; i++) {
            if (!lines.get(i).acceptable(six)) {
                firstBad = i;
            }
        }
        List<Line> seen = new ArrayList<>();
        try {
            long n = parser.parse(
                    new ByteArrayInputStream(text.toString().getBytes(StandardCharsets.US_ASCII)),
                    "w_lat.1.log",
                    (t, l, op, bs, off, prio) -> seen.add(new Line(t, l, op, bs, off, six ? prio : -1)));
            assertThat(firstBad).as("accepted a line breaking a limit: " + text).isEqualTo(-1);
            assertThat(n).isEqualTo(lines.size());
            for (int i = 0; i < lines.size(); i++) {
                Line in = lines.get(i);
                assertThat(seen.get(i))
                        .isEqualTo(new Line(
                                in.timeMs(),
                                in.latencyNs(),
                                in.ddir(),
                                in.sizeBytes(),
                                in.offsetBytes(),
                                six ? in.prio() : -1));
                // what the import computes from it must not overflow
                Math.multiplyExact(seen.get(i).timeMs(), 1_000_000L);
            }
        } catch (FioLogFormatException e) {
            assertThat(firstBad).as("refused a valid log: " + e.getMessage()).isNotNegative();
            assertThat(e.lineNumber()).isEqualTo(firstBad + 1);
            assertThat(e.getMessage()).startsWith("w_lat.1.log:");
            assertThat(seen).hasSize(firstBad);
        }
    }

    @Provide
    Arbitrary<List<Line>> logLines() {
        Arbitrary<Long> anyNumber = Arbitraries.oneOf(
                Arbitraries.longs().between(0, 999_999_999_999_999_999L),
                Arbitraries.of(
                        0L,
                        1L,
                        999_999_999_999_999_999L,
                        (long) Integer.MAX_VALUE,
                        Integer.MAX_VALUE + 1L,
                        FioLatencyLogParser.MAX_TIME_MS,
                        FioLatencyLogParser.MAX_TIME_MS + 1));
        Arbitrary<Long> time = Arbitraries.frequencyOf(
                Tuple.of(8, Arbitraries.longs().between(0, 10_000_000)), Tuple.of(1, anyNumber));
        Arbitrary<Long> latency = Arbitraries.frequencyOf(
                Tuple.of(8, Arbitraries.longs().between(0, 1_000_000_000)), Tuple.of(1, anyNumber));
        Arbitrary<Long> ddir = Arbitraries.frequencyOf(
                Tuple.of(20, Arbitraries.longs().between(0, 2)),
                Tuple.of(1, Arbitraries.longs().between(3, 9)));
        Arbitrary<Long> size =
                Arbitraries.frequencyOf(Tuple.of(20, Arbitraries.of(512L, 4096L, 131072L)), Tuple.of(1, anyNumber));
        Arbitrary<Long> prio =
                Arbitraries.frequencyOf(Tuple.of(20, Arbitraries.longs().between(0, 1)), Tuple.of(1, anyNumber));
        return Combinators.combine(time, latency, ddir, size, anyNumber, prio)
                .as(Line::new)
                .list()
                .ofMinSize(1)
                .ofMaxSize(20);
    }

    @Provide
    Arbitrary<String> separators() {
        return Arbitraries.of(", ", ",", " , ", ",\t", "\t,");
    }

    private void check(byte[] bytes) {
        AtomicLong events = new AtomicLong();
        long lines;
        try {
            lines = parser.parse(new ByteArrayInputStream(bytes), "g_lat.1.log", (t, l, op, bs, off, prio) -> {
                assertThat(op).isBetween((byte) 0, (byte) 2);
                assertThat(bs).isPositive();
                assertThat(t).isNotNegative();
                assertThat(l).isNotNegative();
                assertThat(off).isNotNegative();
                events.incrementAndGet();
            });
        } catch (FioLogFormatException e) {
            assertThat(e.getMessage()).startsWith("g_lat.1.log:");
            assertThat(e.lineNumber()).isPositive();
            return;
        } catch (IOException e) {
            throw new AssertionError(e);
        }
        assertThat(lines).isEqualTo(events.get());
    }
}
