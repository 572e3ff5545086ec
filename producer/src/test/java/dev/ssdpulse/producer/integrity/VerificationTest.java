package dev.ssdpulse.producer.integrity;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.ssdpulse.schemas.iobatch.IoFlags;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/**
 * The verification core against a log and a content written out by hand: each class, each durability model, and
 * the same answer whatever order the log holds its workers' writes in.
 */
class VerificationTest {
    private static final long RUN = 0x5EED;
    private static final long US = 1000;

    /** A run's log, as the verification reads it. */
    static final class Log implements RunLog {
        final List<Object[]> ios = new ArrayList<>();
        int streams;

        Log write(long seq, long lba, int units, long submitUs, long completeUs) {
            return write(0, seq, lba, units, submitUs, completeUs, IoFlags.NONE);
        }

        Log write(int worker, long seq, long lba, int units, long submitUs, long completeUs, int flags) {
            ios.add(new Object[] {"W", worker, seq, lba, units, submitUs, completeUs, flags, 0});
            return this;
        }

        Log failedWrite(long seq, long lba, long submitUs, long completeUs) {
            ios.add(new Object[] {"W", 0, seq, lba, 1, submitUs, completeUs, 0, 5});
            return this;
        }

        Log flush(long submitUs, long completeUs) {
            ios.add(new Object[] {"F", 0, submitUs, completeUs});
            return this;
        }

        Log trim(long lba, int units, long submitUs, long completeUs) {
            ios.add(new Object[] {"T", 0, lba, units, submitUs, completeUs});
            return this;
        }

        @Override
        public void stream(Visitor v) {
            streams++;
            for (Object[] io : ios) {
                switch ((String) io[0]) {
                    case "W" ->
                        v.write(
                                (int) io[1],
                                0,
                                (long) io[2],
                                (long) io[3] * UnitStamp.UNIT_BYTES,
                                (int) io[4] * UnitStamp.UNIT_BYTES,
                                (long) io[5] * US,
                                (long) io[6] * US,
                                (int) io[7],
                                (int) io[8]);
                    case "F" -> v.flush((int) io[1], 0, (long) io[2] * US, (long) io[3] * US, 0);
                    default ->
                        v.trim(
                                (int) io[1],
                                0,
                                (long) io[2] * UnitStamp.UNIT_BYTES,
                                (long) (int) io[3] * UnitStamp.UNIT_BYTES,
                                (long) io[4] * US,
                                (long) io[5] * US,
                                0);
                }
            }
        }
    }

    /** The target: what each unit holds (zeros where nothing was put). */
    static final class Target implements UnitContents {
        final Map<Long, UnitStamp.Observation> units = new TreeMap<>();
        final List<Long> read = new ArrayList<>();

        Target holds(long lba, long seq) {
            return stamp(lba, RUN, lba, seq, UnitStamp.State.STAMPED);
        }

        Target stamp(long lba, long runHash, long stampLba, long seq, UnitStamp.State state) {
            UnitStamp.Observation o = new UnitStamp.Observation();
            o.state = state;
            o.runHash = runHash;
            o.lba = stampLba;
            o.sequence = seq;
            units.put(lba, o);
            return this;
        }

        Target other(long lba) {
            UnitStamp.Observation o = new UnitStamp.Observation();
            o.state = UnitStamp.State.UNSTAMPED;
            units.put(lba, o);
            return this;
        }

        @Override
        public void read(long[] extents, Observer observer) {
            UnitStamp.Observation zeros = new UnitStamp.Observation();
            zeros.state = UnitStamp.State.ZEROS;
            for (int i = 0; i < extents.length; i += 2) {
                for (long lba = extents[i]; lba < extents[i] + extents[i + 1]; lba++) {
                    read.add(lba);
                    observer.unit(lba, units.getOrDefault(lba, zeros));
                }
            }
        }
    }

