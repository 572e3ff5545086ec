package dev.ssdpulse.producer.device.engine;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ssdpulse.schemas.iobatch.IoOpCode;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

class LibaioIoEngineTest extends AsyncIoEngineContract {
    @Override
    String unavailableReason() {
        return LibaioIoEngine.unavailableReason();
    }

    @Override
    AsyncIoEngineBase newEngine(int maxQueueDepth) {
        return new LibaioIoEngine(maxQueueDepth);
    }

    @Override
    String expectedName() {
        return "libaio";
    }

    /**
     * Completions taken from the mapped ring: many times round it (a one-page ring holds 127 events), each read
     * landing in its own slot, and reaps that only look (at most 0 to wait for) as well as reaps that wait. A wrong
     * head, a missed wrap or a kernel that did not see the head move (io_submit would then run out of room and
     * retry for ever: hence the timeout) fails here.
     */
    @Test
    @Timeout(value = 60, unit = TimeUnit.SECONDS, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
    void completionsAreReapedFromTheMappedRingRoundAndRoundAgain() throws Exception {
        int blocks = 256;
        ByteBuffer content = ByteBuffer.allocate(blocks * 4096).order(ByteOrder.LITTLE_ENDIAN);
        for (int b = 0; b < blocks; b++) {
            content.putLong(b * 4096, 1_000_000L + b);
        }
        Path f = dir.resolve("numbered.dat");
        Files.write(f, content.array());
        int depth = 4;
        try (LibaioIoEngine e = new LibaioIoEngine(depth)) {
            e.open(f, (long) blocks * 4096, true, false);
            assertThat(e.reapsInUserSpace()).as("this kernel's AIO ring header").isTrue();
            List<IoSlot> slots = new ArrayList<>();
            for (int i = 0; i < depth; i++) {
                slots.add(e.allocateSlot(4096));
            }
            IoSlot[] out = new IoSlot[depth];
            for (int round = 0; round < 300; round++) {
                for (int i = 0; i < depth; i++) {
                    request(slots.get(i), IoOpCode.READ, (long) ((round * depth + i) * 7 % blocks) * 4096, 4096);
                    assertThat(e.submit(slots.get(i))).isFalse();
                }
                int reaped = 0;
                if (round % 2 == 0) {
                    assertThat(e.reap(out, 0, 0, 0)).as("submits only").isZero();
                    long deadline = System.nanoTime() + 5_000_000_000L;
                    while (reaped < depth && System.nanoTime() < deadline) {
                        reaped += e.reap(out, 0, depth - reaped, 0); // never waits: the ring alone
                    }
                } else {
                    while (reaped < depth) {
                        int n = e.reap(out, 1, depth - reaped, 5_000_000_000L);
                        assertThat(n).as("completions within 5 s").isPositive();
                        reaped += n;
                    }
                }
                assertThat(reaped).as("round %d", round).isEqualTo(depth);
                for (IoSlot s : slots) {
                    assertThat(s.status).as(String.valueOf(e.lastError())).isZero();
                    long block = s.offsetBytes / 4096;
                    assertThat(s.buffer
                                    .duplicate()
                                    .order(ByteOrder.LITTLE_ENDIAN)
                                    .getLong(0))
                            .as("block %d", block)
                            .isEqualTo(1_000_000L + block);
                }
            }
        }
    }
}
