package dev.ssdpulse.producer.smart;

import dev.ssdpulse.schemas.avro.SmartSample;
import dev.ssdpulse.schemas.avro.SmartSource;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * One poll of a drive's counters. Counters are cumulative since the drive's manufacture; consumers use
 * differences between readings. Every counter keeps its source and unit; {@code wa} holds the two counts write
 * amplification is the ratio of, or {@code waNote} says why there are none.
 *
 * @param timeNs        sample time, ns since run start
 * @param source        the tool family the NAND side came from (SMARTCTL, NVME_SMART_LOG for nvme-cli's logs,
 *                      OCP_C0 for the OCP extended SMART log)
 * @param drive         the drive as the tools name it (model, drive-database family or PCI vendor), or null
 * @param counters      every write-amplification counter read, with its source and unit
 * @param wa            the WA counts, or null
 * @param waNote        why there is no WA, or null
 * @param eraseCount    vendor wear counter (e.g. Samsung 177 Wear_Leveling_Count: average P/E cycles), else null
 * @param rawAttributes every attribute or field as reported, by name (raw values as strings)
 */
public record SmartReading(
        long timeNs,
        Source source,
        String drive,
        List<SmartCounter> counters,
        WaBasis wa,
        String waNote,
        Long eraseCount,
        Map<String, String> rawAttributes) {

    public enum Source {
        SMARTCTL,
        NVME_SMART_LOG,
        OCP_C0
    }

    public SmartReading {
        counters = List.copyOf(counters);
        rawAttributes = Map.copyOf(rawAttributes);
    }

    /**
     * A reading whose WA counts are chosen from its counters ({@link WaBasis#decide}).
     *
     * @param whyNoNand what to say when no tool gave a NAND counter (which logs were tried), or null
     */
    static SmartReading of(long timeNs, Source source, ToolReading read, String whyNoNand) {
        WaBasis.Decision d = WaBasis.decide(read.counters());
        String note = d.note();
        if (d.basis() == null && whyNoNand != null && note.equals("no NAND-writes counter")) {
            note = whyNoNand;
        }
        return new SmartReading(
                timeNs, source, read.drive(), read.counters(), d.basis(), note, read.eraseCount(), read.raw());
    }

    /** The finest host-writes counter in bytes, or null. */
    public Long hostBytesWritten() {
        return finestBytes(CounterRole.HOST_WRITES);
    }

    public Long hostBytesRead() {
        return finestBytes(CounterRole.HOST_READS);
    }

    /** NAND bytes programmed, where WA's NAND side is in bytes; else null. */
    public Long nandBytesWritten() {
        return wa != null && wa.unit().equals("B") ? wa.nandWrites() : null;
    }

    private Long finestBytes(CounterRole role) {
        return counters.stream()
                .filter(c -> c.role() == role && c.unit().bytes() != null)
                .min(Comparator.comparingLong(c -> c.unit().bytes()))
                .map(SmartCounter::bytes)
                .filter(b -> b.bitLength() < 64)
                .map(BigInteger::longValueExact)
                .orElse(null);
    }

    /** Whether write amplification can be computed from readings like this one. */
    public WaAvailability waAvailability() {
        return wa != null ? WaAvailability.AVAILABLE : WaAvailability.unavailable(waNote);
    }

    public SmartSample toAvro(String runId) {
        List<dev.ssdpulse.schemas.avro.SmartCounter> avroCounters = new ArrayList<>();
        for (SmartCounter c : counters) {
            avroCounters.add(dev.ssdpulse.schemas.avro.SmartCounter.newBuilder()
                    .setRole(c.role().name())
                    .setSource(c.source())
                    .setValue(c.value().toString())
                    .setUnit(c.unit().name())
                    .setUnitBytes(c.unit().bytes())
                    .build());
        }
        return SmartSample.newBuilder()
                .setRunId(runId)
                .setTimeNs(timeNs)
                .setSource(SmartSource.valueOf(source.name()))
                .setHostBytesWritten(hostBytesWritten())
                .setHostBytesRead(hostBytesRead())
                .setNandBytesWritten(nandBytesWritten())
                .setEraseCount(eraseCount)
                .setRawAttributes(new TreeMap<>(rawAttributes))
                .setCounters(avroCounters)
                .setWaUnit(wa == null ? null : wa.unit())
                .setWaHostWrites(wa == null ? null : wa.hostWrites())
                .setWaHostResolution(wa == null ? null : wa.hostResolution())
                .setWaNandWrites(wa == null ? null : wa.nandWrites())
                .setWaNandResolution(wa == null ? null : wa.nandResolution())
                .setWaNote(waNote)
                .build();
    }
}