    private static VerificationReport verify(Log log, Target target) throws IOException {
        return Verification.verify(new Verification.Options(RUN, false, Verification.Listener.NONE), log, target);
    }

    private static long lost(VerificationReport r, DurabilityModel m) {
        return r.model(m).lostUnits();
    }

    @Test
    void everyUnitHoldingItsLastWriteIsIntactAndNothingIsLostUnderAnyModel() throws IOException {
        Log log = new Log()
                .write(0, 10, 1, 0, 10)
                .write(1, 11, 2, 20, 30)
                .write(2, 10, 1, 40, 50)
                .flush(60, 70);
        Target target = new Target().holds(10, 2).holds(11, 1).holds(12, 1);
        VerificationReport r = verify(log, target);
        assertThat(r.unitsChecked()).isEqualTo(3);
        assertThat(r.count(UnitClass.INTACT)).isEqualTo(3);
        for (DurabilityModel m : DurabilityModel.values()) {
            assertThat(lost(r, m)).as(m.name()).isZero();
        }
        assertThat(r.model(DurabilityModel.FLUSHED).requiredUnits()).isEqualTo(3);
        assertThat(r.model(DurabilityModel.FUA).requiredUnits()).isZero();
        assertThat(r.lostWrites()).isZero();
        assertThat(r.coverage().lastFlushSubmitNs()).isEqualTo(60 * US);
        assertThat(r.coverage().lastCompletionNs()).isEqualTo(70 * US);
        assertThat(r.unitsWithRunStamp()).isEqualTo(3);
    }

    @Test
    void anOlderAcknowledgedWriteIsRevertedAndLostOnlyUnderTheModelsThatRequireTheNewerOne() throws IOException {
        // unit 5: write 0 flushed, then write 1 (not flushed) - holding 0 loses 1, which only ACKNOWLEDGED required
        // unit 6: write 2, write 3, then a flush that covers 3 - holding 2 loses 3 under FLUSHED too
        // unit 7: write 4 FUA, then write 5 - holding 4 loses nothing FUA required; holding zeros would
        Log log = new Log()
                .write(0, 5, 1, 0, 10)
                .write(0, 2, 6, 1, 0, 10, IoFlags.NONE)
                .write(0, 4, 7, 1, 0, 10, IoFlags.FUA)
                .flush(20, 25)
                .write(1, 5, 1, 30, 40)
                .write(0, 3, 6, 1, 12, 15, IoFlags.NONE)
                .write(0, 5, 7, 1, 30, 40, IoFlags.NONE)
                .flush(50, 55)
                .write(6, 8, 1, 60, 70);
        // (the second flush covers 1, 3 and 5: required under FLUSHED; 6 at unit 8 is after it)
        Target target = new Target().holds(5, 0).holds(6, 2).holds(7, 4).holds(8, 6);
        VerificationReport r = verify(log, target);
        assertThat(r.count(UnitClass.REVERTED)).isEqualTo(3);
        assertThat(lost(r, DurabilityModel.ACKNOWLEDGED)).isEqualTo(3);
        assertThat(lost(r, DurabilityModel.FLUSHED)).isEqualTo(3);
        assertThat(r.model(DurabilityModel.FUA).requiredUnits()).isEqualTo(1);
        assertThat(lost(r, DurabilityModel.FUA)).isZero();

        // the same, with only the first flush: unit 5 holds what FLUSHED required (0), unit 6's required write is 2
        Log early = new Log()
                .write(0, 5, 1, 0, 10)
                .write(2, 6, 1, 0, 10)
                .write(0, 3, 6, 1, 12, 15, IoFlags.NONE)
                .flush(20, 25)
                .write(1, 5, 1, 30, 40);
        VerificationReport e = verify(early, new Target().holds(5, 0).holds(6, 2));
        assertThat(e.count(UnitClass.REVERTED)).isEqualTo(2);
        assertThat(lost(e, DurabilityModel.ACKNOWLEDGED)).isEqualTo(2);
        // unit 5: 0 is the required write itself; unit 6: 3 completed before the flush, superseding 2
        assertThat(lost(e, DurabilityModel.FLUSHED)).isEqualTo(1);
        assertThat(early.streams).isEqualTo(3); // the third pass looked up the older writes' completions
    }

