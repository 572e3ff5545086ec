package dev.ssdpulse.producer.playback;

import dev.ssdpulse.schemas.avro.IoBatch;
import dev.ssdpulse.schemas.avro.IoStreamRecord;
import dev.ssdpulse.schemas.avro.PhaseChanged;
import dev.ssdpulse.schemas.avro.RunFinished;
import dev.ssdpulse.schemas.avro.RunHeartbeat;
import dev.ssdpulse.schemas.avro.SmartSample;
import dev.ssdpulse.schemas.iobatch.IoBatchReader;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;

/**
 * The order and times in which a stored run is played back: its io events in their stored order (one run's
 * lifecycle events must stay behind its batches), SMART samples slotted in by event time, any SMART left over
 * before RunFinished. Each step carries its due event time, never decreasing, so pacing only ever waits.
 */
public final class PlaybackPlan {
    /** One record to send: an IoStreamRecord or a SmartSample, due at {@code dueNs} of run time. */
    public record Step(long dueNs, Object value) {}

    private PlaybackPlan() {}

    /** The whole plan at once (short runs, tests); {@link Merger} builds the same plan record by record. */
    public static List<Step> of(List<IoStreamRecord> io, List<SmartSample> smart) {
        Merger merger = new Merger(smart);
        List<Step> steps = new ArrayList<>(io.size() + smart.size());
        for (IoStreamRecord record : io) {
            steps.addAll(merger.next(record));
        }
        steps.addAll(merger.rest());
        return steps;
    }

    /**
     * Builds the plan while the io records stream in (a long run's io does not fit in memory; its SMART samples,
     * one per interval, do).
     */
    public static final class Merger {
        private final List<SmartSample> samples;
        private final IoBatchReader reader = new IoBatchReader();
        private int nextSample;
        private long due;

        public Merger(List<SmartSample> smart) {
            samples = new ArrayList<>(smart);
            samples.sort(Comparator.comparingLong(SmartSample::getTimeNs));
        }

        /** The SMART samples due before this io record, then the record. */
        public List<Step> next(IoStreamRecord record) {
            List<Step> steps = new ArrayList<>(2);
            Object event = record.getEvent();
            long t = event instanceof RunFinished ? Long.MAX_VALUE : eventTimeNs(event, reader);
            while (nextSample < samples.size() && samples.get(nextSample).getTimeNs() <= t) {
                due = Math.max(due, samples.get(nextSample).getTimeNs());
                steps.add(new Step(due, samples.get(nextSample++)));
            }
            if (event instanceof RunFinished f) {
                t = f.getTimeNs();
            }
            due = Math.max(due, t);
            steps.add(new Step(due, record));
            return steps;
        }

        /** The SMART samples left after the last io record. */
        public List<Step> rest() {
            List<Step> steps = new ArrayList<>();
            while (nextSample < samples.size()) {
                due = Math.max(due, samples.get(nextSample).getTimeNs());
                steps.add(new Step(due, samples.get(nextSample++)));
            }
            return steps;
        }
    }

    /** When an io event happened in run time: a batch at its last completion, others at their time. */
    static long eventTimeNs(Object event, IoBatchReader reader) {
        if (event instanceof IoBatch batch) {
            long max = 0;
            reader.reset(batch);
            while (reader.next()) {
                max = Math.max(max, reader.completionTimeNs());
            }
            return max;
        }
        if (event instanceof PhaseChanged p) {
            return p.getTimeNs();
        }
        if (event instanceof RunHeartbeat h) {
            return h.getTimeNs();
        }
        if (event instanceof RunFinished f) {
            return f.getTimeNs();
        }
        throw new IllegalArgumentException(
                "unknown io event " + event.getClass().getName());
    }

    /** "10x", "10", "0.5x" -> 10, 10, 0.5; must be a positive finite number. */
    public static double parseSpeed(String text) {
        String t = text.trim().toLowerCase(Locale.ROOT);
        if (t.endsWith("x")) {
            t = t.substring(0, t.length() - 1);
        }
        double speed;
        try {
            speed = Double.parseDouble(t);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("speed '" + text + "' is not a factor like 10x, 1x or 0.5x");
        }
        if (!Double.isFinite(speed) || speed <= 0 || speed > 1_000_000) {
            throw new IllegalArgumentException("speed '" + text + "' must be above 0 and at most 1000000x");
        }
        return speed;
    }
}
