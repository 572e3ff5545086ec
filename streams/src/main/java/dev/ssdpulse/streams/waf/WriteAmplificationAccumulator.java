package dev.ssdpulse.streams.waf;

import dev.ssdpulse.streams.codec.BinaryReader;
import dev.ssdpulse.streams.codec.BinaryWriter;
import java.util.Optional;

/**
 * Write amplification of one run from its SMART samples, fed in time order.
 *
 * <ul>
 *   <li>Each usable sample after the first yields a {@link WaInterval}: deltas against the previous usable
 *       sample and cumulative totals since the first.</li>
 *   <li>A sample without host bytes or any NAND figure is unusable: counted, ignored.</li>
 *   <li>A sample with time <= the previous usable sample's time is out of order (or a duplicate): counted,
 *       ignored; the counters of a late sample cannot be placed without rewriting emitted intervals.</li>
 *   <li>A host or NAND total that goes backwards is a counter reset (device power cycle, simulator restart,
 *       counter wrap): the sample becomes the new origin for deltas, no interval is emitted for it, the
 *       reset is counted, and the cumulative totals keep the deltas accumulated before the reset.</li>
 * </ul>
 * Not thread-safe: one instance per run.
 */
public final class WriteAmplificationAccumulator {
    private static final int STATE_VERSION = 1;

    private SmartCounters previous;
    private long hostCumulative;
    private long nandCumulative;
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
            firstTimeNs = sample.timeNs();
            return Optional.empty();
        }
        if (sample.timeNs() <= previous.timeNs()) {
            outOfOrderCount++;
            return Optional.empty();
        }
        long hostDelta = sample.hostBytesWritten() - previous.hostBytesWritten();
        long nandDelta = nand - previous.nandTotal();
        if (hostDelta < 0 || nandDelta < 0) {
            resetCount++;
            previous = sample;
            return Optional.empty();
        }
        hostCumulative += hostDelta;
        nandCumulative += nandDelta;
        WaInterval interval = new WaInterval(
                previous.timeNs(),
                sample.timeNs(),
                hostDelta,
                nandDelta,
                causeDelta(previous.nandBytesWrittenHost(), sample.nandBytesWrittenHost()),
                causeDelta(previous.nandBytesWrittenGc(), sample.nandBytesWrittenGc()),
                causeDelta(previous.nandBytesWrittenWearLeveling(), sample.nandBytesWrittenWearLeveling()),
                causeDelta(previous.nandBytesWrittenMetadata(), sample.nandBytesWrittenMetadata()),
                WaInterval.ratio(nandDelta, hostDelta),
                hostCumulative,
                nandCumulative,
                WaInterval.ratio(nandCumulative, hostCumulative),
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

    /** Progress, for a state store. */
    public byte[] encodeState() {
        BinaryWriter out = new BinaryWriter(256);
        out.writeByte(STATE_VERSION);
        out.writeBoolean(previous != null);
        if (previous != null) {
            out.writeVarLong(previous.timeNs())
                    .writeNullableLong(previous.hostBytesWritten())
                    .writeNullableLong(previous.nandBytesWritten())
                    .writeNullableLong(previous.nandBytesWrittenHost())
                    .writeNullableLong(previous.nandBytesWrittenGc())
                    .writeNullableLong(previous.nandBytesWrittenWearLeveling())
                    .writeNullableLong(previous.nandBytesWrittenMetadata())
                    .writeNullableLong(previous.freeBlocks());
        }
        out.writeVarLong(hostCumulative)
                .writeVarLong(nandCumulative)
                .writeVarLong(firstTimeNs)
                .writeUnsignedVarLong(resetCount)
                .writeUnsignedVarLong(outOfOrderCount)
                .writeUnsignedVarLong(unusableCount);
        out.writeBoolean(last != null);
        if (last != null) {
            out.writeVarLong(last.fromTimeNs())
                    .writeVarLong(last.toTimeNs())
                    .writeVarLong(last.hostBytesWrittenDelta())
                    .writeVarLong(last.nandBytesWrittenDelta())
                    .writeNullableLong(last.nandBytesWrittenHostDelta())
                    .writeNullableLong(last.nandBytesWrittenGcDelta())
                    .writeNullableLong(last.nandBytesWrittenWearLevelingDelta())
                    .writeNullableLong(last.nandBytesWrittenMetadataDelta())
                    .writeNullableDouble(last.waWindow())
                    .writeVarLong(last.hostBytesWrittenCumulative())
                    .writeVarLong(last.nandBytesWrittenCumulative())
                    .writeNullableDouble(last.waCumulative())
                    .writeNullableLong(last.freeBlocks());
        }
        return out.toByteArray();
    }

    public static WriteAmplificationAccumulator decodeState(byte[] state) {
        BinaryReader in = new BinaryReader(state, "write amplification state");
        int version = in.readByte("version");
        if (version != STATE_VERSION) {
            throw new IllegalArgumentException("write amplification state: unsupported version " + version);
        }
        WriteAmplificationAccumulator acc = new WriteAmplificationAccumulator();
        if (in.readBoolean("previous present")) {
            acc.previous = new SmartCounters(
                    in.readVarLong("timeNs"),
                    in.readNullableLong("hostBytesWritten"),
                    in.readNullableLong("nandBytesWritten"),
                    in.readNullableLong("nandBytesWrittenHost"),
                    in.readNullableLong("nandBytesWrittenGc"),
                    in.readNullableLong("nandBytesWrittenWearLeveling"),
                    in.readNullableLong("nandBytesWrittenMetadata"),
                    in.readNullableLong("freeBlocks"));
        }
        acc.hostCumulative = in.readVarLong("hostCumulative");
        acc.nandCumulative = in.readVarLong("nandCumulative");
        acc.firstTimeNs = in.readVarLong("firstTimeNs");
        acc.resetCount = in.readUnsignedVarLong("resetCount");
        acc.outOfOrderCount = in.readUnsignedVarLong("outOfOrderCount");
        acc.unusableCount = in.readUnsignedVarLong("unusableCount");
        if (in.readBoolean("last present")) {
            acc.last = new WaInterval(
                    in.readVarLong("fromTimeNs"),
                    in.readVarLong("toTimeNs"),
                    in.readVarLong("hostDelta"),
                    in.readVarLong("nandDelta"),
                    in.readNullableLong("hostCauseDelta"),
                    in.readNullableLong("gcDelta"),
                    in.readNullableLong("wlDelta"),
                    in.readNullableLong("metaDelta"),
                    in.readNullableDouble("waWindow"),
                    in.readVarLong("hostCumulative"),
                    in.readVarLong("nandCumulative"),
                    in.readNullableDouble("waCumulative"),
                    in.readNullableLong("freeBlocks"));
        }
        in.expectEnd();
        return acc;
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