    @Test
    void zerosOrForeignContentWhereAWriteShouldBeIsLostUnderEveryModelThatRequiredOne() throws IOException {
        Log log = new Log()
                .write(0, 1, 1, 0, 10)
                .write(0, 1, 2, 1, 0, 10, IoFlags.FUA)
                .write(2, 3, 1, 0, 10)
                .write(3, 4, 1, 0, 10)
                .flush(20, 30)
                .write(4, 5, 1, 40, 50);
        Target target = new Target()
                .other(2)
                .stamp(3, 0xBAD, 3, 2, UnitStamp.State.STAMPED)
                .stamp(4, RUN, 9, 3, UnitStamp.State.STAMPED)
                .holds(5, 4);
        // unit 1 stays zeros
        VerificationReport r = verify(log, target);
        assertThat(r.count(UnitClass.LOST)).isEqualTo(4);
        assertThat(r.lost()).isEqualTo(new VerificationReport.LostContent(1, 1, 1, 1));
        assertThat(lost(r, DurabilityModel.ACKNOWLEDGED)).isEqualTo(4);
        assertThat(lost(r, DurabilityModel.FLUSHED)).isEqualTo(4);
        assertThat(lost(r, DurabilityModel.FUA)).isEqualTo(1);
        assertThat(r.lostWrites()).isEqualTo(4);
        // every lost write completed before write 4 was submitted, and write 4 survived: unserializable
        assertThat(r.unserializableWrites()).isEqualTo(4);
        assertThat(r.worstCases())
                .hasSize(4)
                .allSatisfy(w -> assertThat(w.ageNs()).isEqualTo(40 * US));
        assertThat(r.worstCases().get(0).content()).isEqualTo("zeros");
        assertThat(r.worstCases().get(0).flushed()).isTrue();
        assertThat(r.worstCases().get(1).fua()).isTrue();
    }

    @Test
    void aMultiUnitWriteWhoseUnitsDisagreeIsTornAndAHalfWrittenUnitToo() throws IOException {
        Log log = new Log()
                .write(0, 100, 2, 0, 10)
                .write(1, 100, 8, 20, 30)
                .write(2, 200, 1, 20, 30)
                .flush(40, 50);
        // write 1 (8 units) kept units 100-103 and lost 104-107: 104, 105 hold write 0, 106, 107 zeros
        Target target = new Target()
                .holds(100, 1)
                .holds(101, 1)
                .holds(102, 1)
                .holds(103, 1)
                .holds(104, 0)
                .holds(105, 0)
                .stamp(200, RUN, 200, 2, UnitStamp.State.CORRUPT);
        VerificationReport r = verify(log, target);
        assertThat(r.count(UnitClass.INTACT)).isEqualTo(4);
        assertThat(r.count(UnitClass.TORN)).isEqualTo(5);
        assertThat(r.count(UnitClass.REVERTED)).isZero();
        assertThat(r.model(DurabilityModel.FLUSHED).asTorn()).isEqualTo(5);
        assertThat(r.lostWrites()).isEqualTo(2);
        assertThat(r.worstCases())
                .extracting(VerificationReport.WorstCase::lba, VerificationReport.WorstCase::units)
                .containsExactlyInAnyOrder(
                        org.assertj.core.groups.Tuple.tuple(104L, 4L), org.assertj.core.groups.Tuple.tuple(200L, 1L));
    }

