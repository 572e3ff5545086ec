package dev.ssdpulse.producer.integrity;

import static dev.ssdpulse.producer.integrity.WriteLog.CLASS_MASK;
import static dev.ssdpulse.producer.integrity.WriteLog.CLASS_SHIFT;
import static dev.ssdpulse.producer.integrity.WriteLog.F_EXPECTED_FLUSHED;
import static dev.ssdpulse.producer.integrity.WriteLog.F_EXPECTED_FUA;
import static dev.ssdpulse.producer.integrity.WriteLog.F_OLD_GENERATION;
import static dev.ssdpulse.producer.integrity.WriteLog.KIND_MASK;
import static dev.ssdpulse.producer.integrity.WriteLog.KIND_SHIFT;
import static dev.ssdpulse.producer.integrity.WriteLog.P_FLUSHED;
import static dev.ssdpulse.producer.integrity.WriteLog.P_FUA;
import static dev.ssdpulse.producer.integrity.WriteLog.V_ACKNOWLEDGED;
import static dev.ssdpulse.producer.integrity.WriteLog.V_FLUSHED;
import static dev.ssdpulse.producer.integrity.WriteLog.V_FUA;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.PriorityQueue;

/**
 * Checks a target against a run's log: the one verification core, whatever supplies the log ({@link RunLog}) and
 * the content ({@link UnitContents}: a device read back, or a simulated drive's state).
 *
 * <ol>
 *   <li>The log, twice: first its range and its last FLUSH ({@link LogScan}), then per unit what it must hold
 *   ({@link WriteLog}).</li>
 *   <li>Every unit the log says was written, in LBA order: intact, lost, torn, reverted or unlogged
 *   ({@link UnitClass}). A multi-unit write some of whose units hold it and others do not is torn.</li>
 *   <li>Per durability model, whether the unit lost a write the model requires: the unit must hold that write or a
 *   later one. Where it holds an older acknowledged write and the model's required write is older than the unit's
 *   last one, that older write's completion decides; those few are looked up in a third pass over the log.</li>
 *   <li>Lost writes (a write whose units sit side by side counts once), unserializable ones, their ages before the
 *   last logged completion, the worst cases.</li>
 * </ol>
 */
public final class Verification {
    /** Worst cases kept in the report. */
    public static final int WORST_CASES = 20;
    /** Upper bounds of the lost-write age histogram: 100 us, 1 ms, 10 ms, 100 ms, 1 s, 10 s, more. */
    public static final List<Long> AGE_BOUNDS_NS =
            List.of(100_000L, 1_000_000L, 10_000_000L, 100_000_000L, 1_000_000_000L, 10_000_000_000L, Long.MAX_VALUE);
    /**
     * Checked units after which a target holding none of the run's stamps is given up as the wrong one (64 Ki units,
     * 256 MiB of written units): reading a whole device to report it "everything lost" would say nothing true.
     */
    public static final long WRONG_TARGET_AFTER_UNITS = 65_536;
    /** Gaps up to this many units between written units are read through: one long read beats two short ones. */
    static final long MERGE_GAP_UNITS = 64;

    private static final UnitClass[] CLASSES = UnitClass.values();

    /** Progress of a long verification. */
    public interface Listener {
        Listener NONE = new Listener() {};

        /** The log was read once more ({@code pass} from 1), {@code ios} I/Os. */
        default void logRead(int pass, long ios) {}

        /** {@code done} of {@code total} units read back. */
        default void unitsRead(long done, long total) {}
    }

    /**
     * @param runHash the run's {@link UnitStamp#runHash}
     * @param force   go on when no unit holds the run's stamp (else {@link WrongTargetException})
     */
    public record Options(long runHash, boolean force, Listener listener) {}

    private final Options options;
    private final RunLog log;
    private final UnitContents contents;
    private WriteLog units;

    private Verification(Options options, RunLog log, UnitContents contents) {
        this.options = options;
        this.log = log;
        this.contents = contents;
    }

    /**
     * Verifies {@code contents} against {@code log}.
     *
     * @throws IllegalArgumentException when the log holds no stamped write (nothing to check against)
     * @throws WrongTargetException     when the content holds no stamp of the run (unless forced)
     */
    public static VerificationReport verify(Options options, RunLog log, UnitContents contents) throws IOException {
        return verify(options, summarize(log), log, contents);
    }

