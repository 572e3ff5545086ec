package dev.ssdpulse.producer.device.guard;

import dev.ssdpulse.producer.workload.AccessSpec;
import dev.ssdpulse.producer.workload.PhaseKind;
import dev.ssdpulse.producer.workload.PhaseSpec;
import dev.ssdpulse.producer.workload.ScheduledPhase;
import dev.ssdpulse.producer.workload.Units;
import dev.ssdpulse.producer.workload.WorkloadSpec;
import dev.ssdpulse.producer.workload.WorkloadValidationException;
import dev.ssdpulse.producer.workload.WorkloadValidator;
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
 * requested size an existing file is used whole. A workload that writes is refused on an existing non-empty file
 * unless {@code allowDestroyData}: the refusal names its size, whether its first MiB holds data and any signature in
 * it. A file ssdpulse created earlier is no exception (nothing marks it reliably once another program may have
 * written to it); read-only workloads use any existing file.
 *
 * <p><b>Block devices.</b> Read-only workloads are always allowed. A workload that writes is refused, unless
 * {@code allowDestroyData}, when the device (a) or one of its partitions is mounted ({@code /proc/self/mounts},
 * {@code /proc/mounts}) or used as swap ({@code /proc/swaps}), (b) has holders (device-mapper, MD RAID), (c) carries
 * a partition table or (d) a file-system / volume signature ({@link SignatureProbe}). The exception lists every
 * check that fired and how to override.
 */