    @Test
    void aWriteTheLogNeverSawIsUnloggedNotLostAndAFailedWriteIsNotAcknowledged() throws IOException {
        Log log = new Log().write(0, 1, 1, 0, 10).write(1, 2, 1, 0, 10).failedWrite(2, 2, 20, 30);
        Target target = new Target().holds(1, 7).holds(2, 2);
        VerificationReport r = verify(log, target);
        assertThat(r.count(UnitClass.UNLOGGED)).isEqualTo(2);
        assertThat(lost(r, DurabilityModel.ACKNOWLEDGED)).isZero();
        assertThat(r.coverage().failedWrites()).isEqualTo(1);
    }

    @Test
    void writesInFlightTogetherMayLandInEitherOrderButAWriteCompletedBeforeTheLastOneWasSubmittedMayNot()
            throws IOException {
        Log log = new Log().write(0, 1, 1, 0, 5).write(1, 1, 1, 10, 100).write(2, 1, 1, 50, 150);
        assertThat(verify(log, new Target().holds(1, 1)).count(UnitClass.INTACT))
                .isEqualTo(1);
        assertThat(verify(log, new Target().holds(1, 2)).count(UnitClass.INTACT))
                .isEqualTo(1);
        assertThat(verify(log, new Target().holds(1, 0)).count(UnitClass.REVERTED))
                .isEqualTo(1);
    }

    @Test
    void theAnswerIsTheSameWhateverOrderTheLogHoldsItsWorkersWritesIn() throws IOException {
        Random random = new Random(7);
        Log log = new Log();
        long t = 0;
        for (int i = 0; i < 2000; i++) {
            long submit = t + random.nextInt(50);
            log.write(
                    i % 4, i, random.nextInt(300), 1 + random.nextInt(3), submit, submit + 1 + random.nextInt(200), 0);
            t += 3;
            if (i % 100 == 99) {
                log.flush(t, t + 5);
            }
        }
        Target target = new Target();
        for (long lba = 0; lba < 305; lba++) {
            target.holds(lba, random.nextInt(2000));
        }
        VerificationReport inOrder = verify(log, target);
        for (int shuffle = 0; shuffle < 3; shuffle++) {
            Collections.shuffle(log.ios, random);
            assertThat(verify(log, target)).usingRecursiveComparison().isEqualTo(inOrder);
        }
        assertThat(inOrder.unitsChecked()).isEqualTo(302);
    }

    /** One logged write as the brute-force oracle keeps it: everything, per unit. */
    private record W(long seq, long submit, long complete, boolean fua) {}

