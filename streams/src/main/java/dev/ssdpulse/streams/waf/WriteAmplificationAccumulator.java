package dev.ssdpulse.streams.waf;

import dev.ssdpulse.streams.codec.BinaryReader;
import dev.ssdpulse.streams.codec.BinaryWriter;
import java.util.Optional;

/**
 * Write amplification of one run from its SMART samples, fed in time order, with the bounds its counters'
 * steps allow ({@link WaBounds}).
 *
 * <ul>
 *   <li>Each usable sample after the first yields a {@link WaInterval}: deltas against the previous usable
 *       sample and cumulative totals since the first.</li>
 *   <li>A sample without host or any NAND figure is unusable: counted, ignored.</li>
 *   <li>A sample with time <= the previous usable sample's time is out of order (or a duplicate): counted,
 *       ignored; the counters of a late sample cannot be placed without rewriting emitted intervals.</li>
 *   <li>A host or NAND total that goes backwards is a counter reset (device power cycle, simulator restart,
 *       counter wrap), and so is a change of unit or step (another source): the sample becomes the new origin
 *       for deltas, no interval is emitted for it, the reset is counted, and the cumulative totals keep the
 *       deltas accumulated before it.</li>
 *   <li>Error bound: a difference within one unbroken chain of samples is exact to one step of each counter
 *       (the readings between cancel out), so the cumulative bounds carry one step per chain that contributed,
 *       not one per interval.</li>
 * </ul>
 * Not thread-safe: one instance per run.
 */
public final class WriteAmplificationAccumulator {
    /** 2: with the counters' unit and steps and the cumulative step error. 1: bytes only, exact (still read). */
    private static final int STATE_VERSION = 2;

    private static final int STATE_VERSION_EXACT_BYTES = 1;

    private SmartCounters previous;
    private long hostCumulative;
    private long nandCumulative;
    /** Sum of the host steps of the chains that contributed to the cumulative totals. */
    private long hostStepCumulative;

    private long nandStepCumulative;
    /** Whether the chain ending at {@link #previous} has contributed (its step is in the sums). */
    private boolean chainCounted;

    private long firstTimeNs = Long.MIN_VALUE;
    private long resetCount;
    private long outOfOrderCount;
    private long unusableCount;
    private WaInterval last;

    /** @return the interval ending at this sample, or empty (first, unusable, out-of-order or reset sample) */
    public Optional<WaInterval> accept(SmartCounters sample) {
        Long nand = sample.nandTotal();
        if (sample.hostBytesWritten() == null || nand == null) {
            unusableCount++;
            return Optional.empty();
        }
        if (previous == null) {
            previous = sample;
            chainCounted = false;
            firstTimeNs = sample.timeNs();
            return Optional.empty();
        }
        if (sample.timeNs() <= previous.timeNs()) {
            outOfOrderCount++;
            return Optional.empty();
        }
        long hostDelta = sample.hostBytesWritten() - previous.hostBytesWritten();
        long nandDelta = nand - previous.nandTotal();
        if (hostDelta < 0 || nandDelta < 0 || !sample.sameScale(previous)) {
            resetCount++;
            previous = sample;
            chainCounted = false;
            return Optional.empty();
        }
        if (!chainCounted) {
            hostStepCumulative += sample.hostResolution();
            nandStepCumulative += sample.nandResolution();
            chainCounted = true;
        }
        hostCumulative += hostDelta;
        nandCumulative += nandDelta;
        WaInterval interval = new WaInterval(
                previous.timeNs(),
                sample.timeNs(),
                sample.unit(),
                sample.hostResolution(),
                sample.nandResolution(),
                hostDelta,
                nandDelta,
                causeDelta(previous.nandBytesWrittenHost(), sample.nandBytesWrittenHost()),
                causeDelta(previous.nandBytesWrittenGc(), sample.nandBytesWrittenGc()),
                causeDelta(previous.nandBytesWrittenWearLeveling(), sample.nandBytesWrittenWearLeveling()),
                causeDelta(previous.nandBytesWrittenMetadata(), sample.nandBytesWrittenMetadata()),
                WaInterval.ratio(nandDelta, hostDelta),
                WaBounds.of(hostDelta, sample.hostResolution(), nandDelta, sample.nandResolution()),
                hostCumulative,
                nandCumulative,
                WaInterval.ratio(nandCumulative, hostCumulative),
                cumulativeBounds(),
                sample.freeBlocks());
        previous = sample;
        last = interval;
        return Optional.of(interval);
    }

    private static Long causeDelta(Long before, Long after) {
        if (before == null || after == null || after < before) {
            return null;
        }
        return after - before;
    }

