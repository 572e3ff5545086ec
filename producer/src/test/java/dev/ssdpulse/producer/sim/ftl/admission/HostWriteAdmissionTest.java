package dev.ssdpulse.producer.sim.ftl.admission;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** Host programs go ahead of GC while erased blocks are to spare, and wait for it below the watermark. */
class HostWriteAdmissionTest {

    /** A plane state the test sets by hand. */
    private static final class Planes implements HostWriteAdmission.PlaneState {
        final int[] free;
        final int[] queuedErases;

        Planes(int planes) {
            free = new int[planes];
            queuedErases = new int[planes];
        }

        @Override
        public int freeBlocks(int plane) {
            return free[plane];
        }

        @Override
        public int queuedErases(int plane, long atNs) {
            return queuedErases[plane];
        }
    }

    @Test
    void hostProgramsOvertakeWhileErasedBlocksStayAtTheWatermarkAndQueueBelowIt() {
        var planes = new Planes(4);
        // drive-wide watermark 8 blocks: 2 erased free blocks per plane
        var admission = new HostWriteAdmission(planes, 4, 8);
        planes.free[0] = 5;
        planes.queuedErases[0] = 3;
        assertThat(admission.mayOvertake(0, 0))
                .as("2 erased of 5 free: at the watermark")
                .isTrue();
        planes.queuedErases[0] = 4;
        assertThat(admission.mayOvertake(0, 0))
                .as("1 erased: urgent, the host waits for GC")
                .isFalse();
        // another plane's state is its own
        planes.free[1] = 2;
        assertThat(admission.mayOvertake(1, 0)).isTrue();
        assertThat(admission.admittedPrograms()).isEqualTo(2);
        assertThat(admission.urgentPrograms()).isEqualTo(1);
        assertThat(admission.lowestErasedFreeAdmitted()).isEqualTo(2);
    }

    /** Without a watermark (0), a program is still admitted only if an erased block is to spare. */
    @Test
    void neverAdmittedWithoutAnErasedFreeBlock() {
        var planes = new Planes(1);
        var admission = new HostWriteAdmission(planes, 1, 0);
        planes.free[0] = 3;
        planes.queuedErases[0] = 3;
        assertThat(admission.mayOvertake(0, 0)).isFalse();
        planes.queuedErases[0] = 2;
        assertThat(admission.mayOvertake(0, 0)).isTrue();
        assertThat(admission.lowestErasedFreeAdmitted()).isEqualTo(1);
    }
}
