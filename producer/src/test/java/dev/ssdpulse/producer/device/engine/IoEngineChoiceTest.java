package dev.ssdpulse.producer.device.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class IoEngineChoiceTest {
    private static final String EPERM = "io_uring_setup failed with errno 1 (EPERM): refused by the kernel";

    @Test
    void autoTakesTheBestTheKernelAllowsAndSaysWhy() {
        assertThat(IoEngineChoice.choose("auto", 32, () -> null, () -> null).engine())
                .isInstanceOf(LibaioIoEngine.class);
        assertThat(IoEngineChoice.choose("auto", 32, () -> null, () -> null).note())
                .isNull();
        IoEngineChoice uring =
                IoEngineChoice.choose("auto", 32, () -> null, () -> "io_setup failed: errno 38 (ENOSYS)");
        assertThat(uring.engine()).isInstanceOf(IoUringIoEngine.class);
        assertThat(uring.engine().maxQueueDepth()).isEqualTo(32);
        assertThat(uring.note()).contains("engine io_uring").contains("ENOSYS");
        IoEngineChoice psync =
                IoEngineChoice.choose("auto", 32, () -> EPERM, () -> "io_setup failed: errno 38 (ENOSYS)");
        assertThat(psync.engine()).isInstanceOf(SyncDirectIoEngine.class);
        assertThat(psync.note()).contains("psync").contains("EPERM").contains("ENOSYS");
    }

    @Test
    void anEngineAskedForByNameIsNeverSilentlyReplaced() {
        assertThatThrownBy(() -> IoEngineChoice.choose("io_uring", 32, () -> EPERM, () -> null))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("--engine io_uring is not available")
                .hasMessageContaining("EPERM")
                .hasMessageContaining("use --engine libaio");
        assertThatThrownBy(() -> IoEngineChoice.choose("libaio", 32, () -> null, () -> "no AIO"))
                .hasMessageContaining("--engine libaio is not available here: no AIO");
        assertThat(IoEngineChoice.choose("psync", 32, () -> EPERM, () -> "x").engine())
                .isInstanceOf(SyncDirectIoEngine.class);
        assertThat(IoEngineChoice.choose("sync", 32, () -> EPERM, () -> "x").note())
                .isNull();
        assertThat(IoEngineChoice.choose("null", 32, () -> EPERM, () -> "x")
                        .engine()
                        .name())
                .isEqualTo("null");
        assertThatThrownBy(() -> IoEngineChoice.choose("aio", 32, () -> null, () -> null))
                .hasMessageContaining("auto|io_uring|libaio|psync|null");
    }
}