    /** The range of {@link #waCumulative()} the counters' steps allow. */
    public WaBounds cumulativeBounds() {
        return WaBounds.of(hostCumulative, hostStepCumulative, nandCumulative, nandStepCumulative);
    }

    /** Progress, for a state store. */
    public byte[] encodeState() {
        BinaryWriter out = new BinaryWriter(256);
        out.writeByte(STATE_VERSION);
        out.writeBoolean(previous != null);
        if (previous != null) {
            out.writeVarLong(previous.timeNs())
                    .writeString(previous.unit())
                    .writeNullableLong(previous.hostBytesWritten())
                    .writeUnsignedVarLong(previous.hostResolution())
                    .writeNullableLong(previous.nandBytesWritten())
                    .writeUnsignedVarLong(previous.nandResolution())
                    .writeNullableLong(previous.nandBytesWrittenHost())
                    .writeNullableLong(previous.nandBytesWrittenGc())
                    .writeNullableLong(previous.nandBytesWrittenWearLeveling())
                    .writeNullableLong(previous.nandBytesWrittenMetadata())
                    .writeNullableLong(previous.freeBlocks());
        }
        out.writeVarLong(hostCumulative)
                .writeVarLong(nandCumulative)
                .writeUnsignedVarLong(hostStepCumulative)
                .writeUnsignedVarLong(nandStepCumulative)
                .writeBoolean(chainCounted);
        out.writeVarLong(firstTimeNs)
                .writeUnsignedVarLong(resetCount)
                .writeUnsignedVarLong(outOfOrderCount)
                .writeUnsignedVarLong(unusableCount);
        out.writeBoolean(last != null);
        if (last != null) {
            out.writeVarLong(last.fromTimeNs())
                    .writeVarLong(last.toTimeNs())
                    .writeString(last.unit())
                    .writeUnsignedVarLong(last.hostResolution())
                    .writeUnsignedVarLong(last.nandResolution())
                    .writeVarLong(last.hostBytesWrittenDelta())
                    .writeVarLong(last.nandBytesWrittenDelta())
                    .writeNullableLong(last.nandBytesWrittenHostDelta())
                    .writeNullableLong(last.nandBytesWrittenGcDelta())
                    .writeNullableLong(last.nandBytesWrittenWearLevelingDelta())
                    .writeNullableLong(last.nandBytesWrittenMetadataDelta())
                    .writeNullableDouble(last.waWindow());
            writeBounds(out, last.windowBounds());
            out.writeVarLong(last.hostBytesWrittenCumulative())
                    .writeVarLong(last.nandBytesWrittenCumulative())
                    .writeNullableDouble(last.waCumulative());
            writeBounds(out, last.cumulativeBounds());
            out.writeNullableLong(last.freeBlocks());
        }
        return out.toByteArray();
    }

    private static void writeBounds(BinaryWriter out, WaBounds b) {
        out.writeNullableDouble(b.low()).writeNullableDouble(b.high()).writeBoolean(b.resolved());
    }

    private static WaBounds readBounds(BinaryReader in) {
        return new WaBounds(
                in.readNullableDouble("bounds low"),
                in.readNullableDouble("bounds high"),
                in.readBoolean("bounds resolved"));
    }

    public static WriteAmplificationAccumulator decodeState(byte[] state) {
        BinaryReader in = new BinaryReader(state, "write amplification state");
        int version = in.readByte("version");
        if (version != STATE_VERSION && version != STATE_VERSION_EXACT_BYTES) {
            throw new IllegalArgumentException("write amplification state: unsupported version " + version);
        }
        boolean exact = version == STATE_VERSION_EXACT_BYTES;
        WriteAmplificationAccumulator acc = new WriteAmplificationAccumulator();
        if (in.readBoolean("previous present")) {
            long timeNs = in.readVarLong("timeNs");
            String unit = exact ? SmartCounters.BYTES : in.readString("unit");
            Long host = in.readNullableLong("hostBytesWritten");
            long hostStep = exact ? 0 : in.readUnsignedVarLong("hostResolution");
            Long nand = in.readNullableLong("nandBytesWritten");
            long nandStep = exact ? 0 : in.readUnsignedVarLong("nandResolution");
            acc.previous = new SmartCounters(
                    timeNs,
                    unit,
                    host,
                    hostStep,
                    nand,
                    nandStep,
                    in.readNullableLong("nandBytesWrittenHost"),
                    in.readNullableLong("nandBytesWrittenGc"),
                    in.readNullableLong("nandBytesWrittenWearLeveling"),
                    in.readNullableLong("nandBytesWrittenMetadata"),
                    in.readNullableLong("freeBlocks"));
        }
        acc.hostCumulative = in.readVarLong("hostCumulative");
        acc.nandCumulative = in.readVarLong("nandCumulative");
        if (!exact) {
            acc.hostStepCumulative = in.readUnsignedVarLong("hostStepCumulative");
            acc.nandStepCumulative = in.readUnsignedVarLong("nandStepCumulative");
            acc.chainCounted = in.readBoolean("chainCounted");
        }
        acc.firstTimeNs = in.readVarLong("firstTimeNs");
        acc.resetCount = in.readUnsignedVarLong("resetCount");
        acc.outOfOrderCount = in.readUnsignedVarLong("outOfOrderCount");
        acc.unusableCount = in.readUnsignedVarLong("unusableCount");
        if (in.readBoolean("last present")) {
            acc.last = exact ? readExactInterval(in) : readInterval(in);
            if (exact) {
                // exact counters: steps are 0, so only whether the last chain contributed matters (it never adds)
                acc.chainCounted = acc.previous != null && acc.last.toTimeNs() == acc.previous.timeNs();
            }
        }
        in.expectEnd();
        return acc;
    }

