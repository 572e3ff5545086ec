package dev.ssdpulse.producer.workload;

import dev.ssdpulse.producer.io.IoRequest;
import dev.ssdpulse.producer.io.RequestGenerator;
import dev.ssdpulse.schemas.iobatch.IoOpCode;
import java.util.List;
import java.util.SplittableRandom;

/**
 * The request stream of one worker in one phase, IOMeter style. Per request: pick an access-spec line by
 * percentOfSpec, read or write by percentRead, random or sequential by percentRandom. A random offset is
 * an alignment-sized slot of the worker's region (uniform, or zipf with ranks permuted over the region); a
 * sequential one continues right after the worker's previous request (whatever line or kind it was, as
 * IOMeter does) and wraps to the region start when the request would cross the region end.
 *
 * <p>No allocation in {@link #next}: all per-line state is in primitive arrays built once. Random draws
 * use multiply-high range reduction (bias below n/2^64, i.e. &lt; 1e-6 for any realistic slot count).
 */
final class AccessSpecGenerator implements RequestGenerator {
    private final SplittableRandom random;
    private final int lines;
    private final int[] cumulativePercent;
    private final int[] sizeBytes;
    private final int[] percentRead;
    private final int[] percentRandom;
    private final long[] slots;
    private final long[] alignmentBytes;
    private final long[] delayNs;
    private final int[] burstLength;
    private final int[] burstCount;
    private final ZipfSampler[] zipf;
    private final long[] zipfMultiplier;
    private final long[] zipfShift;
    private final long regionStart;
    private final long regionEnd;
    private final byte writeOp;
    private final long budgetBytes;
    private final long rateNumeratorNs;
    private final long rateDenominator;
    private long rateAccumulator;
    private long issuedBytes;
    private long sequentialNext;

    AccessSpecGenerator(PhaseSpec phase, long regionStart, long regionSizeBytes, long budgetBytes, long seed) {
        List<AccessSpec> specs = phase.accessSpecs();
        this.random = new SplittableRandom(seed);
        this.lines = specs.size();
        this.cumulativePercent = new int[lines];
        this.sizeBytes = new int[lines];
        this.percentRead = new int[lines];
        this.percentRandom = new int[lines];
        this.slots = new long[lines];
        this.alignmentBytes = new long[lines];
        this.delayNs = new long[lines];
        this.burstLength = new int[lines];
        this.burstCount = new int[lines];
        this.zipf = new ZipfSampler[lines];
        this.zipfMultiplier = new long[lines];
        this.zipfShift = new long[lines];
        int cumulative = 0;
        for (int i = 0; i < lines; i++) {
            AccessSpec a = specs.get(i);
            cumulative += a.percentOfSpec();
            cumulativePercent[i] = cumulative;
            sizeBytes[i] = a.transferSizeBytes();
            percentRead[i] = a.percentRead();
            percentRandom[i] = a.percentRandom();
            alignmentBytes[i] = a.alignmentBytes();
            if (regionSizeBytes < a.transferSizeBytes()) {
                throw new IllegalArgumentException("phase '" + phase.name() + "': worker region of " + regionSizeBytes
                        + " B is smaller than transfer size " + a.transferSizeBytes() + " B");
            }
            slots[i] = (regionSizeBytes - a.transferSizeBytes()) / a.alignmentBytes() + 1;
            delayNs[i] = a.delayNs();
            burstLength[i] = a.burstLength();
            if (phase.distribution().kind() == Distribution.Kind.ZIPF) {
                zipf[i] = new ZipfSampler(slots[i], phase.distribution().theta());
                zipfMultiplier[i] = coprimeMultiplier(slots[i]);
                zipfShift[i] = slots[i] / 3;
            }
        }
        this.regionStart = regionStart;
        this.regionEnd = regionStart + regionSizeBytes;
        this.sequentialNext = regionStart;
        this.writeOp = phase.trim() ? IoOpCode.TRIM : IoOpCode.WRITE;
        this.budgetBytes = budgetBytes;
        if (phase.rateLimitIops().isPresent()) {
            // Exact pacing in integers: the worker's gap is workers*1e9/rate ns; the remainder carries over.
            this.rateNumeratorNs = 1_000_000_000L * phase.workers();
            this.rateDenominator = phase.rateLimitIops().getAsLong();
        } else {
            this.rateNumeratorNs = 0;
            this.rateDenominator = 0;
        }
    }

    @Override
    public boolean next(IoRequest request) {
        if (issuedBytes >= budgetBytes) {
            return false;
        }
        int line = 0;
        if (lines > 1) {
            int r = percent();
            while (r >= cumulativePercent[line]) {
                line++;
            }
        }
        int size = sizeBytes[line];
        int pr = percentRead[line];
        byte op = pr == 100 || (pr > 0 && percent() < pr) ? IoOpCode.READ : writeOp;
        int pz = percentRandom[line];
        long offset;
        if (pz == 100 || (pz > 0 && percent() < pz)) {
            long slot;
            ZipfSampler z = zipf[line];
            if (z == null) {
                slot = below(slots[line]);
            } else {
                long n = slots[line];
                slot = ((z.sample(random) - 1) * zipfMultiplier[line] + zipfShift[line]) % n;
            }
            offset = regionStart + slot * alignmentBytes[line];
        } else {
            offset = sequentialNext;
            if (offset + size > regionEnd) {
                offset = regionStart;
            }
        }
        sequentialNext = offset + size;
        long delay = 0;
        if (delayNs[line] > 0 && ++burstCount[line] >= burstLength[line]) {
            burstCount[line] = 0;
            delay = delayNs[line];
        }
        if (rateDenominator > 0) {
            rateAccumulator += rateNumeratorNs;
            long gap = rateAccumulator / rateDenominator;
            rateAccumulator -= gap * rateDenominator;
            if (gap > delay) {
                delay = gap;
            }
        }
        issuedBytes += size;
        request.set(op, offset, size, delay);
        return true;
    }

    /** Uniform in 0..99 (multiply-high on 32 bits; bias 100/2^32). */
    private int percent() {
        return (int) (((random.nextInt() & 0xFFFF_FFFFL) * 100) >>> 32);
    }

    /** Uniform in 0..n-1: unsigned high 64 bits of a random 64-bit value times n. */
    private long below(long n) {
        long x = random.nextLong();
        return Math.multiplyHigh(x, n) + ((x >> 63) & n);
    }

    /**
     * A multiplier coprime with n so rank -> (rank*m + shift) mod n is a bijection over the slots: the hot
     * ranks land spread over the span instead of at its start. Kept below Long.MAX_VALUE/n to avoid overflow.
     */
    static long coprimeMultiplier(long n) {
        if (n <= 2) {
            return 1;
        }
        long limit = Math.max(1, Math.min(1L << 20, (Long.MAX_VALUE - n) / n));
        long m = Math.max(1, Math.min(limit, (long) (n * 0.6180339887498949)));
        while (m > 1 && gcd(m, n) != 1) {
            m--;
        }
        return m;
    }

    private static long gcd(long a, long b) {
        while (b != 0) {
            long t = a % b;
            a = b;
            b = t;
        }
        return a;
    }
}