public final class TargetGuard {
    private static final int FILL_CHUNK_BYTES = 1 << 20;
    private static final int FIRST_MIB_BYTES = 1 << 20;
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
     * Prepares the target for {@code workload}: the checks above, then the fit. The workload's {@code targetSize}
     * is its test region from offset 0 (as in the simulator: seed 001's 160 GB test file): it must not exceed the
     * target, and every phase's span must lie inside it. Nothing is created or written before every check passed.
     *
     * @param target             file or block device path
     * @param requestedSizeBytes --size, the size of a file target; without it a missing file is created at the
     *                           workload's targetSize
     * @param allowDestroyData   --allow-destroy-data was given
     * @throws WorkloadValidationException a span that does not fit the target (each problem names both sizes)
     */
    public PreparedTarget prepare(
            Path target, OptionalLong requestedSizeBytes, WorkloadSpec workload, boolean allowDestroyData)
            throws IOException, TargetSafetyException {
        return prepare(target, requestedSizeBytes, workload, writesData(workload), allowDestroyData);
    }

    /**
     * As {@link #prepare(Path, OptionalLong, WorkloadSpec, boolean)}, where whether the workload writes is known
     * only to the caller (a REPLAY phase writes if its trace does).
     *
     * @param writes the workload writes, trims or purges: at least {@link #writesData}
     */
    public PreparedTarget prepare(
            Path target,
            OptionalLong requestedSizeBytes,
            WorkloadSpec workload,
            boolean writes,
            boolean allowDestroyData)
            throws IOException, TargetSafetyException {
        OptionalLong fileSize = requestedSizeBytes.isPresent() ? requestedSizeBytes : workload.targetSizeBytes();
        Plan plan = plan(target, fileSize, writes || writesData(workload), allowDestroyData);
        long regionBytes = plan.sizeBytes();
        List<String> notes = new ArrayList<>(plan.notes());
        if (workload.targetSizeBytes().isPresent()) {
            long region = workload.targetSizeBytes().getAsLong();
            if (region > plan.sizeBytes()) {
                throw new TargetSafetyException("workload '" + workload.name() + "' has a targetSize of "
                        + Units.describeBytes(region) + ", larger than " + (plan.blockDevice() ? "device " : "file ")
                        + target + " (" + Units.describeBytes(plan.sizeBytes()) + "): set a smaller one"
                        + " (--set targetSize=SIZE where the workload has that variable) or use a larger target");
            }
            if (region < plan.sizeBytes()) {
                notes.add("testing the first " + Units.describeBytes(region) + " of " + target
                        + " (the workload's targetSize)");
                regionBytes = region;
            }
        }
        WorkloadValidator.validateForTarget(workload, regionBytes, target.toString());
        return carryOut(new Plan(plan.path(), plan.blockDevice(), regionBytes, plan.create(), plan.writable(), notes));
    }

    /**
     * The guard's checks and preparation without a workload's fit.
     *
     * @param target             file or block device path
     * @param requestedSizeBytes size for a file target (--size or the workload's targetSize); ignored for devices
     * @param writes             the workload writes ({@link #writesData})
     * @param allowDestroyData   --allow-destroy-data was given
     */
    public PreparedTarget prepare(
            Path target, OptionalLong requestedSizeBytes, boolean writes, boolean allowDestroyData)
            throws IOException, TargetSafetyException {
        return carryOut(plan(target, requestedSizeBytes, writes, allowDestroyData));
    }

    /**
     * What the guard decided, before anything is written: the size to use, whether the file is to be created,
     * whether writing is allowed.
     */
    private record Plan(
            Path path, boolean blockDevice, long sizeBytes, boolean create, boolean writable, List<String> notes) {}

    private Plan plan(Path target, OptionalLong requestedSizeBytes, boolean writes, boolean allowDestroyData)
            throws IOException, TargetSafetyException {
        if (isBlockDevice(target)) {
            return planDevice(target, writes, allowDestroyData);
        }
        if (Files.exists(target) && !Files.isRegularFile(target)) {
            throw new TargetSafetyException("target " + target + " is neither a regular file nor a block device");
        }
        return planFile(target, requestedSizeBytes, writes, allowDestroyData);
    }

    /** Creates the file the plan asks for; the only place the guard writes. */
    private static PreparedTarget carryOut(Plan plan) throws IOException {
        List<String> notes = new ArrayList<>(plan.notes());
        if (plan.create()) {
            fill(plan.path(), plan.sizeBytes());
            notes.add("created " + plan.path() + " with " + Units.describeBytes(plan.sizeBytes())
                    + " of incompressible data");
        }
        return new PreparedTarget(
                plan.path(), plan.blockDevice(), plan.sizeBytes(), plan.create(), plan.writable(), notes);
    }

    public static boolean isBlockDevice(Path path) throws IOException {
        if (!Files.exists(path)) {
            return false;
        }
        int mode = (Integer) Files.getAttribute(path, "unix:mode");
        return (mode & 0170000) == 0060000;
    }

    private Plan planFile(Path file, OptionalLong requested, boolean writes, boolean allowDestroyData)
            throws IOException, TargetSafetyException {
        List<String> notes = new ArrayList<>();
        if (Files.exists(file)) {
            long size = Files.size(file);
            if (writes && size > 0) {
                String holds = existingData(file, size);
                if (!allowDestroyData) {
                    throw new TargetSafetyException("refusing to write to " + file + ": the file exists and holds "
                            + holds + "; the workload writes and would overwrite it. Pass --allow-destroy-data"
                            + " to overwrite it, or name a file that does not exist (ssdpulse creates it at --size)");
                }
                notes.add("--allow-destroy-data given: overwriting the existing file " + file + " (" + holds + ")");
            }
            if (requested.isEmpty()) {
                if (size == 0) {
                    throw new TargetSafetyException("target file " + file + " is empty and no size was given:"
                            + " pass a size (--size or the workload's targetSize)");
                }
                notes.add("using the existing file " + file + " whole (" + Units.describeBytes(size) + ")");
                return new Plan(file, false, size, false, writes, notes);
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
            return new Plan(file, false, want, false, writes, notes);
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
        return new Plan(file, false, want, true, writes, notes);
    }

    /**
     * What an existing file holds, for the refusal: its size, whether its first MiB holds anything but zeros, and
     * any partition table or file-system signature in it (a disk image).
     */
    static String existingData(Path file, long sizeBytes) throws IOException {
        StringBuilder text = new StringBuilder(Units.describeBytes(sizeBytes));
        text.append(firstMibIsZero(file) ? ", its first MiB all zeros" : ", its first MiB not all zeros");
        List<String> signatures = SignatureProbe.probe(file);
        if (!signatures.isEmpty()) {
            text.append(", ").append(String.join(", ", signatures));
        }
        return text.toString();
    }

    private static boolean firstMibIsZero(Path file) throws IOException {
        ByteBuffer b = ByteBuffer.allocate(FIRST_MIB_BYTES);
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.READ)) {
            while (b.hasRemaining() && ch.read(b, b.position()) >= 0) {
                // read until full or end of file
            }
        }
        byte[] data = b.array();
        for (int i = 0; i < b.position(); i++) {
            if (data[i] != 0) {
                return false;
            }
        }
        return true;
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

    private Plan planDevice(Path device, boolean writes, boolean allowDestroyData)
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
        return new Plan(device, true, size, false, writes, notes);
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
