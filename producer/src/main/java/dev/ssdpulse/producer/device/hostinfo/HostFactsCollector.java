package dev.ssdpulse.producer.device.hostinfo;

import dev.ssdpulse.producer.device.guard.TargetGuard;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Reads host facts from /proc and /sys (roots injectable so tests use fixture trees).
 *
 * <p>The target's disk: the target's device number (a file's {@code st_dev}, a device's {@code st_rdev}) is
 * looked up as {@code /sys/dev/block/MAJ:MIN}; a partition (a directory with a {@code partition} file) is replaced
 * by its parent disk, whose {@code queue/} holds the scheduler and block sizes. A file on a file system without a
 * block device number (major 0: overlay, tmpfs, some btrfs subvolumes) is resolved through
 * {@code /proc/self/mountinfo} (the longest mount point containing the file, when its source is a /dev path).
 */
public final class HostFactsCollector {
    private static final Pattern BRACKETED = Pattern.compile("\\[([^\\]]+)]");
    private final Path procRoot;
    private final Path sysRoot;

    public HostFactsCollector() {
        this(Path.of("/proc"), Path.of("/sys"));
    }

    public HostFactsCollector(Path procRoot, Path sysRoot) {
        this.procRoot = procRoot;
        this.sysRoot = sysRoot;
    }

    /** Facts for a run on {@code target} (file or block device); never throws for a missing fact. */
    public HostFacts collect(Path target, boolean directIo, String ioEngine) {
        Map<String, String> why = new LinkedHashMap<>();
        String majMin = null;
        try {
            boolean device = TargetGuard.isBlockDevice(target);
            long dev = (Long) Files.getAttribute(target, device ? "unix:rdev" : "unix:dev");
            majMin = TargetGuard.majorMinor(dev);
            if (majMin.startsWith("0:")) {
                String viaMount = majMinFromMountInfo(target.toAbsolutePath().normalize());
                if (viaMount == null) {
                    why.put(
                            "blockDevice",
                            "the file system of " + target + " has no block device (device " + majMin
                                    + ", e.g. overlay or tmpfs) and /proc/self/mountinfo names none");
                }
                majMin = viaMount;
            }
        } catch (IOException | RuntimeException e) {
            why.put("blockDevice", "cannot stat " + target + ": " + e.getMessage());
        }
        return collect(majMin, directIo, ioEngine, why);
    }

    /** Facts for the disk with the given "MAJ:MIN" (null when unknown; reasons already in {@code why}). */
    HostFacts collect(String majMin, boolean directIo, String ioEngine, Map<String, String> why) {
        String hostname = read("hostname", procRoot.resolve("sys/kernel/hostname"), why);
        String ostype = read("kernel", procRoot.resolve("sys/kernel/ostype"), why);
        String release = read("kernel", procRoot.resolve("sys/kernel/osrelease"), why);
        String kernel = ostype != null && release != null ? ostype + " " + release : null;
        String cpuModel = cpuModel(why);
        Long memory = memoryBytes(why);

        String disk = majMin == null ? null : diskName(majMin, why);
        String scheduler = null, model = null, serial = null, firmware = null;
        Long capacity = null;
        Integer logical = null, physical = null;
        Boolean rotational = null;
        if (disk != null) {
            Path d = sysRoot.resolve("block").resolve(disk);
            String sched = read("ioScheduler", d.resolve("queue/scheduler"), why);
            if (sched != null) {
                Matcher m = BRACKETED.matcher(sched);
                scheduler = m.find() ? m.group(1) : sched.trim(); // "none" alone has no brackets on some kernels
            }
            model = read("model", d.resolve("device/model"), why);
            serial = firstOf("serial", why, d.resolve("device/serial"), d.resolve("device/wwid"));
            firmware = firstOf("firmware", why, d.resolve("device/firmware_rev"), d.resolve("device/rev"));
            Long sectors = readLong("capacityBytes", d.resolve("size"), why);
            capacity = sectors == null ? null : sectors * 512; // sysfs "size" is in 512-byte units on every disk
            Long lbs = readLong("logicalBlockSizeBytes", d.resolve("queue/logical_block_size"), why);
            logical = lbs == null ? null : lbs.intValue();
            Long pbs = readLong("physicalBlockSizeBytes", d.resolve("queue/physical_block_size"), why);
            physical = pbs == null ? null : pbs.intValue();
            Long rot = readLong("rotational", d.resolve("queue/rotational"), why);
            rotational = rot == null ? null : rot == 1;
        } else {
            String reason = why.getOrDefault("blockDevice", "the target's block device is unknown");
            for (String f : List.of(
                    "ioScheduler",
                    "model",
                    "serial",
                    "firmware",
                    "capacityBytes",
                    "logicalBlockSizeBytes",
                    "physicalBlockSizeBytes",
                    "rotational")) {
                why.putIfAbsent(f, reason);
            }
        }
        return new HostFacts(
                hostname,
                kernel,
                disk,
                scheduler,
                model,
                serial,
                firmware,
                capacity,
                logical,
                physical,
                rotational,
                cpuModel,
                Runtime.getRuntime().availableProcessors(),
                memory,
                directIo,
                ioEngine,
                System.getProperty("java.version"),
                why);
    }

