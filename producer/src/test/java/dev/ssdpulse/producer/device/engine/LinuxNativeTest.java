package dev.ssdpulse.producer.device.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.ByteBuffer;
import org.junit.jupiter.api.Test;

class LinuxNativeTest {
    /** A capacity that is not a multiple of the alignment (libaio's 32-byte event array at QD1, aligned to 64). */
    @Test
    void alignedBuffersHaveTheirFullCapacityWhateverTheAllocatorsAddress() {
        assumeTrue(LinuxNative.unavailableReason() == null, LinuxNative.unavailableReason());
        for (int i = 0; i < 1000; i++) {
            for (int[] c : new int[][] {{32, 64}, {8, 8}, {16, 8}, {24, 8}, {120, 8}, {96, 64}, {4096, 4096}}) {
                ByteBuffer b = LinuxNative.allocateAligned(c[0], c[1]);
                assertThat(b.capacity())
                        .as("capacity %d aligned %d", c[0], c[1])
                        .isEqualTo(c[0]);
                assertThat(LinuxNative.address(b) % c[1]).isZero();
            }
        }
    }
}