    /** As {@link #verify(Options, RunLog, UnitContents)}, with the first pass over the log already made. */
    public static VerificationReport verify(Options options, LogSummary summary, RunLog log, UnitContents contents)
            throws IOException {
        return new Verification(options, log, contents).run(summary.scan);
    }

    /** The first pass alone: what the log holds (written range, FLUSHes, coverage), without reading the target. */
    public static LogSummary summarize(RunLog log) throws IOException {
        LogScan scan = new LogScan();
        log.stream(scan);
        return new LogSummary(scan);
    }

    /** What the first pass found. */
    public static final class LogSummary {
        private final LogScan scan;

        private LogSummary(LogScan scan) {
            this.scan = scan;
        }

        public VerificationReport.Coverage coverage() {
            return scan.coverage();
        }

        /** Whether the log holds a stamped write. */
        public boolean hasStampedWrites() {
            return scan.hasStampedWrites();
        }

        /** Bytes from the target's start to the end of the last unit a stamped write reached (0 without one). */
        public long writtenEndBytes() {
            return scan.hasStampedWrites() ? scan.endUnit << UnitStamp.UNIT_SHIFT : 0;
        }
    }

    private VerificationReport run(LogScan scan) throws IOException {
        if (!scan.hasStampedWrites()) {
            throw new IllegalArgumentException("the run's log holds no stamped write (" + scan.writes
                    + " writes logged): it was not run with verify: true or --verify-writes, so nothing on the target"
                    + " can be matched with it");
        }
        if (scan.maxSequence > WriteLog.MAX_SEQUENCE) {
            throw new IllegalArgumentException(
                    "write sequence " + scan.maxSequence + " is beyond what verification keeps per unit");
        }
        units = new WriteLog(scan);
        log.stream(units);
        options.listener().logRead(2, scan.writes);

        Classifier classifier = new Classifier();
        contents.read(extents(), classifier);
        classifier.closeGroup();
        if (classifier.checked != classifier.total) {
            throw new IllegalStateException("the content source reported " + classifier.checked + " of the "
                    + classifier.total + " units the log says were written");
        }
        if (classifier.unitsWithRunStamp == 0 && classifier.checked > 0 && !options.force()) {
            throw wrongTarget(classifier.checked);
        }
        resolvePending(classifier);
        return sweep(scan, classifier);
    }

    private WrongTargetException wrongTarget(long checked) {
        return new WrongTargetException("none of the " + checked + " units read carries a stamp of this run: the"
                + " target is not the device the run wrote, or it was overwritten since (were it the right device and"
                + " had it lost every write, --force would report that)");
    }

    /** The units to read: runs of units with an expected write, joined across short gaps. */
    long[] extents() {
        long[] out = new long[64];
        int n = 0;
        long start = -1;
        long last = -1;
        for (long u = 0; u < units.units; u++) {
            if (!units.state.pageAllocated(u)) {
                u = (u | (PagedLongs.PAGE_SIZE - 1)); // the whole page is unwritten
                continue;
            }
            if (!WriteLog.expected(units.state.get(u))) {
                continue;
            }
            if (start >= 0 && u - last <= MERGE_GAP_UNITS) {
                last = u;
                continue;
            }
            if (start >= 0) {
                if (n + 2 > out.length) {
                    out = Arrays.copyOf(out, out.length * 2);
                }
                out[n++] = units.baseUnit + start;
                out[n++] = last - start + 1;
            }
            start = u;
            last = u;
        }
        if (start >= 0) {
            if (n + 2 > out.length) {
                out = Arrays.copyOf(out, out.length + 2);
            }
            out[n++] = units.baseUnit + start;
            out[n++] = last - start + 1;
        }
        return Arrays.copyOf(out, n);
    }

    /** Classifies the units as they are read (ascending LBA), and finds torn multi-unit writes. */
    private final class Classifier implements UnitContents.Observer {
        long checked;
        long total;
        long unitsWithRunStamp;
        /** Latest submit tick of a logged write found intact: a write that completed before it and is lost is unserializable. */
        long latestSurvivingSubmitTick = -1;
        /** (unit, sequence) of units holding an older acknowledged write, in unit order. */
        long[] oldGeneration = new long[64];

