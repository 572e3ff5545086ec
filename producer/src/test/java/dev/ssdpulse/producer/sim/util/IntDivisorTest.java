package dev.ssdpulse.producer.sim.util;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class IntDivisorTest {

    @Test
    void equalsIntegerDivisionOverTheWholeNonNegativeRange() {
        SplittableRandom random = new SplittableRandom(5);
        int[] divisors = {1, 2, 3, 7, 64, 320, 1000, 2048, 4093, 65_537, 1 << 20, (1 << 30) + 1, Integer.MAX_VALUE};
        for (int d : divisors) {
            IntDivisor divisor = new IntDivisor(d);
            for (int n :
                    new int[] {0, 1, d - 1, d, d + 1, Integer.MAX_VALUE, Integer.MAX_VALUE - 1, Integer.MAX_VALUE - d
                    }) {
                if (n >= 0) {
                    assertThat(divisor.divide(n)).as("%d / %d", n, d).isEqualTo(n / d);
                }
            }
            for (int i = 0; i < 200_000; i++) {
                int n = random.nextInt(Integer.MAX_VALUE);
                assertThat(divisor.divide(n)).as("%d / %d", n, d).isEqualTo(n / d);
            }
        }
        for (int d = 1; d < 3000; d++) {
            IntDivisor divisor = new IntDivisor(d);
            for (int n = 0; n < 5000; n++) {
                if (divisor.divide(n) != n / d) {
                    assertThat(divisor.divide(n)).as("%d / %d", n, d).isEqualTo(n / d);
                }
            }
        }
    }

    @Test
    void rejectsDivisorsBelowOne() {
        assertThatThrownBy(() -> new IntDivisor(0)).isInstanceOf(IllegalArgumentException.class);
    }
}
