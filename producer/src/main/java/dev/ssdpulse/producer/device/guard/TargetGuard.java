package dev.ssdpulse.producer.device.guard;

import dev.ssdpulse.producer.workload.AccessSpec;
import dev.ssdpulse.producer.workload.PhaseKind;
import dev.ssdpulse.producer.workload.PhaseSpec;
import dev.ssdpulse.producer.workload.ScheduledPhase;
import dev.ssdpulse.producer.workload.WorkloadSpec;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;

/**
 * Decides whether a target may be used and prepares it.
 *
 * <p><b>Files.</b> A missing file is created at the requested size and filled once with incompressible data
 * (written to a {@code .ssdpulse-partial} sibling and renamed when complete), because reads of a sparse file's
 * holes never reach the device and first writes into holes pay file-system allocation, both unrealistic. A file is
 * never grown: an existing file at least as large as requested is used for its first {@code requested} bytes (a
 * note says so); a smaller one is refused, since ssdpulse does not extend files it did not create. Without a
 * requested size an existing file is used whole.
 *
 * <p><b>Block devices.</b> Read-only workloads are always allowed. A workload that writes is refused, unless
 * {@code allowDestroyData}, when the device (a) or one of its partitions is mounted ({@code /proc/self/mounts},
 * {@code /proc/mounts}) or used as swap ({@code /proc/swaps}), (b) has holders (device-mapper, MD RAID), (c) carries
 * a partition table or (d) a file-system / volume signature ({@link SignatureProbe}). The exception lists every
 * check that fired and how to override.
 */
public final class TargetGuard {
    private static final int FILL_CHUNK_BYTES = 1 << 20;
    private final Path procRoot;
    private final Path sysRoot;

    public TargetGuard() {
        this(Path.of("/proc"), Path.of("/sys"));
    }

    /** @param procRoot stands for /proc, sysRoot for /sys (fixture trees in tests) */
    public TargetGuard(Path procRoot, Path sysRoot) {
        this.procRoot = procRoot;
        this.sysRoot = sysRoot;
    }

    /** Whether any phase writes to (or trims, or purges) the target. */
    public static boolean writesData(WorkloadSpec spec) {
        for (ScheduledPhase s : spec.schedule()) {
            PhaseSpec p = s.phase();
            if (p.kind() == PhaseKind.PURGE || p.trim()) {
                return true;
            }
            for (AccessSpec a : p.accessSpecs()) {
                if (a.percentRead() < 100) {
                    return true;
                }
            }
        }
        return false;
    }

    /**
     * @param target             file or block device path
     * @param requestedSizeBytes size for a file target (the workload's targetSize or --size); ignored for devices
     * @param writes             the workload writes ({@link #writesData})
     * @param allowDestroyData   --allow-destroy-data was given
     */
    public PreparedTarget prepare(
            Path target, OptionalLong requestedSizeBytes, boolean writes, boolean allowDestroyData)
            throws IOException, TargetSafetyException {
        if (isBlockDevice(target)) {
            return prepareDevice(target, writes, allowDestroyData);
        }
        if (Files.exists(target) && !Files.isRegularFile(target)) {
            throw new TargetSafetyException("target " + target + " is neither a regular file nor a block device");
        }
        return prepareFile(target, requestedSizeBytes);
    }

    public static boolean isBlockDevice(Path path) throws IOException {
        if (!Files.exists(path)) {
            return false;
        }
        int mode = (Integer) Files.getAttribute(path, "unix:mode");
        return (mode & 0170000) == 0060000;
    }

    private PreparedTarget prepareFile(Path file, OptionalLong requested) throws IOException, TargetSafetyException {
        List<String> notes = new ArrayList<>();
        if (Files.exists(file)) {
            long size = Files.size(file);
            if (requested.isEmpty()) {
                if (size == 0) {
                    throw new TargetSafetyException("target file " + file + " is empty and no size was given:"
                            + " pass a size (--size or the workload's targetSize)");
                }
                notes.add("using the existing file " + file + " whole (" + size + " bytes)");
                return new PreparedTarget(file, false, size, false, notes);
            }
            long want = requested.getAsLong();
            if (size < want) {
                throw new TargetSafetyException("target file " + file + " exists with " + size + " bytes, less than"
                        + " the requested " + want + " bytes; ssdpulse never grows a file it did not create:"
                        + " delete it, choose another path, or request at most " + size + " bytes");
            }
            if (size > want) {
                notes.add("the existing file " + file + " has " + size + " bytes; using its first " + want);
            }
            return new PreparedTarget(file, false, want, false, notes);
        }
        if (requested.isEmpty() || requested.getAsLong() <= 0) {
            throw new TargetSafetyException("target file " + file + " does not exist and no size was given:"
                    + " pass a size (--size or the workload's targetSize) so ssdpulse can create it");
        }
        long want = requested.getAsLong();
        Path parent = file.toAbsolutePath().getParent();
        if (parent != null && Files.getFileStore(parent).getUsableSpace() < want) {
            throw new TargetSafetyException("cannot create " + file + " with " + want + " bytes: only "
                    + Files.getFileStore(parent).getUsableSpace() + " bytes free on its file system");
        }
        fill(file, want);
        notes.add("created " + file + " with " + want + " bytes of incompressible data");
        return new PreparedTarget(file, false, want, true, notes);
    }

