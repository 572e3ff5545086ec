package dev.ssdpulse.streams.topology;

import dev.ssdpulse.schemas.avro.RunSummary;
import dev.ssdpulse.schemas.avro.SmartSample;
import dev.ssdpulse.schemas.avro.WriteAmplification;
import dev.ssdpulse.streams.avro.AvroMappers;
import dev.ssdpulse.streams.codec.BinaryReader;
import dev.ssdpulse.streams.codec.BinaryWriter;
import dev.ssdpulse.streams.waf.SmartCounters;
import dev.ssdpulse.streams.waf.WaInterval;
import dev.ssdpulse.streams.waf.WriteAmplificationAccumulator;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import org.apache.avro.specific.SpecificRecord;
import org.apache.kafka.streams.processor.api.Processor;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.processor.api.Record;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.KeyValueStore;

/**
 * Write amplification per run from ssdpulse.smart.v1 (co-partitioned with the I/O topic: same key, same
 * partition count, so it shares the run processor's task and stores). Every sample is appended to
 * {@link Names#SMART_SAMPLES_STORE} in arrival order; the accumulator lives in memory and is rebuilt on a miss
 * by replaying the run's samples, which reproduces it exactly (it is a deterministic fold over arrivals).
 * Samples are rare (about one a second per run), so the log costs little. Each interval becomes a
 * WriteAmplification output and a point of {@link Names#WAF_SERIES_STORE}. When the run has already been
 * summarized, the summary is re-emitted with the new cumulative WA, so the latest summary does not depend on
 * whether the last samples were processed before or after RunFinished.
 */
public final class WriteAmplificationProcessor implements Processor<String, SmartSample, String, SpecificRecord> {
    private final Map<String, RunWa> mirror = new HashMap<>();
    private ProcessorContext<String, SpecificRecord> context;
    private KeyValueStore<String, byte[]> samples;
    private KeyValueStore<String, WriteAmplification> series;
    private KeyValueStore<String, RunSummary> summaries;

    private static final class RunWa {
        final WriteAmplificationAccumulator accumulator = new WriteAmplificationAccumulator();
        long arrivals;
    }

    @Override
    public void init(ProcessorContext<String, SpecificRecord> context) {
        this.context = context;
        mirror.clear();
        samples = context.getStateStore(Names.SMART_SAMPLES_STORE);
        series = context.getStateStore(Names.WAF_SERIES_STORE);
        summaries = context.getStateStore(Names.RUN_SUMMARY_STORE);
    }

    @Override
    public void process(Record<String, SmartSample> record) {
        String runId = record.key();
        SmartSample sample = record.value();
        if (runId == null || sample == null) {
            return;
        }
        RunWa run = load(runId);
        SmartCounters counters = counters(sample);
        samples.put(StoreKeys.smartSample(runId, run.arrivals++), encode(counters));
        Optional<WaInterval> interval = run.accumulator.accept(counters);
        if (interval.isEmpty()) {
            return;
        }
        WriteAmplification wa = AvroMappers.writeAmplification(runId, sample.getSource(), interval.get());
        series.put(StoreKeys.waf(runId, interval.get().toTimeNs()), wa);
        context.forward(new Record<>(runId, wa, record.timestamp()), Names.WAF_SINK);
        RunSummary summary = summaries.get(runId);
        if (summary != null) {
            RunSummary updated = RunSummary.newBuilder(summary).setWriteAmplification(wa).build();
            summaries.put(runId, updated);
            context.forward(new Record<>(runId, updated, record.timestamp()), Names.WAF_SUMMARY_SINK);
        }
    }

    private RunWa load(String runId) {
        RunWa run = mirror.get(runId);
        if (run != null) {
            return run;
        }
        run = new RunWa();
        try (KeyValueIterator<String, byte[]> it = samples.range(StoreKeys.runPrefix(runId), StoreKeys.runEnd(runId))) {
            while (it.hasNext()) {
                run.accumulator.accept(decode(it.next().value));
                run.arrivals++;
            }
        }
        mirror.put(runId, run);
        return run;
    }

    static SmartCounters counters(SmartSample s) {
        return new SmartCounters(s.getTimeNs(), s.getHostBytesWritten(), s.getNandBytesWritten(),
                s.getNandBytesWrittenHost(), s.getNandBytesWrittenGc(), s.getNandBytesWrittenWearLeveling(),
                s.getNandBytesWrittenMetadata(), s.getFreeBlocks());
    }

    static byte[] encode(SmartCounters c) {
        BinaryWriter out = new BinaryWriter(64);
        out.writeVarLong(c.timeNs());
        for (Long v : new Long[] {c.hostBytesWritten(), c.nandBytesWritten(), c.nandBytesWrittenHost(),
                c.nandBytesWrittenGc(), c.nandBytesWrittenWearLeveling(), c.nandBytesWrittenMetadata(),
                c.freeBlocks()}) {
            out.writeByte(v == null ? 0 : 1);
            if (v != null) {
                out.writeVarLong(v);
            }
        }
        return out.toByteArray();
    }

    static SmartCounters decode(byte[] bytes) {
        BinaryReader in = new BinaryReader(bytes, "SMART sample");
        long time = in.readVarLong("timeNs");
        Long[] v = new Long[7];
        for (int i = 0; i < v.length; i++) {
            v[i] = in.readByte("present") == 0 ? null : in.readVarLong("counter");
        }
        in.expectEnd();
        return new SmartCounters(time, v[0], v[1], v[2], v[3], v[4], v[5], v[6]);
    }
}
