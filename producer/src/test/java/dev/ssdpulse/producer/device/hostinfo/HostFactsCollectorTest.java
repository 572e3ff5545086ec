package dev.ssdpulse.producer.device.hostinfo;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class HostFactsCollectorTest {
    @TempDir
    Path root;

    private Path proc;
    private Path sys;

    private void write(Path p, String content) throws Exception {
        Files.createDirectories(p.getParent());
        Files.writeString(p, content);
    }

    /** /proc and /sys text as a Linux 6.1 host with one NVMe drive (partition p1 at 259:1) shows them. */
    private HostFactsCollector fixture(boolean withModel) throws Exception {
        proc = root.resolve("proc");
        sys = root.resolve("sys");
        write(proc.resolve("sys/kernel/ostype"), "Linux\n");
        write(proc.resolve("sys/kernel/osrelease"), "6.1.0-13-amd64\n");
        write(proc.resolve("sys/kernel/hostname"), "bench1\n");
        write(
                proc.resolve("cpuinfo"),
                "processor\t: 0\nvendor_id\t: AuthenticAMD\nmodel name\t: AMD EPYC 7B13\n"
                        + "processor\t: 1\nmodel name\t: AMD EPYC 7B13\n");
        write(proc.resolve("meminfo"), "MemTotal:       24576000 kB\nMemFree:        22000000 kB\n");
        Path disk = sys.resolve("devices/pci0000:00/0000:00:04.0/nvme/nvme0/nvme0n1");
        write(disk.resolve("queue/scheduler"), "[none] mq-deadline kyber bfq\n");
        write(disk.resolve("queue/logical_block_size"), "512\n");
        write(disk.resolve("queue/physical_block_size"), "4096\n");
        write(disk.resolve("queue/rotational"), "0\n");
        write(disk.resolve("size"), "1953525168\n");
        write(disk.resolve("dev"), "259:0\n");
        if (withModel) {
            write(disk.resolve("device/model"), "Samsung SSD 980 PRO 1TB                 \n");
            write(disk.resolve("device/serial"), "S5GXNF0R000000X\n");
            write(disk.resolve("device/firmware_rev"), "5B2QGXA7\n");
        }
        write(disk.resolve("nvme0n1p1/partition"), "1\n");
        write(disk.resolve("nvme0n1p1/dev"), "259:1\n");
        Files.createDirectories(sys.resolve("dev/block"));
        Files.createSymbolicLink(
                sys.resolve("dev/block/259:1"),
                Path.of("../../devices/pci0000:00/0000:00:04.0/nvme/nvme0/nvme0n1/nvme0n1p1"));
        Files.createSymbolicLink(
                sys.resolve("dev/block/259:0"), Path.of("../../devices/pci0000:00/0000:00:04.0/nvme/nvme0/nvme0n1"));
        Files.createDirectories(sys.resolve("block"));
        Files.createSymbolicLink(
                sys.resolve("block/nvme0n1"), Path.of("../devices/pci0000:00/0000:00:04.0/nvme/nvme0/nvme0n1"));
        Files.createDirectories(sys.resolve("class/block"));
        Files.createSymbolicLink(
                sys.resolve("class/block/nvme0n1p1"),
                Path.of("../../devices/pci0000:00/0000:00:04.0/nvme/nvme0/nvme0n1/nvme0n1p1"));
        write(
                proc.resolve("self/mountinfo"),
                "22 1 259:1 / / rw,relatime shared:1 - ext4 /dev/nvme0n1p1 rw\n"
                        + "30 22 0:45 / /data rw,relatime shared:9 - overlay overlay rw,lowerdir=/a\n"
                        + "31 22 0:46 / /bench rw,relatime shared:10 - btrfs /dev/nvme0n1p1 rw\n");
        return new HostFactsCollector(proc, sys);
    }

    @Test
    void aPartitionResolvesToItsDiskAndItsQueueFacts() throws Exception {
        HostFacts f = fixture(true).collect("259:1", true, "sync-direct-workers", new LinkedHashMap<>());
        assertThat(f.kernel()).isEqualTo("Linux 6.1.0-13-amd64");
        assertThat(f.hostname()).isEqualTo("bench1");
        assertThat(f.cpuModel()).isEqualTo("AMD EPYC 7B13");
        assertThat(f.memoryBytes()).isEqualTo(24_576_000L * 1024);
        assertThat(f.blockDevice()).isEqualTo("nvme0n1");
        assertThat(f.ioScheduler()).isEqualTo("none");
        assertThat(f.model()).isEqualTo("Samsung SSD 980 PRO 1TB");
        assertThat(f.serial()).isEqualTo("S5GXNF0R000000X");
        assertThat(f.firmware()).isEqualTo("5B2QGXA7");
        assertThat(f.capacityBytes()).isEqualTo(1_953_525_168L * 512);
        assertThat(f.logicalBlockSizeBytes()).isEqualTo(512);
        assertThat(f.physicalBlockSizeBytes()).isEqualTo(4096);
        assertThat(f.rotational()).isFalse();
        assertThat(f.directIo()).isTrue();
        assertThat(f.ioEngine()).isEqualTo("sync-direct-workers");
        assertThat(f.unavailable()).isEmpty();
        var host = f.toHostDescription();
        assertThat(host.getIoScheduler()).isEqualTo("none");
        assertThat(host.getDirectIo()).isTrue();
        var dev = f.toDeviceDescription(Path.of("/bench/t.dat"), false, 1 << 30);
        assertThat(dev.getModel()).isEqualTo("Samsung SSD 980 PRO 1TB");
        assertThat(dev.getCapacityBytes()).isEqualTo(1_953_525_168L * 512);
        assertThat(dev.getTargetPath()).isEqualTo("/bench/t.dat");
    }

    @Test
    void missingFactsAreNullWithAReason() throws Exception {
        HostFacts f = fixture(false).collect("259:0", false, "null", new LinkedHashMap<>());
        assertThat(f.blockDevice()).isEqualTo("nvme0n1");
        assertThat(f.model()).isNull();
        assertThat(f.unavailable()).containsKey("model").containsKey("serial");
        assertThat(f.unavailable().get("model")).contains("device/model");
        assertThat(f.toDeviceDescription(Path.of("/x"), false, 4096).getModel()).isEqualTo("unknown");

        Map<String, String> why = new LinkedHashMap<>();
        HostFacts none =
                new HostFactsCollector(root.resolve("nothing"), root.resolve("nothing")).collect("8:0", true, "x", why);
        assertThat(none.kernel()).isNull();
        assertThat(none.ioScheduler()).isNull();
        assertThat(none.unavailable()).containsKeys("kernel", "cpuModel", "memoryBytes", "blockDevice", "ioScheduler");
        assertThat(none.cpuCount()).isPositive();
    }

    @Test
    void mountInfoResolvesDeviceLessFileSystems() throws Exception {
        HostFactsCollector c = fixture(true);
        assertThat(c.majMinFromMountInfo(Path.of("/bench/run/t.dat"))).isEqualTo("259:1");
        assertThat(c.majMinFromMountInfo(Path.of("/data/t.dat"))).isNull(); // overlay: no block device
        assertThat(c.majMinFromMountInfo(Path.of("/home/t.dat"))).isEqualTo("259:1");
    }

    @Test
    void realHostNeverFails(@TempDir Path dir) throws Exception {
        Path f = Files.writeString(dir.resolve("f"), "x");
        HostFacts facts = new HostFactsCollector().collect(f, true, "sync-direct-workers");
        assertThat(facts.kernel()).startsWith("Linux ");
        assertThat(facts.cpuCount()).isPositive();
        assertThat(facts.blockDevice() != null || facts.unavailable().containsKey("blockDevice"))
                .isTrue();
        HostFacts missing = new HostFactsCollector().collect(dir.resolve("missing"), false, "x");
        assertThat(missing.unavailable().get("blockDevice")).contains("cannot stat");
    }
}
