package dev.ssdpulse.producer.device.engine;

import dev.ssdpulse.schemas.iobatch.IoOpCode;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.concurrent.atomic.AtomicReference;

import static org.assertj.core.api.Assertions.assertThat;

class IoUringIoEngineTest extends AsyncIoEngineContract {
    @Override
    String unavailableReason() {
        return IoUringIoEngine.unavailableReason();
    }

    @Override
    AsyncIoEngineBase newEngine(int maxQueueDepth) {
        return new IoUringIoEngine(maxQueueDepth);
    }

    @Override
    String expectedName() {
        return "io_uring";
    }

    /**
     * The runner calls bindSubmitter at the start of each phase's thread: the ring must then belong to that
     * thread before its first submit, so the submit path never meets a new thread (see IoEngine#bindSubmitter).
     */
    @Test
    void bindSubmitterHandsTheRingToTheCallingThreadBeforeItsFirstSubmit() throws Exception {
        try (IoUringIoEngine e = new IoUringIoEngine(2)) {
            e.open(file(), 1 << 20, true, false);
            IoSlot s = e.allocateSlot(4096);
            request(s, IoOpCode.READ, 0, 4096);
            submitAllAndReap(e, List.of(s));
            assertThat(e.issuer()).isSameAs(Thread.currentThread());

            AtomicReference<Thread> boundTo = new AtomicReference<>();
            AtomicReference<Throwable> failure = new AtomicReference<>();
            Thread phase = new Thread(() -> {
                try {
                    e.bindSubmitter();
                    boundTo.set(e.issuer());
                    request(s, IoOpCode.READ, 4096, 4096);
                    submitAllAndReap(e, List.of(s));
                } catch (Throwable x) {
                    failure.set(x);
                }
            });
            phase.start();
            phase.join();
            assertThat(failure.get()).isNull();
            assertThat(boundTo.get()).as("bound by bindSubmitter, before any submit").isSameAs(phase);
            assertThat(s.status).as(String.valueOf(e.lastError())).isZero();
        }
    }
}