    @Test
    void randomRunsAgreeWithABruteForceJudgementThatKeepsEveryWriteOfEveryUnit() throws IOException {
        long[] seenClasses = new long[UnitClass.values().length];
        long[] seenLost = new long[DurabilityModel.values().length];
        int thirdPasses = 0;
        for (int round = 0; round < 20; round++) {
            Random random = new Random(round);
            Log log = new Log();
            Map<Long, List<W>> perUnit = new TreeMap<>();
            long t = 0;
            long lastFlushSubmit = -1;
            int writes = 300 + random.nextInt(300);
            for (int i = 0; i < writes; i++) {
                long submit = t + random.nextInt(20);
                long complete = submit + 1 + random.nextInt(60);
                long lba = random.nextInt(120);
                int units = random.nextInt(4) == 0 ? 1 + random.nextInt(6) : 1;
                boolean fua = random.nextInt(10) == 0;
                log.write(random.nextInt(4), i, lba, units, submit, complete, fua ? IoFlags.FUA : 0);
                for (long u = lba; u < lba + units; u++) {
                    perUnit.computeIfAbsent(u, k -> new ArrayList<>()).add(new W(i, submit, complete, fua));
                }
                t += 2;
                if (random.nextInt(40) == 0) {
                    lastFlushSubmit = t;
                    log.flush(t, t + 3);
                }
            }
            Target target = new Target();
            for (Map.Entry<Long, List<W>> e : perUnit.entrySet()) {
                List<W> ws = e.getValue();
                switch (random.nextInt(6)) {
                    case 0 -> {} // zeros
                    case 1 -> target.holds(e.getKey(), 1_000_000 + random.nextInt(9)); // unlogged
                    case 2 -> target.stamp(e.getKey(), RUN, e.getKey(), 0, UnitStamp.State.CORRUPT);
                    case 3, 4 ->
                        target.holds(
                                e.getKey(), ws.get(random.nextInt(ws.size())).seq());
                    default -> target.holds(e.getKey(), expected(ws).seq());
                }
            }
            VerificationReport r = verify(log, target);
            long[] classes = new long[UnitClass.values().length];
            long[][] lost = new long[DurabilityModel.values().length][1];
            UnitClass[] judged = new UnitClass[121 + 6];
            for (Map.Entry<Long, List<W>> e : perUnit.entrySet()) {
                judged[e.getKey().intValue()] = judge(e.getValue(), target.units.get(e.getKey()));
            }
            // torn: a write some of whose units hold it and others not
            for (Map.Entry<Long, List<W>> e : perUnit.entrySet()) {
                long u = e.getKey();
                UnitClass c = judged[(int) u];
                if (c != UnitClass.LOST && c != UnitClass.REVERTED) {
                    continue;
                }
                long seq = expected(e.getValue()).seq();
                for (int dir : new int[] {-1, 1}) {
                    for (long v = u + dir;
                            perUnit.containsKey(v) && expected(perUnit.get(v)).seq() == seq;
                            v += dir) {
                        UnitStamp.Observation o = target.units.get(v);
                        if (o != null && o.state == UnitStamp.State.STAMPED && o.sequence == seq) {
                            judged[(int) u] = UnitClass.TORN;
                        }
                    }
                }
            }
            for (Map.Entry<Long, List<W>> e : perUnit.entrySet()) {
                UnitClass c = judged[e.getKey().intValue()];
                classes[c.ordinal()]++;
                UnitStamp.Observation o = target.units.get(e.getKey());
                List<W> ws = e.getValue();
                long latest = ws.stream().mapToLong(W::submit).max().orElseThrow();
                long flushFloor = -1;
                long fuaFloor = -1;
                for (W w : ws) {
                    if (lastFlushSubmit >= 0 && w.complete() < lastFlushSubmit) {
                        flushFloor = Math.max(flushFloor, w.submit());
                    }
                    if (w.fua()) {
                        fuaFloor = Math.max(fuaFloor, w.submit());
                    }
                }
                long[] floors = {latest, flushFloor, fuaFloor};
                for (DurabilityModel m : DurabilityModel.values()) {
                    long floor = floors[m.ordinal()];
                    if (c == UnitClass.INTACT || c == UnitClass.UNLOGGED || floor < 0) {
                        continue;
                    }
                    W held = o != null && o.state == UnitStamp.State.STAMPED
                            ? ws.stream()
                                    .filter(w -> w.seq() == o.sequence)
                                    .findFirst()
                                    .orElse(null)
                            : null;
                    if (held == null || held.complete() < floor) {
                        lost[m.ordinal()][0]++;
                    }
                }
            }
            for (UnitClass c : UnitClass.values()) {
                assertThat(r.count(c)).as("round " + round + " " + c).isEqualTo(classes[c.ordinal()]);
            }
            for (DurabilityModel m : DurabilityModel.values()) {
                assertThat(lost(r, m)).as("round " + round + " " + m).isEqualTo(lost[m.ordinal()][0]);
                seenLost[m.ordinal()] += lost[m.ordinal()][0];
            }
            for (UnitClass c : UnitClass.values()) {
                seenClasses[c.ordinal()] += classes[c.ordinal()];
            }
            thirdPasses += log.streams == 3 ? 1 : 0;
        }
        // the rounds exercised every class, every model and the third pass
        assertThat(java.util.Arrays.stream(seenClasses).min().orElseThrow()).isPositive();
        assertThat(java.util.Arrays.stream(seenLost).min().orElseThrow()).isPositive();
        assertThat(thirdPasses).isPositive();
    }

