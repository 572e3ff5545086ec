package dev.ssdpulse.producer.fio;

import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.atomic.AtomicLong;

import static org.assertj.core.api.Assertions.assertThat;

/** Garbage in: either lines are accepted or a FioLogFormatException names the line; never anything else. */
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
        return Arbitraries.strings().withChars("0123456789, \t\r\nx-+.abcdefABCDEFX").ofMaxLength(300);
    }

    private void check(byte[] bytes) {
        AtomicLong events = new AtomicLong();
        long lines;
        try {
            lines = parser.parse(new ByteArrayInputStream(bytes), "g_lat.1.log",
                    (t, l, op, bs, off, prio) -> {
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
        } catch (java.io.IOException e) {
            throw new AssertionError(e);
        }
        assertThat(lines).isEqualTo(events.get());
    }
}
