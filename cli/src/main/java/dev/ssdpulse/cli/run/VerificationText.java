package dev.ssdpulse.cli.run;

import dev.ssdpulse.producer.workload.Units;
import dev.ssdpulse.schemas.avro.LostWriteCase;
import dev.ssdpulse.schemas.avro.WriteLogCoverage;
import dev.ssdpulse.schemas.avro.WriteVerification;
import dev.ssdpulse.schemas.avro.WriteVerificationClasses;
import dev.ssdpulse.schemas.avro.WriteVerificationModelResult;
import java.io.PrintWriter;
import java.util.List;
import java.util.Locale;

/** A verification record as the verify command prints it. */
public final class VerificationText {
    private VerificationText() {}

    public static void print(WriteVerification v, PrintWriter out) {
        WriteLogCoverage c = v.getCoverage();
        double seconds = v.getReadNs() / 1e9;
        if (v.getReadNs() == 0) {
            // a simulated cut: the content comes from the drive model, nothing is read back
            out.printf(
                    Locale.ROOT,
                    "run %s: %,d units (%s) checked on %s, the content after the cut as the model holds it%n",
                    v.getRunId(),
                    v.getUnitsChecked(),
                    Units.describeBytes(v.getUnitsChecked() * 4096),
                    v.getTarget());
        } else {
            out.printf(
                    Locale.ROOT,
                    "run %s: %,d units (%s) checked on %s, %s read in %.1f s (%.1f MB/s)%n",
                    v.getRunId(),
                    v.getUnitsChecked(),
                    Units.describeBytes(v.getUnitsChecked() * 4096),
                    v.getTarget(),
                    Units.describeBytes(v.getReadBytes()),
                    seconds,
                    seconds > 0 ? v.getReadBytes() / seconds / 1e6 : 0);
        }
        out.printf(
                Locale.ROOT,
                "log: %,d writes (%,d FUA), %,d FLUSHes%s; it covers the run up to %.3f s (last logged completion"
                        + " %.3f s)%s%n",
                c.getWrites(),
                c.getFuaWrites(),
                c.getFlushes(),
                c.getLastFlushSubmitNs() == null
                        ? ""
                        : String.format(Locale.ROOT, ", the last submitted at %.3f s", c.getLastFlushSubmitNs() / 1e9),
                c.getCoveredUntilNs() / 1e9,
                c.getLastCompletionNs() / 1e9,
                v.getRunStatus() == null ? ", no RunFinished (the producer stopped)" : ", run " + v.getRunStatus());
        WriteVerificationClasses k = v.getClasses();
        out.printf(
                Locale.ROOT,
                "units: intact %,d, lost %,d, torn %,d, reverted %,d, unlogged %,d%s%n",
                k.getIntact(),
                k.getLost(),
                k.getTorn(),
                k.getReverted(),
                k.getUnlogged(),
                v.getUnitsTrimmed() > 0
                        ? String.format(Locale.ROOT, " (%,d trimmed, not checked)", v.getUnitsTrimmed())
                        : "");
        if (k.getLost() > 0) {
            var l = v.getLostContent();
            out.printf(
                    Locale.ROOT,
                    "  lost units held: zeros %,d, other data %,d, another run's stamp %,d, a stamp of another LBA %,d%n",
                    l.getZeros(),
                    l.getUnstamped(),
                    l.getOtherRun(),
                    l.getMisplaced());
        }
        out.println("lost units per durability model (lost / torn / reverted):");
        for (WriteVerificationModelResult m : v.getModels()) {
            out.printf(
                    Locale.ROOT,
                    "  %-50s %,d of %,d (%,d / %,d / %,d)%n",
                    switch (m.getModel()) {
                        case ACKNOWLEDGED -> "every acknowledged write";
                        case FLUSHED -> "writes acknowledged before the last FLUSH";
                        case FUA -> "FUA writes";
                        default -> m.getModel().name();
                    },
                    m.getLostUnits(),
                    m.getRequiredUnits(),
                    m.getLostAsLost(),
                    m.getLostAsTorn(),
                    m.getLostAsReverted());
        }
        out.printf(
                Locale.ROOT, "lost writes: %,d, unserializable: %,d%n", v.getLostWrites(), v.getUnserializableWrites());
        if (v.getLostWrites() > 0) {
            StringBuilder ages = new StringBuilder("lost writes by age before the last logged completion:");
            List<Long> bounds = v.getLostAgeBoundsNs();
            List<Long> counts = v.getLostAgeCounts();
            for (int i = 0; i < counts.size(); i++) {
                ages.append(i < bounds.size() ? " <=" + duration(bounds.get(i)) : " >" + duration(bounds.get(i - 1)))
                        .append(' ')
                        .append(counts.get(i))
                        .append(i + 1 < counts.size() ? "," : "");
            }
            out.println(ages);
            out.println("worst cases (oldest lost writes first):");
            for (LostWriteCase w : v.getWorstCases()) {
                out.printf(
                        Locale.ROOT,
                        "  LBA %,d (%d unit%s): write %d%s%s, completed at %.6f s, %s before the end: %s, holds %s%n",
                        w.getLba(),
                        w.getUnits(),
                        w.getUnits() == 1 ? "" : "s",
                        w.getWriteSequence(),
                        w.getFua() ? " FUA" : "",
                        w.getFlushed() ? " flushed" : "",
                        w.getCompleteNs() / 1e9,
                        duration(w.getAgeNs()),
                        w.getFound(),
                        w.getContent());
            }
        }
        var p = v.getPowerCounters();
        out.printf(
                "drive counters: unsafe shutdowns %s -> %s, PLP start count %s -> %s%s%n",
                text(p.getUnsafeShutdownsBefore()),
                text(p.getUnsafeShutdownsAfter()),
                text(p.getPlpStartCountBefore()),
                text(p.getPlpStartCountAfter()),
                p.getNote() == null ? "" : " (" + p.getNote() + ")");
    }

    private static String text(Long v) {
        return v == null ? "n/a" : Long.toString(v);
    }

    static String duration(long ns) {
        if (ns < 1_000_000) {
            return String.format(Locale.ROOT, "%.0f us", ns / 1e3);
        }
        if (ns < 1_000_000_000) {
            return String.format(Locale.ROOT, "%.0f ms", ns / 1e6);
        }
        return String.format(Locale.ROOT, "%.1f s", ns / 1e9);
    }
}
