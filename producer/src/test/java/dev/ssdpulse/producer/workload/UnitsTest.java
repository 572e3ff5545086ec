package dev.ssdpulse.producer.workload;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class UnitsTest {
    @Test
    void sizesFollowTheDocumentedRule() {
        assertThat(Units.parseBytes("4k")).isEqualTo(4096);
        assertThat(Units.parseBytes("4K")).isEqualTo(4096);
        assertThat(Units.parseBytes("4KiB")).isEqualTo(4096);
        assertThat(Units.parseBytes("4kB")).isEqualTo(4000);
        assertThat(Units.parseBytes("1MiB")).isEqualTo(1 << 20);
        assertThat(Units.parseBytes("160GB")).isEqualTo(160_000_000_000L);
        assertThat(Units.parseBytes("128GB")).isEqualTo(128_000_000_000L);
        assertThat(Units.parseBytes("16GiB")).isEqualTo(17_179_869_184L);
        assertThat(Units.parseBytes("0.5KiB")).isEqualTo(512);
        assertThat(Units.parseBytes("512")).isEqualTo(512);
        assertThat(Units.parseBytes("512B")).isEqualTo(512);
        assertThat(Units.parseBytes("1TB")).isEqualTo(1_000_000_000_000L);
    }

    @Test
    void badSizesAreRejectedWithTheText() {
        assertThatThrownBy(() -> Units.parseBytes("4Gb")).hasMessageContaining("'4Gb' has unknown size unit 'Gb'");
        assertThatThrownBy(() -> Units.parseBytes("abc")).hasMessageContaining("'abc' is not a size");
        assertThatThrownBy(() -> Units.parseBytes("0.3k")).hasMessageContaining("not a whole number");
        assertThatThrownBy(() -> Units.parseBytes("99999999TiB")).hasMessageContaining("too large");
    }

    @Test
    void durations() {
        assertThat(Units.parseDurationNs("20m")).isEqualTo(20 * 60_000_000_000L);
        assertThat(Units.parseDurationNs("5000s")).isEqualTo(5_000_000_000_000L);
        assertThat(Units.parseDurationNs("500ms")).isEqualTo(500_000_000L);
        assertThat(Units.parseDurationNs("300")).isEqualTo(300_000_000_000L);
        assertThat(Units.parseDurationNs("24h")).isEqualTo(86_400_000_000_000L);
        assertThat(Units.parseDurationNs("1.5s")).isEqualTo(1_500_000_000L);
        assertThatThrownBy(() -> Units.parseDurationNs("5 days")).hasMessageContaining("unknown time unit 'days'");
    }

    @Test
    void amountsCombinePercentAndBytes() {
        assertThat(Amount.parse("100%-8GB").resolve(120_000_000_000L)).isEqualTo(112_000_000_000L);
        assertThat(Amount.parse("104GB+24GB").resolve(0)).isEqualTo(128_000_000_000L);
        assertThat(Amount.parse("200%").resolve(1000)).isEqualTo(2000);
        assertThat(Amount.parse("12.5%").resolve(800)).isEqualTo(100);
        assertThat(Amount.parse(Amount.parse("100%-8GB").toCanonicalString())).isEqualTo(Amount.parse("100%-8GB"));
        assertThat(Amount.parse("100%-0GB")).isEqualTo(Amount.ofPercent(100));
        assertThatThrownBy(() -> Amount.parse("100%+")).hasMessageContaining("empty term");
        assertThat(Units.describeBytes(128_000_000_000L)).isEqualTo("128000000000 B (128.00 GB, 119.21 GiB)");
    }
}