        int oldGenerationCount;
        // the current group: consecutive units expecting the same write
        long groupStart = -1;
        long groupEnd = -1;
        long groupSequence = -1;
        boolean groupHasIntact;
        boolean groupHasBroken;

        Classifier() {
            for (long u = 0; u < units.units; u++) {
                if (!units.state.pageAllocated(u)) {
                    u |= PagedLongs.PAGE_SIZE - 1;
                } else if (WriteLog.expected(units.state.get(u))) {
                    total++;
                }
            }
        }

        @Override
        public void unit(long lba, UnitStamp.Observation seen) {
            long u = lba - units.baseUnit;
            if (u < 0 || u >= units.units) {
                return;
            }
            long st = units.state.get(u);
            if (!WriteLog.expected(st)) {
                return; // a gap read through, or a trimmed unit
            }
            checked++;
            if ((checked & 0xFFFF) == 0) {
                options.listener().unitsRead(checked, total);
            }
            if (checked == WRONG_TARGET_AFTER_UNITS && unitsWithRunStamp == 0 && !options.force()) {
                throw wrongTarget(checked);
            }
            long expectedSequence = WriteLog.sequenceOf(st);
            UnitClass c;
            int kind = 0;
            boolean exact = false;
            switch (seen.state) {
                case STAMPED -> {
                    if (seen.runHash != options.runHash()) {
                        c = UnitClass.LOST;
                        kind = WriteLog.KIND_OTHER_RUN;
                    } else {
                        unitsWithRunStamp++;
                        if (seen.lba != lba) {
                            c = UnitClass.LOST;
                            kind = WriteLog.KIND_MISPLACED;
                        } else if (seen.sequence == expectedSequence) {
                            c = UnitClass.INTACT;
                            exact = true;
                            survived(WriteLog.submitOf(units.times.get(u)));
                        } else {
                            long extra = (st & WriteLog.F_EXTRAS) != 0 ? units.extraTimes(u, seen.sequence) : -1;
                            if (extra >= 0) {
                                c = UnitClass.INTACT;
                                survived(WriteLog.submitOf(extra));
                            } else if (units.isLogged(seen.sequence)) {
                                c = UnitClass.REVERTED;
                                oldGeneration(u, seen.sequence);
                                st |= F_OLD_GENERATION;
                            } else {
                                c = UnitClass.UNLOGGED;
                            }
                        }
                    }
                }
                case CORRUPT -> {
                    if (seen.runHash == options.runHash()) {
                        unitsWithRunStamp++;
                        c = UnitClass.TORN;
                        kind = WriteLog.KIND_CORRUPT;
                    } else {
                        c = UnitClass.LOST;
                        kind = WriteLog.KIND_UNSTAMPED;
                    }
                }
                case ZEROS -> {
                    c = UnitClass.LOST;
                    kind = WriteLog.KIND_ZEROS;
                }
                default -> {
                    c = UnitClass.LOST;
                    kind = WriteLog.KIND_UNSTAMPED;
                }
            }
            st = (st & ~(CLASS_MASK | KIND_MASK))
                    | ((long) (c.ordinal() + 1) << CLASS_SHIFT)
                    | ((long) kind << KIND_SHIFT);
            units.state.set(u, st);
            group(u, expectedSequence, exact, c == UnitClass.LOST || c == UnitClass.REVERTED || c == UnitClass.TORN);
        }

        private void survived(long submitTick) {
            latestSurvivingSubmitTick = Math.max(latestSurvivingSubmitTick, submitTick);
        }

        private void oldGeneration(long u, long sequence) {
            if (oldGenerationCount + 2 > oldGeneration.length) {
                oldGeneration = Arrays.copyOf(oldGeneration, oldGeneration.length * 2);
            }
            oldGeneration[oldGenerationCount++] = u;
            oldGeneration[oldGenerationCount++] = sequence;
        }

