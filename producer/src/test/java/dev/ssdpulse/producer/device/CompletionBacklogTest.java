package dev.ssdpulse.producer.device;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ssdpulse.producer.device.engine.IoSlot;
import dev.ssdpulse.schemas.iobatch.IoFlags;
import dev.ssdpulse.schemas.iobatch.IoOpCode;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class CompletionBacklogTest {
    private record Recorded(
            byte op,
            long offsetBytes,
            int sizeBytes,
            long submitNanos,
            long completeNanos,
            int queueDepth,
            int status,
            long writeSequence,
            int ioFlags) {}

    @Test
    void holdsCopiesSoTheSlotsCanBeRefilledAndDrainsOldestFirst() {
        CompletionBacklog backlog = new CompletionBacklog(4);
        IoSlot slot = new IoSlot(ByteBuffer.allocateDirect(4096));
        List<Recorded> out = new ArrayList<>();
        CompletionBacklog.Recorder recorder = (op, off, size, sub, done, qd, st, seq, flags) ->
                out.add(new Recorded(op, off, size, sub, done, qd, st, seq, flags));
        assertThat(backlog.isEmpty()).isTrue();

        for (int i = 0; i < 4; i++) {
            fill(slot, i % 2 == 0 ? IoOpCode.READ : IoOpCode.WRITE, 4096L * i, 100 + i, i == 3 ? 5 : 0);
            backlog.add(slot); // the same slot each time: the backlog must not keep a reference to it
        }
        fill(slot, IoOpCode.TRIM, 1 << 20, 999, 0); // refilled for a new request before the drain
        assertThat(backlog.isEmpty()).isFalse();
        backlog.drainTo(recorder);

        assertThat(out)
                .containsExactly(
                        new Recorded(IoOpCode.READ, 0, 4096, 100, 150, 1, 0, -1, 0),
                        new Recorded(IoOpCode.WRITE, 4096, 4096, 101, 151, 2, 0, 101, IoFlags.FUA),
                        new Recorded(IoOpCode.READ, 8192, 4096, 102, 152, 3, 0, -1, 0),
                        new Recorded(IoOpCode.WRITE, 12288, 4096, 103, 153, 4, 5, 103, IoFlags.FUA));
        assertThat(backlog.isEmpty()).isTrue();

        out.clear();
        backlog.add(slot);
        backlog.drainTo(recorder);
        backlog.drainTo(recorder); // drained once only
        assertThat(out).containsExactly(new Recorded(IoOpCode.TRIM, 1 << 20, 4096, 999, 1049, 900, 0, -1, 0));
    }

    private static void fill(IoSlot slot, byte op, long offsetBytes, long submitNanos, int status) {
        slot.op = op;
        slot.offsetBytes = offsetBytes;
        slot.sizeBytes = 4096;
        slot.submitNanos = submitNanos;
        slot.completeNanos = submitNanos + 50;
        slot.queueDepthAtSubmit = (int) (submitNanos - 99);
        // a write carries the sequence it stamped and, here, FUA: both travel with its completion
        slot.writeSequence = op == IoOpCode.WRITE ? submitNanos : IoFlags.NO_SEQUENCE;
        slot.fua = op == IoOpCode.WRITE;
        slot.status = status;
    }
}