    /** The whole-disk kernel name for a device number: a partition maps to its parent disk. */
    String diskName(String majMin, Map<String, String> why) {
        Path link = sysRoot.resolve("dev/block").resolve(majMin);
        try {
            Path real = link.toRealPath();
            if (Files.exists(real.resolve("partition"))) {
                real = real.getParent();
            }
            return real.getFileName().toString();
        } catch (IOException e) {
            why.put("blockDevice", "no " + link + " for device " + majMin + " (" + e.getMessage() + ")");
            return null;
        }
    }

    /** The "MAJ:MIN" of the source of the longest mount point containing {@code file}, if it is a block device. */
    String majMinFromMountInfo(Path file) {
        Path mountinfo = procRoot.resolve("self/mountinfo");
        String best = null;
        int bestLen = -1;
        try {
            for (String line : Files.readAllLines(mountinfo)) {
                // id parent MAJ:MIN root mountpoint options ... - fstype source superoptions
                String[] f = line.split(" ");
                int dash = List.of(f).indexOf("-");
                if (f.length < 5 || dash < 0 || dash + 2 >= f.length) {
                    continue;
                }
                String mountPoint = f[4].replace("\\040", " ");
                if (file.startsWith(mountPoint) && mountPoint.length() > bestLen) {
                    String source = f[dash + 2];
                    bestLen = mountPoint.length();
                    best = f[2].startsWith("0:") ? sourceMajMin(source) : f[2];
                }
            }
        } catch (IOException e) {
            return null;
        }
        return best;
    }

    private String sourceMajMin(String source) {
        if (!source.startsWith("/dev/")) {
            return null;
        }
        Path dev = sysRoot.resolve("class/block")
                .resolve(Path.of(source).getFileName().toString())
                .resolve("dev");
        try {
            return Files.readString(dev).trim();
        } catch (IOException e) {
            return null;
        }
    }

    private String cpuModel(Map<String, String> why) {
        try {
            for (String line : Files.readAllLines(procRoot.resolve("cpuinfo"))) {
                int colon = line.indexOf(':');
                if (colon > 0) {
                    String key = line.substring(0, colon).trim();
                    // x86 "model name"; arm64 has no model name, only "CPU implementer"/"Hardware" lines
                    if (key.equals("model name") || key.equals("Hardware") || key.equals("cpu model")) {
                        return line.substring(colon + 1).trim();
                    }
                }
            }
            why.put("cpuModel", "no 'model name' line in " + procRoot.resolve("cpuinfo"));
        } catch (IOException e) {
            why.put("cpuModel", "cannot read " + procRoot.resolve("cpuinfo") + ": " + e.getMessage());
        }
        return null;
    }

    private Long memoryBytes(Map<String, String> why) {
        try {
            for (String line : Files.readAllLines(procRoot.resolve("meminfo"))) {
                if (line.startsWith("MemTotal:")) {
                    String[] f = line.split("\\s+");
                    return Long.parseLong(f[1]) * 1024; // reported in kB (KiB)
                }
            }
            why.put("memoryBytes", "no MemTotal in " + procRoot.resolve("meminfo"));
        } catch (IOException | RuntimeException e) {
            why.put("memoryBytes", "cannot read " + procRoot.resolve("meminfo") + ": " + e.getMessage());
        }
        return null;
    }

    private static String firstOf(String field, Map<String, String> why, Path... candidates) {
        for (Path p : candidates) {
            if (Files.isReadable(p)) {
                String v = read(field, p, why);
                if (v != null && !v.isEmpty()) {
                    why.remove(field);
                    return v;
                }
            }
        }
        why.put(field, "none of " + List.of(candidates) + " is readable");
        return null;
    }

    private static String read(String field, Path p, Map<String, String> why) {
        try {
            String v = Files.readString(p).trim();
            if (v.isEmpty()) {
                why.put(field, p + " is empty");
                return null;
            }
            return v;
        } catch (IOException e) {
            why.put(
                    field,
                    "cannot read " + p
                            + (e.getMessage() == null ? "" : ": " + e.getClass().getSimpleName()));
            return null;
        }
    }

    private static Long readLong(String field, Path p, Map<String, String> why) {
        String v = read(field, p, why);
        if (v == null) {
            return null;
        }
        try {
            return Long.parseLong(v);
        } catch (NumberFormatException e) {
            why.put(field, p + " is not a number: '" + v + "'");
            return null;
        }
    }
}