        private void group(long u, long sequence, boolean intact, boolean broken) {
            if (u != groupEnd || sequence != groupSequence) {
                closeGroup();
                groupStart = u;
                groupSequence = sequence;
            }
            groupEnd = u + 1;
            groupHasIntact |= intact;
            groupHasBroken |= broken;
        }

        /** A write some units of which hold it and others not: those others are torn. */
        void closeGroup() {
            if (groupStart >= 0 && groupHasIntact && groupHasBroken) {
                for (long u = groupStart; u < groupEnd; u++) {
                    long st = units.state.get(u);
                    UnitClass c = classOf(st);
                    if (c == UnitClass.LOST || c == UnitClass.REVERTED) {
                        units.state.set(u, (st & ~CLASS_MASK) | ((long) (UnitClass.TORN.ordinal() + 1) << CLASS_SHIFT));
                    }
                }
            }
            groupStart = -1;
            groupEnd = -1;
            groupSequence = -1;
            groupHasIntact = false;
            groupHasBroken = false;
        }
    }

    static UnitClass classOf(long st) {
        int c = (int) ((st & CLASS_MASK) >>> CLASS_SHIFT);
        return c == 0 ? null : CLASSES[c - 1];
    }

    /**
     * The verdict of every unit per model; for a unit holding an older acknowledged write, whether that write was
     * superseded by the model's required one needs its completion, read from the log in a third pass.
     */
    private void resolvePending(Classifier classifier) throws IOException {
        for (long u = 0; u < units.units; u++) {
            if (!units.state.pageAllocated(u)) {
                u |= PagedLongs.PAGE_SIZE - 1;
                continue;
            }
            long st = units.state.get(u);
            UnitClass c = classOf(st);
            if (c == null || c == UnitClass.INTACT || c == UnitClass.UNLOGGED) {
                continue;
            }
            st |= V_ACKNOWLEDGED;
            long latestSubmit = WriteLog.submitOf(units.times.get(u));
            st = verdict(st, units.flushedFloor, u, latestSubmit, V_FLUSHED, P_FLUSHED);
            st = verdict(st, units.fuaFloor, u, latestSubmit, V_FUA, P_FUA);
            units.state.set(u, st);
        }
        long[] pending = classifier.oldGeneration;
        int n = classifier.oldGenerationCount;
        long[] wanted = new long[n / 2];
        int w = 0;
        for (int i = 0; i < n; i += 2) {
            if ((units.state.get(pending[i]) & (P_FLUSHED | P_FUA)) != 0) {
                wanted[w++] = pending[i + 1];
            }
        }
        if (w == 0) {
            return;
        }
        long[] sequences = Arrays.stream(wanted, 0, w).sorted().distinct().toArray();
        long[] completeTicks = new long[sequences.length];
        Arrays.fill(completeTicks, -1);
        log.stream(new RunLog.Visitor() {
            @Override
            public void write(
                    int worker,
                    int phaseIndex,
                    long sequence,
                    long offsetBytes,
                    int sizeBytes,
                    long submitNs,
                    long completeNs,
                    int flags,
                    int status) {
                int i = status == 0 ? Arrays.binarySearch(sequences, sequence) : -1;
                if (i >= 0) {
                    completeTicks[i] = units.completeTick(completeNs);
                }
            }

            @Override
            public void flush(int worker, int phaseIndex, long submitNs, long completeNs, int status) {}

            @Override
            public void trim(
                    int worker,
                    int phaseIndex,
                    long offsetBytes,
                    long sizeBytes,
                    long submitNs,
                    long completeNs,
                    int status) {}

            @Override
            public void other(int worker, int phaseIndex, long completeNs) {}
        });
        options.listener().logRead(3, sequences.length);
        for (int i = 0; i < n; i += 2) {
            long u = pending[i];
            long st = units.state.get(u);
            if ((st & (P_FLUSHED | P_FUA)) == 0) {
                continue;
            }
            long complete = completeTicks[Arrays.binarySearch(sequences, pending[i + 1])];
            st = settle(st, units.flushedFloor, u, complete, V_FLUSHED, P_FLUSHED);
            st = settle(st, units.fuaFloor, u, complete, V_FUA, P_FUA);
            units.state.set(u, st);
        }
    }