    /** The unit's last write: submitted last, the later sequence of a tie. */
    private static W expected(List<W> ws) {
        return ws.stream()
                .max(java.util.Comparator.comparingLong(W::submit).thenComparingLong(W::seq))
                .orElseThrow();
    }

    private static UnitClass judge(List<W> ws, UnitStamp.Observation o) {
        if (o == null || o.state == UnitStamp.State.ZEROS || o.state == UnitStamp.State.UNSTAMPED) {
            return UnitClass.LOST;
        }
        if (o.state == UnitStamp.State.CORRUPT) {
            return UnitClass.TORN;
        }
        long latest = ws.stream().mapToLong(W::submit).max().orElseThrow();
        for (W w : ws) {
            if (w.seq() == o.sequence) {
                return w.complete() >= latest ? UnitClass.INTACT : UnitClass.REVERTED;
            }
        }
        return o.sequence >= 1_000_000 ? UnitClass.UNLOGGED : UnitClass.REVERTED;
    }

    @Test
    void aUnitTrimmedAfterItsLastWriteIsNotChecked() throws IOException {
        Log log = new Log().write(0, 1, 3, 0, 10).trim(2, 1, 20, 25).write(1, 3, 1, 30, 40);
        Target target = new Target().holds(1, 0).holds(3, 1);
        VerificationReport r = verify(log, target);
        assertThat(r.unitsChecked()).isEqualTo(2);
        assertThat(r.unitsTrimmed()).isEqualTo(1);
        assertThat(r.count(UnitClass.INTACT)).isEqualTo(2);
        // read through (one read for units 1-3), not classified
        assertThat(r.count(UnitClass.LOST)).isZero();
    }

    @Test
    void aTargetHoldingNoStampOfTheRunIsTheWrongOneUnlessForced() throws IOException {
        Log log = new Log().write(0, 1, 4, 0, 10);
        Target target = new Target().stamp(1, 0xBAD, 1, 0, UnitStamp.State.STAMPED);
        assertThatThrownBy(() -> verify(log, target))
                .isInstanceOf(WrongTargetException.class)
                .hasMessageContaining("none of the 4 units read carries a stamp of this run");
        VerificationReport forced =
                Verification.verify(new Verification.Options(RUN, true, Verification.Listener.NONE), log, target);
        assertThat(forced.count(UnitClass.LOST)).isEqualTo(4);
        assertThatThrownBy(() -> verify(new Log().failedWrite(0, 1, 0, 1), target))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("holds no stamped write");
    }

    @Test
    void aWrongTargetIsGivenUpOnceEnoughUnitsWereReadWithoutOneStampOfTheRun() throws IOException {
        Log log = new Log().write(0, 0, 70_000, 0, 10).write(1, 70_000, 30_000, 20, 30);
        Target target = new Target();
        assertThatThrownBy(() -> verify(log, target))
                .isInstanceOf(WrongTargetException.class)
                .hasMessageContaining("none of the " + Verification.WRONG_TARGET_AFTER_UNITS + " units read");
        // it stopped there instead of reading the rest of the target
        assertThat(target.read).hasSize((int) Verification.WRONG_TARGET_AFTER_UNITS);
    }

    @Test
    void lostWritesAreCountedByAgeBeforeTheLastLoggedCompletion() throws IOException {
        Log log = new Log()
                .write(0, 1, 1, 0, 10) // 99,990 us before the end
                .write(1, 2, 1, 95_000, 99_950) // 50 us
                .write(2, 3, 1, 99_000, 99_500) // 500 us
                .write(3, 4, 1, 99_990, 100_000);
        VerificationReport r = verify(log, new Target().holds(4, 3));
        assertThat(r.lostByAge().counts()).containsExactly(1L, 1L, 0L, 1L, 0L, 0L, 0L);
        assertThat(r.worstCases()).extracting(VerificationReport.WorstCase::lba).containsExactly(1L, 3L, 2L);
    }
}
