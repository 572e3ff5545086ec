package dev.ssdpulse.cli.runs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class RetentionSpecTest {
    @Test
    void parsesForeverAndUnits() {
        assertThat(RetentionSpec.parseMs("forever")).isEqualTo(-1);
        assertThat(RetentionSpec.parseMs("90d")).isEqualTo(90L * 86_400_000L);
        assertThat(RetentionSpec.parseMs("12h")).isEqualTo(12L * 3_600_000L);
        assertThat(RetentionSpec.parseMs("30m")).isEqualTo(30L * 60_000L);
        assertThat(RetentionSpec.parseMs("1.5s")).isEqualTo(1500);
        assertThat(RetentionSpec.parseMs("250ms")).isEqualTo(250);
    }

    @Test
    void refusesWhatIsNotARetention() {
        assertThatThrownBy(() -> RetentionSpec.parseMs("soon")).hasMessageContaining("'forever' or a whole number");
        assertThatThrownBy(() -> RetentionSpec.parseMs("90")).hasMessageContaining("d, h, m, s or ms");
        assertThatThrownBy(() -> RetentionSpec.parseMs("0d")).hasMessageContaining("longer than 0");
        assertThatThrownBy(() -> RetentionSpec.parseMs("0.0001ms")).hasMessageContaining("whole number");
    }

    @Test
    void formatsReadably() {
        assertThat(RetentionSpec.format(-1)).isEqualTo("forever");
        assertThat(RetentionSpec.format(30L * 86_400_000L)).isEqualTo("30 d");
        assertThat(RetentionSpec.format(7_200_000L)).isEqualTo("2 h");
        assertThat(RetentionSpec.format(90_000L)).isEqualTo("90 s");
        assertThat(RetentionSpec.format(1500)).isEqualTo("1500 ms");
    }
}