    /**
     * A non-intact unit under one model: no required write, no loss; content without a usable stamp, lost; an older
     * acknowledged write superseded by the unit's last write, which the model requires, lost; else pending.
     */
    private static long verdict(long st, PagedInts floors, long u, long latestSubmit, long violation, long pending) {
        int floor = floors == null ? 0 : floors.get(u);
        if (floor == 0) {
            return st;
        }
        if ((st & F_OLD_GENERATION) == 0) {
            return st | violation;
        }
        long floorSubmit = Integer.toUnsignedLong(floor) - 1;
        // the older write was superseded by the unit's latest write: by the required one too when that is as late
        return floorSubmit >= latestSubmit ? st | violation : st | pending;
    }

    private static long settle(long st, PagedInts floors, long u, long olderComplete, long violation, long pending) {
        if ((st & pending) == 0) {
            return st;
        }
        long floorSubmit = Integer.toUnsignedLong(floors.get(u)) - 1;
        // superseded: the required write was submitted after the older one completed (-1: not in the log, as lost)
        boolean lost = olderComplete < 0 || olderComplete < floorSubmit;
        return (st & ~pending) | (lost ? violation : 0);
    }

    private VerificationReport sweep(LogScan scan, Classifier classifier) {
        long[] classCounts = new long[CLASSES.length];
        long zeros = 0, unstamped = 0, otherRun = 0, misplaced = 0;
        DurabilityModel[] models = DurabilityModel.values();
        long[] required = new long[models.length];
        long[][] lostBy = new long[models.length][CLASSES.length];
        long[] ageCounts = new long[AGE_BOUNDS_NS.size()];
        long lostWrites = 0;
        long unserializable = 0;
        long trimmed = 0;
        PriorityQueue<VerificationReport.WorstCase> worst =
                new PriorityQueue<>(Comparator.comparingLong(VerificationReport.WorstCase::ageNs));
        long lastCompletionNs = scan.lastCompletionNs;
        // the lost write being followed: its first lost unit and how many follow
        long runSequence = -1;
        long runStart = -1;
        long runEnd = -1;
        long runState = 0;
        long runTimes = 0;
        long runOld = -1;
        int oldIndex = 0;
        for (long u = 0; u < units.units; u++) {
            if (!units.state.pageAllocated(u)) {
                u |= PagedLongs.PAGE_SIZE - 1;
                continue;
            }
            long st = units.state.get(u);
            if ((st & WriteLog.F_TRIMMED) != 0) {
                trimmed++;
                continue;
            }
            UnitClass c = classOf(st);
            if (c == null) {
                continue;
            }
            classCounts[c.ordinal()]++;
            switch ((int) ((st & KIND_MASK) >>> KIND_SHIFT)) {
                case WriteLog.KIND_ZEROS -> zeros += c == UnitClass.LOST ? 1 : 0;
                case WriteLog.KIND_UNSTAMPED -> unstamped += c == UnitClass.LOST ? 1 : 0;
                case WriteLog.KIND_OTHER_RUN -> otherRun += c == UnitClass.LOST ? 1 : 0;
                case WriteLog.KIND_MISPLACED -> misplaced += c == UnitClass.LOST ? 1 : 0;
                default -> {}
            }
            required[DurabilityModel.ACKNOWLEDGED.ordinal()]++;
            if (units.flushedFloor != null && units.flushedFloor.get(u) != 0) {
                required[DurabilityModel.FLUSHED.ordinal()]++;
            }
            if (units.fuaFloor != null && units.fuaFloor.get(u) != 0) {
                required[DurabilityModel.FUA.ordinal()]++;
            }
            if ((st & V_ACKNOWLEDGED) != 0) {
                lostBy[DurabilityModel.ACKNOWLEDGED.ordinal()][c.ordinal()]++;
            }
            if ((st & V_FLUSHED) != 0) {
                lostBy[DurabilityModel.FLUSHED.ordinal()][c.ordinal()]++;
            }
            if ((st & V_FUA) != 0) {
                lostBy[DurabilityModel.FUA.ordinal()][c.ordinal()]++;
            }
            long older = -1;
            if ((st & F_OLD_GENERATION) != 0) {
                while (oldIndex < classifier.oldGenerationCount && classifier.oldGeneration[oldIndex] < u) {
                    oldIndex += 2;
                }
                older = classifier.oldGeneration[oldIndex + 1];
            }
            if ((st & V_ACKNOWLEDGED) == 0) {
                continue;
            }
            long sequence = WriteLog.sequenceOf(st);
            if (sequence == runSequence && u == runEnd) {
                runEnd++;
                continue;
            }
            if (runSequence >= 0) {
                worstCase(worst, runStart, runEnd, runSequence, runState, runTimes, runOld, lastCompletionNs);
            }
            runSequence = sequence;
            runStart = u;
            runEnd = u + 1;
            runState = st;
            runTimes = units.times.get(u);
            runOld = older;
            lostWrites++;
            long completeTick = WriteLog.completeOf(runTimes);
            long ageNs = Math.max(0, lastCompletionNs - completeTick * units.tickNs);
            for (int b = 0; b < ageCounts.length; b++) {
                if (ageNs <= AGE_BOUNDS_NS.get(b)) {
                    ageCounts[b]++;
                    break;
                }
            }
            if (completeTick < classifier.latestSurvivingSubmitTick) {
                unserializable++;
            }
        }
        if (runSequence >= 0) {
            worstCase(worst, runStart, runEnd, runSequence, runState, runTimes, runOld, lastCompletionNs);
        }
        Map<UnitClass, Long> byClass = new EnumMap<>(UnitClass.class);
        for (UnitClass c : CLASSES) {
            byClass.put(c, classCounts[c.ordinal()]);
        }
        List<VerificationReport.ModelResult> results = new ArrayList<>();
        for (DurabilityModel m : models) {
            long[] l = lostBy[m.ordinal()];
            long lostUnits = Arrays.stream(l).sum();
            results.add(new VerificationReport.ModelResult(
                    m,
                    required[m.ordinal()],
                    lostUnits,
                    l[UnitClass.LOST.ordinal()],
                    l[UnitClass.TORN.ordinal()],
                    l[UnitClass.REVERTED.ordinal()]));
        }
        List<VerificationReport.WorstCase> worstCases = new ArrayList<>(worst);
        worstCases.sort(Comparator.comparingLong(VerificationReport.WorstCase::ageNs)
                .reversed()
                .thenComparingLong(VerificationReport.WorstCase::lba));
        return new VerificationReport(
                scan.coverage(),
                classifier.checked,
                trimmed,
                byClass,
                new VerificationReport.LostContent(zeros, unstamped, otherRun, misplaced),
                results,
                lostWrites,
                unserializable,
                new VerificationReport.AgeHistogram(
                        AGE_BOUNDS_NS, Arrays.stream(ageCounts).boxed().toList()),
                worstCases,
                classifier.unitsWithRunStamp,
                units.tickNs,
                units.stateBytes());
    }

