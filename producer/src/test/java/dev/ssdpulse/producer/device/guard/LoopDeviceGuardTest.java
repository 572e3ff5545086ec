package dev.ssdpulse.producer.device.guard;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.ssdpulse.producer.device.testing.LoopDevice;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalLong;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The guard against real block devices: loop devices over image files (needs root and a working losetup;
 * skipped otherwise, the file-based tests cover the same detection code).
 */
class LoopDeviceGuardTest {
    @TempDir
    Path dir;

    private final List<LoopDevice> attached = new ArrayList<>();

    private Path attach(byte[] image, boolean partScan) throws Exception {
        LoopDevice loop = LoopDevice.attach(dir.resolve("img" + attached.size()), image, partScan);
        attached.add(loop);
        return loop.path();
    }

    @AfterEach
    void detach() throws Exception {
        for (LoopDevice loop : attached) {
            loop.close();
        }
    }

    @Test
    void ext4SignatureOnALoopDeviceIsRefusedUnlessAllowed() throws Exception {
        byte[] img = new byte[8 << 20];
        img[1080] = 0x53;
        img[1081] = (byte) 0xEF;
        Path dev = attach(img, false);
        TargetGuard guard = new TargetGuard();
        assertThat(TargetGuard.isBlockDevice(dev)).isTrue();
        assertThatThrownBy(() -> guard.prepare(dev, OptionalLong.empty(), true, false))
                .isInstanceOf(TargetSafetyException.class)
                .hasMessageContaining("refusing to write to block device " + dev)
                .hasMessageContaining("ext2/3/4 file system (magic 0xEF53 at byte 1080)")
                .hasMessageContaining("--allow-destroy-data");
        PreparedTarget allowed = guard.prepare(dev, OptionalLong.empty(), true, true);
        assertThat(allowed.blockDevice()).isTrue();
        assertThat(allowed.sizeBytes()).isEqualTo(8 << 20);
        assertThat(allowed.notes()).singleElement().asString().contains("overriding");
        PreparedTarget readOnly = guard.prepare(dev, OptionalLong.empty(), false, false);
        assertThat(readOnly.notes()).singleElement().asString().contains("read-only");
    }

    @Test
    void partitionTableOnALoopDeviceIsRefusedAndABlankOneAccepted() throws Exception {
        byte[] img = new byte[8 << 20];
        // one Linux partition, sectors 2048..10239
        img[446 + 4] = (byte) 0x83;
        img[446 + 8 + 1] = 0x08; // start LBA 2048 (LE)
        img[446 + 12 + 1] = 0x20; // 8192 sectors (LE)
        img[510] = 0x55;
        img[511] = (byte) 0xAA;
        Path dev = attach(img, true);
        TargetGuard guard = new TargetGuard();
        assertThatThrownBy(() -> guard.prepare(dev, OptionalLong.empty(), true, false))
                .hasMessageContaining("MBR partition table");
        Path blank = attach(new byte[4 << 20], false);
        PreparedTarget ok = guard.prepare(blank, OptionalLong.empty(), true, false);
        assertThat(ok.notes()).isEmpty();
        assertThat(ok.sizeBytes()).isEqualTo(4 << 20);
    }

    @Test
    void aMountedLoopDeviceIsMatchedByDeviceNumber() throws Exception {
        Path dev = attach(new byte[4 << 20], false);
        // /proc fixture claiming the real loop device is mounted: matched through its st_rdev, not its name
        Path link = dir.resolve("alias");
        Files.createSymbolicLink(link, dev);
        Path proc = Files.createDirectories(dir.resolve("proc/self"));
        Files.writeString(proc.resolve("mounts"), link + " /mnt/x ext4 rw 0 0\n");
        TargetGuard guard = new TargetGuard(dir.resolve("proc"), Path.of("/sys"));
        assertThatThrownBy(() -> guard.prepare(dev, OptionalLong.empty(), true, false))
                .hasMessageContaining("mounted: " + dev.getFileName() + " on /mnt/x");
    }
}
