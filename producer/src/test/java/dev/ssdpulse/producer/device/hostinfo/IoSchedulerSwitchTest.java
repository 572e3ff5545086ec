package dev.ssdpulse.producer.device.hostinfo;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.ssdpulse.producer.device.testing.LoopDevice;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class IoSchedulerSwitchTest {
    @TempDir
    Path dir;

    @Test
    void parsesTheKernelsLine() {
        assertThat(IoSchedulerSwitch.activeIn("[none] mq-deadline kyber bfq\n")).isEqualTo("none");
        assertThat(IoSchedulerSwitch.activeIn("none [mq-deadline] kyber\n")).isEqualTo("mq-deadline");
        assertThat(IoSchedulerSwitch.activeIn("none\n")).isEqualTo("none");
        assertThat(IoSchedulerSwitch.availableIn("none [mq-deadline] kyber bfq\n"))
                .containsExactly("none", "mq-deadline", "kyber", "bfq");
    }

    /** A fake sysfs file accepts any write, so this checks what is written and restored, and the refusals. */
    @Test
    void setsAndRestoresThroughTheSchedulerFileAndRefusesWhatTheDiskDoesNotOffer() throws Exception {
        Path file = dir.resolve("block/sdb/queue/scheduler");
        Files.createDirectories(file.getParent());
        Files.writeString(file, "[mq-deadline] none\n");
        assertThatThrownBy(() -> IoSchedulerSwitch.set(dir, "sdb", "bfq"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("not available for sdb")
                .hasMessageContaining("offers: mq-deadline, none")
                .hasMessageContaining("modprobe bfq");
        assertThat(Files.readString(file)).as("a refusal changes nothing").isEqualTo("[mq-deadline] none\n");
        assertThatThrownBy(() -> IoSchedulerSwitch.set(dir, "sdc", "none"))
                .hasMessageContaining("cannot read")
                .hasMessageContaining("sdc");
        assertThatThrownBy(() -> IoSchedulerSwitch.set(dir, null, "none"))
                .hasMessageContaining("block device is unknown");
        try (IoSchedulerSwitch s = IoSchedulerSwitch.set(dir, "sdb", "mq-deadline")) {
            assertThat(s.previous()).isEqualTo("mq-deadline");
            assertThat(s.active()).isEqualTo("mq-deadline");
        }
        assertThat(Files.readString(file)).as("already active: nothing written").isEqualTo("[mq-deadline] none\n");
    }

    @Test
    void onALoopDeviceEverySchedulerItOffersIsSetAndThePreviousOneRestored() throws Exception {
        try (LoopDevice loop = LoopDevice.attach(dir.resolve("disk.img"), new byte[1 << 20], false)) {
            String disk = loop.path().getFileName().toString();
            Path file = Path.of("/sys/block", disk, "queue/scheduler");
            assumeTrue(Files.isWritable(file), file + " is not writable here");
            String before = IoSchedulerSwitch.activeIn(Files.readString(file));
            for (String name : IoSchedulerSwitch.availableIn(Files.readString(file))) {
                try (IoSchedulerSwitch s = IoSchedulerSwitch.set(Path.of("/sys"), disk, name)) {
                    assertThat(IoSchedulerSwitch.activeIn(Files.readString(file)))
                            .isEqualTo(name);
                    assertThat(s.previous()).isEqualTo(before);
                    HostFacts facts = new HostFactsCollector().collect(loop.path(), true, "libaio");
                    assertThat(facts.ioScheduler())
                            .as("recorded with the run's host facts")
                            .isEqualTo(name);
                }
                assertThat(IoSchedulerSwitch.activeIn(Files.readString(file)))
                        .as("restored after " + name)
                        .isEqualTo(before);
            }
            assertThatThrownBy(() -> IoSchedulerSwitch.set(Path.of("/sys"), disk, "cfq"))
                    .hasMessageContaining("--scheduler cfq: not available for " + disk);
            assertThat(IoSchedulerSwitch.activeIn(Files.readString(file))).isEqualTo(before);
        }
    }
}