    /** Writes {@code sizeBytes} of pseudo-random data to a partial file, syncs it and renames it into place. */
    static void fill(Path file, long sizeBytes) throws IOException {
        Path partial = file.resolveSibling(file.getFileName() + ".ssdpulse-partial");
        ByteBuffer chunk = ByteBuffer.allocateDirect(FILL_CHUNK_BYTES).order(ByteOrder.LITTLE_ENDIAN);
        long s = 0x9E3779B97F4A7C15L ^ System.nanoTime();
        try (FileChannel ch = FileChannel.open(
                partial, StandardOpenOption.CREATE, StandardOpenOption.WRITE, StandardOpenOption.TRUNCATE_EXISTING)) {
            long written = 0;
            while (written < sizeBytes) {
                chunk.clear();
                for (int i = 0; i < FILL_CHUNK_BYTES; i += 8) {
                    s ^= s >>> 12;
                    s ^= s << 25;
                    s ^= s >>> 27;
                    chunk.putLong(i, s * 0x2545F4914F6CDD1DL);
                }
                chunk.limit((int) Math.min(FILL_CHUNK_BYTES, sizeBytes - written));
                while (chunk.hasRemaining()) {
                    written += ch.write(chunk, written);
                }
            }
            ch.force(true);
        } catch (IOException e) {
            Files.deleteIfExists(partial);
            throw e;
        }
        Files.move(partial, file, StandardCopyOption.ATOMIC_MOVE);
    }

    private PreparedTarget prepareDevice(Path device, boolean writes, boolean allowDestroyData)
            throws IOException, TargetSafetyException {
        String majMin = majorMinor((Long) Files.getAttribute(device, "unix:rdev"));
        Path sysDir = sysRoot.resolve("dev/block").resolve(majMin);
        String name = Files.exists(sysDir)
                ? sysDir.toRealPath().getFileName().toString()
                : device.toRealPath().getFileName().toString();
        Path classDir = Files.exists(sysDir)
                ? sysDir.toRealPath()
                : sysRoot.resolve("class/block").resolve(name);
        long size = readLong(classDir.resolve("size")) * 512;
        if (size <= 0) {
            try (FileChannel ch = FileChannel.open(device, StandardOpenOption.READ)) {
                size = ch.size();
            }
        }
        List<String> notes = new ArrayList<>();
        if (writes) {
            List<String> problems = deviceProblems(device, name, classDir);
            if (!problems.isEmpty()) {
                String text = "refusing to write to block device " + device + " (" + name + "): "
                        + String.join("; ", problems)
                        + ". Writing would destroy its data; pass --allow-destroy-data to override";
                if (!allowDestroyData) {
                    throw new TargetSafetyException(text);
                }
                notes.add("--allow-destroy-data given, overriding: " + String.join("; ", problems));
            }
        } else {
            notes.add("read-only workload on " + device + ": device checks skipped");
        }
        return new PreparedTarget(device, true, size, false, notes);
    }