    private void worstCase(
            PriorityQueue<VerificationReport.WorstCase> worst,
            long start,
            long end,
            long sequence,
            long st,
            long times,
            long older,
            long lastCompletionNs) {
        long completeNs = WriteLog.completeOf(times) * units.tickNs;
        long ageNs = Math.max(0, lastCompletionNs - completeNs);
        if (worst.size() == WORST_CASES && worst.peek().ageNs() >= ageNs) {
            return;
        }
        UnitClass c = classOf(st);
        String content = older >= 0
                ? "write " + older + " (older)"
                : switch ((int) ((st & KIND_MASK) >>> KIND_SHIFT)) {
                    case WriteLog.KIND_ZEROS -> "zeros";
                    case WriteLog.KIND_OTHER_RUN -> "another run's stamp";
                    case WriteLog.KIND_MISPLACED -> "a stamp of this run naming another LBA";
                    case WriteLog.KIND_CORRUPT -> "part of a stamp (CRC mismatch)";
                    default -> "other data";
                };
        worst.add(new VerificationReport.WorstCase(
                units.baseUnit + start,
                end - start,
                sequence,
                c,
                content,
                completeNs,
                ageNs,
                (st & F_EXPECTED_FUA) != 0,
                (st & F_EXPECTED_FLUSHED) != 0));
        if (worst.size() > WORST_CASES) {
            worst.poll();
        }
    }
}