    private static WaInterval readInterval(BinaryReader in) {
        long from = in.readVarLong("fromTimeNs");
        long to = in.readVarLong("toTimeNs");
        String unit = in.readString("unit");
        long hostStep = in.readUnsignedVarLong("hostResolution");
        long nandStep = in.readUnsignedVarLong("nandResolution");
        long hostDelta = in.readVarLong("hostDelta");
        long nandDelta = in.readVarLong("nandDelta");
        Long hostCause = in.readNullableLong("hostCauseDelta");
        Long gc = in.readNullableLong("gcDelta");
        Long wl = in.readNullableLong("wlDelta");
        Long meta = in.readNullableLong("metaDelta");
        Double waWindow = in.readNullableDouble("waWindow");
        WaBounds windowBounds = readBounds(in);
        long hostCum = in.readVarLong("hostCumulative");
        long nandCum = in.readVarLong("nandCumulative");
        Double waCum = in.readNullableDouble("waCumulative");
        WaBounds cumBounds = readBounds(in);
        return new WaInterval(
                from,
                to,
                unit,
                hostStep,
                nandStep,
                hostDelta,
                nandDelta,
                hostCause,
                gc,
                wl,
                meta,
                waWindow,
                windowBounds,
                hostCum,
                nandCum,
                waCum,
                cumBounds,
                in.readNullableLong("freeBlocks"));
    }

    /** An interval of a version-1 state: byte counters without steps, so its bounds are the ratio itself. */
    private static WaInterval readExactInterval(BinaryReader in) {
        long from = in.readVarLong("fromTimeNs");
        long to = in.readVarLong("toTimeNs");
        long hostDelta = in.readVarLong("hostDelta");
        long nandDelta = in.readVarLong("nandDelta");
        Long hostCause = in.readNullableLong("hostCauseDelta");
        Long gc = in.readNullableLong("gcDelta");
        Long wl = in.readNullableLong("wlDelta");
        Long meta = in.readNullableLong("metaDelta");
        Double waWindow = in.readNullableDouble("waWindow");
        long hostCum = in.readVarLong("hostCumulative");
        long nandCum = in.readVarLong("nandCumulative");
        Double waCum = in.readNullableDouble("waCumulative");
        return new WaInterval(
                from,
                to,
                SmartCounters.BYTES,
                0,
                0,
                hostDelta,
                nandDelta,
                hostCause,
                gc,
                wl,
                meta,
                waWindow,
                WaBounds.of(hostDelta, 0, nandDelta, 0),
                hostCum,
                nandCum,
                waCum,
                WaBounds.of(hostCum, 0, nandCum, 0),
                in.readNullableLong("freeBlocks"));
    }

    public long hostBytesWrittenCumulative() {
        return hostCumulative;
    }

    public long nandBytesWrittenCumulative() {
        return nandCumulative;
    }

    /** NAND / host since the first sample; null while the host has written nothing. */
    public Double waCumulative() {
        return WaInterval.ratio(nandCumulative, hostCumulative);
    }

    /** The latest interval, or null before the second usable sample. */
    public WaInterval lastInterval() {
        return last;
    }

    /** Time of the first usable sample, Long.MIN_VALUE before it. */
    public long firstTimeNs() {
        return firstTimeNs;
    }

    public long resetCount() {
        return resetCount;
    }

    public long outOfOrderCount() {
        return outOfOrderCount;
    }

    public long unusableCount() {
        return unusableCount;
    }
}