    /**
     * Every reason not to write to a device, empty when it looks unused.
     *
     * @param device   path to read signatures from (a file in tests: read exactly as a device)
     * @param name     kernel name (sda, nvme0n1, loop0)
     * @param classDir the device's sysfs directory (partitions are subdirectories holding a "partition" file)
     */
    List<String> deviceProblems(Path device, String name, Path classDir) throws IOException {
        Map<String, String> names = new LinkedHashMap<>(); // kernel name -> "MAJ:MIN"
        names.put(name, readString(classDir.resolve("dev")));
        List<String> holders = new ArrayList<>(list(classDir.resolve("holders")));
        if (Files.isDirectory(classDir)) {
            try (DirectoryStream<Path> ds = Files.newDirectoryStream(classDir)) {
                for (Path child : ds) {
                    if (Files.exists(child.resolve("partition"), LinkOption.NOFOLLOW_LINKS)) {
                        names.put(child.getFileName().toString(), readString(child.resolve("dev")));
                        holders.addAll(list(child.resolve("holders")));
                    }
                }
            }
        }
        List<String> problems = new ArrayList<>();
        List<String> mounted = mountedAmong(names);
        if (!mounted.isEmpty()) {
            problems.add("mounted: " + String.join(", ", mounted));
        }
        List<String> swap = swapAmong(names);
        if (!swap.isEmpty()) {
            problems.add("in use as swap: " + String.join(", ", swap));
        }
        if (!holders.isEmpty()) {
            problems.add("held by " + String.join(", ", holders) + " (device-mapper / MD RAID / LVM)");
        }
        if (names.size() > 1) {
            problems.add("has partitions "
                    + String.join(", ", names.keySet().stream().skip(1).toList()));
        }
        for (String sig : SignatureProbe.probe(device)) {
            problems.add("signature found: " + sig);
        }
        return problems;
    }

    private List<String> mountedAmong(Map<String, String> names) throws IOException {
        List<String> hits = new ArrayList<>();
        for (Path mounts : List.of(procRoot.resolve("self/mounts"), procRoot.resolve("mounts"))) {
            if (!Files.isReadable(mounts)) {
                continue;
            }
            for (String line : Files.readAllLines(mounts)) {
                String[] f = line.split(" ");
                if (f.length < 2 || !f[0].startsWith("/")) {
                    continue;
                }
                String source = unescape(f[0]);
                String hit = matchDevice(source, names);
                if (hit != null) {
                    String entry = hit + " on " + unescape(f[1]);
                    if (!hits.contains(entry)) {
                        hits.add(entry);
                    }
                }
            }
        }
        return hits;
    }

    private List<String> swapAmong(Map<String, String> names) throws IOException {
        Path swaps = procRoot.resolve("swaps");
        List<String> hits = new ArrayList<>();
        if (Files.isReadable(swaps)) {
            for (String line : Files.readAllLines(swaps)) {
                String[] f = line.trim().split("\\s+");
                if (f.length > 0 && f[0].startsWith("/")) {
                    String hit = matchDevice(unescape(f[0]), names);
                    if (hit != null) {
                        hits.add(hit);
                    }
                }
            }
        }
        return hits;
    }

    /** The kernel name of {@code names} that {@code source} denotes, by real path name or by major:minor. */
    private static String matchDevice(String source, Map<String, String> names) {
        Path p = Path.of(source);
        String base = p.getFileName() == null ? "" : p.getFileName().toString();
        try {
            if (Files.exists(p)) {
                Path real = p.toRealPath();
                base = real.getFileName().toString();
                if (isBlockDevice(real)) {
                    String mm = majorMinor((Long) Files.getAttribute(real, "unix:rdev"));
                    for (Map.Entry<String, String> e : names.entrySet()) {
                        if (mm.equals(e.getValue())) {
                            return e.getKey();
                        }
                    }
                }
            }
        } catch (IOException | RuntimeException ignored) {
            // an unreadable mount source falls back to the name comparison below
        }
        return names.containsKey(base) ? base : null;
    }

    /** Linux dev_t decoding (glibc's gnu_dev_major/minor). */
    public static String majorMinor(long dev) {
        long major = ((dev >>> 8) & 0xFFF) | ((dev >>> 32) & ~0xFFFL);
        long minor = (dev & 0xFF) | ((dev >>> 12) & ~0xFFL);
        return major + ":" + minor;
    }

    private static String unescape(String s) {
        return s.replace("\\040", " ")
                .replace("\\011", "\t")
                .replace("\\012", "\n")
                .replace("\\134", "\\");
    }

    private static List<String> list(Path dir) throws IOException {
        List<String> out = new ArrayList<>();
        if (Files.isDirectory(dir)) {
            try (DirectoryStream<Path> ds = Files.newDirectoryStream(dir)) {
                ds.forEach(p -> out.add(p.getFileName().toString()));
            }
        }
        return out;
    }

    private static String readString(Path p) {
        try {
            return Files.readString(p).trim();
        } catch (IOException e) {
            return "";
        }
    }

    private static long readLong(Path p) {
        try {
            return Long.parseLong(readString(p));
        } catch (NumberFormatException e) {
            return -1;
        }
    }
}
