package dev.ssdpulse.streams.topology;

import dev.ssdpulse.schemas.avro.PhaseKind;
import dev.ssdpulse.streams.codec.BinaryReader;
import dev.ssdpulse.streams.codec.BinaryWriter;
import dev.ssdpulse.streams.summary.RunSummaryAccumulator;
import dev.ssdpulse.streams.window.RunWindowAggregator;
import dev.ssdpulse.streams.window.WindowResult;
import java.util.HashMap;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.function.Consumer;

/**
 * Everything the run processor knows about one run. The durable part is {@link #encode()}d into the run-state
 * store after every event; the steady-state detectors are not encoded but rebuilt from the window-series store
 * (see {@link RunEventProcessor}), because their input (one value per closed window) is already durable there.
 */
final class RunState {
    private static final int VERSION = 1;

    record PhaseInfo(String name, PhaseKind kind, long startNs) {
    }

    final String runId;
    final RunWindowAggregator windows;
    final RunSummaryAccumulator summary;
    /** Encoded summary, reused while the summary is unchanged (its histograms are compressed: costly). */
    private byte[] summaryBytes;
    String status = Names.STATUS_RUNNING;
    final TreeMap<Integer, PhaseInfo> phases = new TreeMap<>();
    int currentPhase = Integer.MIN_VALUE;
    /** Phases that ended (PhaseChanged to another) and whose final outputs wait for their windows to close. */
    final TreeMap<Integer, Long> pendingPhaseEndsNs = new TreeMap<>();
    /** Phases whose final outputs were emitted. */
    final TreeSet<Integer> finishedPhases = new TreeSet<>();
    /** Highest batchSequence seen per worker: one worker's batches are ordered in the partition. */
    final TreeMap<Integer, Long> maxBatchSequence = new TreeMap<>();
    long duplicateBatchCount;
    long windowsSinceLatency;
    /** Transient: detectors by (phase, op) -> slots; rebuilt on a cache miss. */
    final Map<Long, SteadyStateSlots> detectors = new HashMap<>();

    RunState(String runId, RunWindowAggregator windows, RunSummaryAccumulator summary) {
        this.runId = runId;
        this.windows = windows;
        this.summary = summary;
    }

    void setOnClosed(Consumer<WindowResult> onClosed) {
        windows.setOnClosed(onClosed);
    }

    void summaryChanged() {
        summaryBytes = null;
    }

    boolean isRunning() {
        return Names.STATUS_RUNNING.equals(status);
    }

    static long detectorKey(int phaseIndex, int op) {
        return ((long) phaseIndex << 8) | op;
    }

    byte[] encode() {
        if (summaryBytes == null) {
            summaryBytes = summary.encodeState();
        }
        byte[] windowBytes = windows.encodeState();
        BinaryWriter out = new BinaryWriter(windowBytes.length + summaryBytes.length + 256);
        out.writeByte(VERSION);
        byte[] statusBytes = status.getBytes(java.nio.charset.StandardCharsets.UTF_8);
        out.writeBlock(statusBytes);
        out.writeVarLong(currentPhase);
        out.writeUnsignedVarLong(phases.size());
        for (Map.Entry<Integer, PhaseInfo> e : phases.entrySet()) {
            out.writeVarLong(e.getKey());
            out.writeBlock(e.getValue().name().getBytes(java.nio.charset.StandardCharsets.UTF_8));
            out.writeUnsignedVarLong(e.getValue().kind().ordinal());
            out.writeVarLong(e.getValue().startNs());
        }
        out.writeUnsignedVarLong(pendingPhaseEndsNs.size());
        for (Map.Entry<Integer, Long> e : pendingPhaseEndsNs.entrySet()) {
            out.writeVarLong(e.getKey()).writeVarLong(e.getValue());
        }
        out.writeUnsignedVarLong(finishedPhases.size());
        for (int p : finishedPhases) {
            out.writeVarLong(p);
        }
        out.writeUnsignedVarLong(maxBatchSequence.size());
        for (Map.Entry<Integer, Long> e : maxBatchSequence.entrySet()) {
            out.writeVarLong(e.getKey()).writeVarLong(e.getValue());
        }
        out.writeUnsignedVarLong(duplicateBatchCount).writeUnsignedVarLong(windowsSinceLatency);
        out.writeBlock(windowBytes);
        out.writeBlock(summaryBytes);
        return out.toByteArray();
    }

    static RunState decode(String runId, byte[] bytes) {
        BinaryReader in = new BinaryReader(bytes, "run state of " + runId);
        int version = in.readByte("version");
        if (version != VERSION) {
            throw new IllegalArgumentException("run state of " + runId + ": unsupported version " + version);
        }
        String status = new String(in.readBlock("status"), java.nio.charset.StandardCharsets.UTF_8);
        int currentPhase = (int) in.readVarLong("currentPhase");
        TreeMap<Integer, PhaseInfo> phases = new TreeMap<>();
        int n = in.readCount("phase count", 1 << 20);
        for (int i = 0; i < n; i++) {
            int index = (int) in.readVarLong("phase index");
            String name = new String(in.readBlock("phase name"), java.nio.charset.StandardCharsets.UTF_8);
            PhaseKind kind = PhaseKind.values()[in.readCount("phase kind", PhaseKind.values().length - 1)];
            phases.put(index, new PhaseInfo(name, kind, in.readVarLong("phase start")));
        }
        TreeMap<Integer, Long> pending = new TreeMap<>();
        n = in.readCount("pending count", 1 << 20);
        for (int i = 0; i < n; i++) {
            pending.put((int) in.readVarLong("pending phase"), in.readVarLong("pending end"));
        }
        TreeSet<Integer> finished = new TreeSet<>();
        n = in.readCount("finished count", 1 << 20);
        for (int i = 0; i < n; i++) {
            finished.add((int) in.readVarLong("finished phase"));
        }
        TreeMap<Integer, Long> seq = new TreeMap<>();
        n = in.readCount("worker count", 1 << 20);
        for (int i = 0; i < n; i++) {
            seq.put((int) in.readVarLong("worker"), in.readVarLong("max batch sequence"));
        }
        long duplicates = in.readUnsignedVarLong("duplicateBatchCount");
        long sinceLatency = in.readUnsignedVarLong("windowsSinceLatency");
        RunWindowAggregator windows = RunWindowAggregator.decodeState(in.readBlock("windows"), w -> {
        });
        byte[] summaryBytes = in.readBlock("summary");
        in.expectEnd();
        RunState state = new RunState(runId, windows, RunSummaryAccumulator.decodeState(summaryBytes));
        state.summaryBytes = summaryBytes;
        state.status = status;
        state.currentPhase = currentPhase;
        state.phases.putAll(phases);
        state.pendingPhaseEndsNs.putAll(pending);
        state.finishedPhases.addAll(finished);
        state.maxBatchSequence.putAll(seq);
        state.duplicateBatchCount = duplicates;
        state.windowsSinceLatency = sinceLatency;
        return state;
    }
}
