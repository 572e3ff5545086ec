package dev.ssdpulse.streams.topology;

import dev.ssdpulse.schemas.avro.IoBatch;
import dev.ssdpulse.schemas.avro.IoStreamRecord;
import dev.ssdpulse.schemas.avro.PhaseChanged;
import dev.ssdpulse.schemas.avro.PhaseKind;
import dev.ssdpulse.schemas.avro.RunFinished;
import dev.ssdpulse.schemas.avro.RunStatus;
import dev.ssdpulse.schemas.iobatch.IoBatchBuilder;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

/** A deterministic run: I/Os in completion order with phases, turned into IoStreamRecords for any batch size. */
final class SyntheticRun {
    record Io(int phase, int op, int sizeBytes, long submitNs, long latencyNs, int status) {
        long completionNs() {
            return submitNs + latencyNs;
        }
    }

    record Phase(int index, String name, PhaseKind kind, long startNs) {}

    final String runId;
    final List<Io> ios = new ArrayList<>();
    final List<Phase> phases = new ArrayList<>();
    long endNs;

    SyntheticRun(String runId) {
        this.runId = runId;
    }

    /**
     * ioPerSecond I/Os per second over [startNs, startNs + seconds), random ops (70 % reads), sizes 4-64 KiB,
     * latencies 20 us .. 300 ms (a few outliers above 10 ms), in completion order, starting a phase at startNs.
     */
    static SyntheticRun random(String runId, long seed, long startNs, int seconds, int ioPerSecond) {
        SyntheticRun run = new SyntheticRun(runId);
        run.phase(0, "precondition", PhaseKind.PRECONDITION_INDEPENDENT, startNs);
        run.add(seed, startNs, seconds / 2, ioPerSecond, 0);
        long testStart = startNs + (seconds / 2) * 1_000_000_000L;
        run.phase(1, "test", PhaseKind.TEST, testStart);
        run.add(seed + 1, testStart, seconds - seconds / 2, ioPerSecond, 1);
        run.endNs = startNs + seconds * 1_000_000_000L + 500_000_000L;
        return run;
    }

    SyntheticRun phase(int index, String name, PhaseKind kind, long startNs) {
        phases.add(new Phase(index, name, kind, startNs));
        return this;
    }

    /** Appends I/Os of a phase; completion times strictly after every earlier I/O's. */
    SyntheticRun add(long seed, long startNs, int seconds, int ioPerSecond, int phase) {
        SplittableRandom random = new SplittableRandom(seed);
        long gapNs = 1_000_000_000L / ioPerSecond;
        long completion = startNs;
        for (int i = 0; i < seconds * ioPerSecond; i++) {
            completion += gapNs;
            long latency = random.nextInt(100) < 2
                    ? 10_000_000L + random.nextLong(290_000_000L)
                    : 20_000 + random.nextLong(2_000_000L);
            int op = random.nextInt(100) < 70 ? 0 : 1;
            int size = 4096 << random.nextInt(5);
            ios.add(new Io(phase, op, size, completion - latency, latency, random.nextInt(1000) == 0 ? 5 : 0));
        }
        return this;
    }

    /** The whole run as records with at most batchSize I/Os per IoBatch, ending with RunFinished. */
    List<IoStreamRecord> records(int batchSize) {
        List<IoStreamRecord> out = new ArrayList<>();
        IoBatchBuilder builder = new IoBatchBuilder(runId, 0, batchSize);
        int nextPhase = 0;
        long bytesRead = 0;
        long bytesWritten = 0;
        for (Io io : ios) {
            while (nextPhase < phases.size() && phases.get(nextPhase).index() <= io.phase()) {
                addBatch(out, builder.flush());
                Phase p = phases.get(nextPhase++);
                out.add(new IoStreamRecord(new PhaseChanged(runId, p.index(), p.name(), p.kind(), p.startNs())));
            }
            addBatch(
                    out,
                    builder.add(
                            io.phase(),
                            (byte) io.op(),
                            0L,
                            io.sizeBytes(),
                            io.submitNs(),
                            io.latencyNs(),
                            1,
                            io.status()));
            if (io.op() == 0) {
                bytesRead += io.sizeBytes();
            } else {
                bytesWritten += io.sizeBytes();
            }
        }
        addBatch(out, builder.flush());
        out.add(new IoStreamRecord(finished(bytesRead, bytesWritten, builder.nextBatchSequence())));
        return out;
    }

    List<IoStreamRecord> recordsWithoutFinish(int batchSize) {
        List<IoStreamRecord> all = records(batchSize);
        return all.subList(0, all.size() - 1);
    }

    private RunFinished finished(long bytesRead, long bytesWritten, long batches) {
        return RunFinished.newBuilder()
                .setRunId(runId)
                .setStatus(RunStatus.COMPLETED)
                .setReason(null)
                .setTimeNs(endNs)
                .setWallClockEpochMs(Instant.ofEpochMilli(1_700_000_000_000L))
                .setIoCount(ios.size())
                .setIoCountPerWorker(List.of((long) ios.size()))
                .setBatchCountPerWorker(List.of(batches))
                .setBytesRead(bytesRead)
                .setBytesWritten(bytesWritten)
                .build();
    }

    private static void addBatch(List<IoStreamRecord> out, IoBatch batch) {
        if (batch != null) {
            out.add(new IoStreamRecord(batch));
        }
    }
}
