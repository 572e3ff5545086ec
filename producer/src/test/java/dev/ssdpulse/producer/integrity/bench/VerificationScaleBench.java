package dev.ssdpulse.producer.integrity.bench;

import dev.ssdpulse.producer.integrity.DurabilityModel;
import dev.ssdpulse.producer.integrity.RunLog;
import dev.ssdpulse.producer.integrity.UnitClass;
import dev.ssdpulse.producer.integrity.UnitContents;
import dev.ssdpulse.producer.integrity.UnitStamp;
import dev.ssdpulse.producer.integrity.Verification;
import dev.ssdpulse.producer.integrity.VerificationReport;
import dev.ssdpulse.schemas.iobatch.IoFlags;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryPoolMXBean;
import java.lang.management.MemoryType;
import java.util.Locale;

/**
 * The verification core over a written span of the given size (100 GiB: 26.2 M units) in the heap the JVM was given
 * (bench/verify-scale.sh runs it with -Xmx1g): a synthetic log of the size of a real run's, each unit written twice
 * by 4 KiB writes in a scrambled order (a bijection of the units), a FLUSH every 256 writes and 1 in 7 writes FUA, so
 * every per-unit structure is there (16 bytes a unit, 4 for FLUSHED, 4 for FUA, a bit per write); and a content source
 * that reports each unit's last write intact but every 1,000th unit reverted to its first write (the third pass
 * then looks their completions up). Nothing is read from a device: this measures what the verification holds and
 * computes, not a read rate (bench/verify-vs-fio.sh does that). Prints the time, the report's counts, the per-unit
 * state's bytes and the heap's peak use after a full GC.
 * Usage: {@code VerificationScaleBench [GIB=100]}.
 */
public final class VerificationScaleBench {
    private static final long RUN = 0x5CA1E;
    private static final int FLUSH_EVERY = 256;

    private VerificationScaleBench() {}

    /** Unit i's write order position -> unit: a multiplicative bijection of 0..units-1. */
    private static long unitOf(long i, long units, long multiplier) {
        return Math.floorMod(i * multiplier + 12345, units);
    }

    public static void main(String[] args) throws Exception {
        long gib = args.length > 0 ? Long.parseLong(args[0]) : 100;
        long units = gib << (30 - UnitStamp.UNIT_SHIFT);
        long multiplier = 2_654_435_761L; // odd; units is a power of two
        long writes = 2 * units;
        // write w (0..2u-1) goes to unitOf(w mod u): pass 0 writes every unit once, pass 1 again; w's times in us
        RunLog log = visitor -> {
            for (long w = 0; w < writes; w++) {
                long u = unitOf(w % units, units, multiplier);
                long submitNs = w * 1000;
                visitor.write(
                        (int) (w & 1),
                        0,
                        w,
                        u << UnitStamp.UNIT_SHIFT,
                        UnitStamp.UNIT_BYTES,
                        submitNs,
                        submitNs + 700,
                        w % 7 == 3 ? IoFlags.FUA : IoFlags.NONE,
                        0);
                if (w % FLUSH_EVERY == FLUSH_EVERY - 1) {
                    visitor.flush(0, 0, submitNs + 800, submitNs + 900, 0);
                }
            }
        };
        UnitContents contents = (extents, observer) -> {
            UnitStamp.Observation seen = new UnitStamp.Observation();
            seen.state = UnitStamp.State.STAMPED;
            seen.runHash = RUN;
            // inverse of the bijection, by walking the write order once into a position per unit would need memory:
            // instead the content is given in LBA order from the unit's own index (unit -> its writes' sequences)
            long inverse = modInverse(multiplier, units);
            for (int e = 0; e < extents.length; e += 2) {
                for (long lba = extents[e]; lba < extents[e] + extents[e + 1]; lba++) {
                    long position = Math.floorMod((lba - 12345) * inverse, units);
                    seen.lba = lba;
                    seen.sequence = lba % 1000 == 0 ? position : position + units;
                    observer.unit(lba, seen);
                }
            }
        };
        long t0 = System.nanoTime();
        VerificationReport r = Verification.verify(
                new Verification.Options(RUN, false, new Verification.Listener() {
                    @Override
                    public void logRead(int pass, long ios) {
                        System.out.printf(
                                Locale.ROOT, "  log pass %d done at %.1f s%n", pass, (System.nanoTime() - t0) / 1e9);
                    }
                }),
                log,
                contents);
        double seconds = (System.nanoTime() - t0) / 1e9;
        System.gc();
        long peak = 0;
        for (MemoryPoolMXBean pool : ManagementFactory.getMemoryPoolMXBeans()) {
            if (pool.getType() == MemoryType.HEAP) {
                peak += pool.getPeakUsage().getUsed();
            }
        }
        System.out.printf(
                Locale.ROOT,
                "span %d GiB: %,d units, %,d writes, %,d FLUSHes; verified in %.1f s; intact %,d, reverted %,d;"
                        + " lost units ACKNOWLEDGED %,d FLUSHED %,d FUA %,d; per-unit state %.1f MB (%.1f bytes a unit);"
                        + " heap max %d MB, peak used %.0f MB (sum of the heap pools' peaks)%n",
                gib,
                r.unitsChecked(),
                writes,
                r.coverage().flushes(),
                seconds,
                r.count(UnitClass.INTACT),
                r.count(UnitClass.REVERTED),
                r.model(DurabilityModel.ACKNOWLEDGED).lostUnits(),
                r.model(DurabilityModel.FLUSHED).lostUnits(),
                r.model(DurabilityModel.FUA).lostUnits(),
                r.stateBytes() / 1e6,
                r.stateBytes() / (double) units,
                Runtime.getRuntime().maxMemory() >> 20,
                peak / 1e6);
    }

    private static long modInverse(long a, long m) {
        return java.math.BigInteger.valueOf(a)
                .modInverse(java.math.BigInteger.valueOf(m))
                .longValueExact();
    }
}
