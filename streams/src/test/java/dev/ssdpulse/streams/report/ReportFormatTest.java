package dev.ssdpulse.streams.report;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class ReportFormatTest {
    @Test
    void thousandsAreGroupedInEveryLocale() {
        assertThat(ReportFormat.grouped(1_234_567L)).isEqualTo("1,234,567");
        assertThat(ReportFormat.grouped(999L)).isEqualTo("999");
        assertThat(ReportFormat.grouped(-12_345L)).isEqualTo("-12,345");
        assertThat(ReportFormat.grouped(1_234_567.891, 1)).isEqualTo("1,234,567.9");
        assertThat(ReportFormat.grouped(0.0456, 3)).isEqualTo("0.046");
        assertThat(ReportFormat.grouped(Double.NaN, 1)).isEmpty();
        assertThat(ReportFormat.grouped("12345.678901")).isEqualTo("12,345.678901");
        // text that is not a plain number stays as it is
        assertThat(ReportFormat.grouped("secure-erased")).isEqualTo("secure-erased");
        assertThat(ReportFormat.grouped("")).isEmpty();
    }

    @Test
    void aCapacityIsInGbAndGib() {
        // seed 000: a "128 GB" drive shows 119.21 GiB
        assertThat(ReportFormat.capacityText(128_000_000_000L)).isEqualTo("128.00 GB (119.21 GiB)");
    }
}
