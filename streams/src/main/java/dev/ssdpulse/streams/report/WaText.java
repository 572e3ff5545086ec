package dev.ssdpulse.streams.report;

import dev.ssdpulse.schemas.avro.PhaseSummary;
import dev.ssdpulse.schemas.avro.WriteAmplification;
import dev.ssdpulse.streams.waf.PhaseWa;
import dev.ssdpulse.streams.waf.WaBounds;
import java.util.Locale;

/**
 * Write amplification as people read it in the reports (HTML report, the CLI's text summary), from the figures the
 * analytics stored — never recomputed here. A drive's counters move in steps, so WA is a range ({@link WaBounds});
 * it is written with its range where the range shows at two decimals ("1.45 (1.43-1.47)"), and as "not yet
 * resolvable (1.20-1.90)" until the range lies within 5 % of it. The counters themselves are in the record's unit:
 * bytes for most sources, NAND pages (Crucial/Micron SATA) or a vendor's own unit for others, never written as
 * bytes then.
 */
public final class WaText {
    /** The unit of byte counters in the WA records. */
    public static final String BYTES = "B";

    private static final long MIB = 1L << 20;
    private static final long GIB = 1L << 30;

    private WaText() {}

    /** A phase's WA and range as its summary stores them; null without a WA. */
    public static PhaseWa of(PhaseSummary p) {
        return p.getWriteAmplification() == null
                ? null
                : new PhaseWa(
                        p.getWriteAmplification(),
                        new WaBounds(
                                p.getWriteAmplificationLow(),
                                p.getWriteAmplificationHigh(),
                                p.getWriteAmplificationResolved()));
    }

    /** The cumulative WA (since the run's first SMART sample) of a WA record; null without a WA. */
    public static PhaseWa cumulative(WriteAmplification w) {
        return w == null || w.getWaCumulative() == null
                ? null
                : new PhaseWa(
                        w.getWaCumulative(),
                        new WaBounds(w.getWaCumulativeLow(), w.getWaCumulativeHigh(), w.getWaCumulativeResolved()));
    }

    /** Whether the figure is shown as not yet resolvable (its range wider than 5 % of it). */
    public static boolean unresolved(PhaseWa wa) {
        return wa != null && wa.wa() != null && !wa.bounds().resolved();
    }

    /**
     * "1.45", "1.45 (1.43-1.47)" or "not yet resolvable (1.20-1.90)" ("(at least 1.20)" while the range has no
     * upper bound); null without a WA.
     */
    public static String text(PhaseWa wa) {
        if (wa == null || wa.wa() == null) {
            return null;
        }
        String range = range(wa, "-");
        if (unresolved(wa)) {
            return range == null ? "not yet resolvable" : "not yet resolvable (" + range + ")";
        }
        return range == null ? two(wa.wa()) : two(wa.wa()) + " (" + range + ")";
    }

    /**
     * The range as written, its ends joined by {@code to} ("1.43-1.47", "1.43 to 1.47"), "at least 1.20" without an
     * upper bound; null where it does not show at two decimals (exact counters) or is not known (records stored
     * before WA had bounds). An unresolved WA always has its range written.
     */
    public static String range(PhaseWa wa, String to) {
        if (wa == null || wa.wa() == null || wa.bounds().low() == null) {
            return null;
        }
        String low = two(wa.bounds().low());
        if (wa.bounds().high() == null) {
            return "at least " + low;
        }
        String high = two(wa.bounds().high());
        return low.equals(high) && !unresolved(wa) ? null : low + to + high;
    }

    /**
     * The counters a run's cumulative WA is the ratio of, in their unit: "NAND 12.35 GB (11.50 GiB) / host 8.51 GB
     * (7.93 GiB)" for bytes, "NAND 1,234,567 / host 1,000,000 in NAND pages" otherwise.
     */
    public static String counters(WriteAmplification w) {
        if (BYTES.equals(w.getUnit())) {
            return "NAND " + ReportFormat.capacityText(w.getNandBytesWrittenCumulative()) + " / host "
                    + ReportFormat.capacityText(w.getHostBytesWrittenCumulative());
        }
        return "NAND " + ReportFormat.grouped(w.getNandBytesWrittenCumulative()) + " / host "
                + ReportFormat.grouped(w.getHostBytesWrittenCumulative()) + " in " + plural(w.getUnit());
    }

    /**
     * The counters' steps: "host counter step 32 MiB, NAND 1 GiB", "exact counters" when both are 0, in the
     * counters' unit where it is not bytes ("host counter step 1 NAND page, NAND 2 NAND pages").
     */
    public static String steps(WriteAmplification w) {
        if (w.getHostResolution() == 0 && w.getNandResolution() == 0) {
            return "exact counters";
        }
        return "host counter step " + step(w.getHostResolution(), w.getUnit()) + ", NAND "
                + step(w.getNandResolution(), w.getUnit());
    }

    /** What the y axis of a WA chart divides: "NAND / host bytes written", or the counters' unit. */
    public static String ratioOf(String unit) {
        return unit == null || BYTES.equals(unit)
                ? "NAND / host bytes written"
                : "NAND / host writes in " + plural(unit);
    }

    private static String step(long step, String unit) {
        if (step == 0) {
            return "exact";
        }
        if (!BYTES.equals(unit)) {
            return ReportFormat.grouped(step) + " " + (step == 1 ? unit : plural(unit));
        }
        if (step % GIB == 0) {
            return ReportFormat.grouped(step / GIB) + " GiB";
        }
        if (step % MIB == 0) {
            return ReportFormat.grouped(step / MIB) + " MiB";
        }
        return ReportFormat.grouped(step) + " B";
    }

    private static String plural(String unit) {
        return unit.endsWith("s") ? unit : unit + "s";
    }

    private static String two(double v) {
        return String.format(Locale.ROOT, "%.2f", v);
    }
}
