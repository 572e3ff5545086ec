package dev.ssdpulse.producer.smart;

import dev.ssdpulse.schemas.avro.SmartSample;
import dev.ssdpulse.schemas.avro.SmartSource;
import java.util.Map;
import java.util.TreeMap;

/**
 * One poll of a device's counters, in bytes. Counters are cumulative since the drive's manufacture; consumers use
 * differences between readings. A null counter is one the device does not report.
 *
 * @param timeNs           sample time, ns since run start
 * @param source           SMARTCTL or NVME_SMART_LOG
 * @param hostBytesWritten host writes (NVMe data units x 512,000; ATA LBAs x logical sector, or GiB counters)
 * @param hostBytesRead    host reads, likewise
 * @param nandBytesWritten NAND programs where the vendor reports them (SandForce 233, Intel 249, ...), else null
 * @param eraseCount       vendor wear counter (e.g. Samsung 177 Wear_Leveling_Count: average P/E cycles), else null
 * @param rawAttributes    every attribute as reported, by name (raw values as strings)
 */
public record SmartReading(
        long timeNs,
        Source source,
        Long hostBytesWritten,
        Long hostBytesRead,
        Long nandBytesWritten,
        Long eraseCount,
        Map<String, String> rawAttributes) {

    public enum Source {
        SMARTCTL,
        NVME_SMART_LOG
    }

    public SmartReading {
        rawAttributes = Map.copyOf(rawAttributes);
    }

    /** Whether write amplification can be computed from readings like this one. */
    public WaAvailability waAvailability() {
        if (hostBytesWritten == null) {
            return WaAvailability.unavailable("the device reports no host-writes counter");
        }
        if (nandBytesWritten == null) {
            return WaAvailability.unavailable(
                    rawAttributes.containsKey("data_units_written")
                            ? "the NVMe SMART/health log has no NAND-writes counter (vendor or OCP C0 logs are not "
                                    + "polled)"
                            : "the device reports no NAND-writes attribute ssdpulse knows (e.g. 233/249 NAND writes)");
        }
        return WaAvailability.AVAILABLE;
    }

    public SmartSample toAvro(String runId) {
        return SmartSample.newBuilder()
                .setRunId(runId)
                .setTimeNs(timeNs)
                .setSource(SmartSource.valueOf(source.name()))
                .setHostBytesWritten(hostBytesWritten)
                .setHostBytesRead(hostBytesRead)
                .setNandBytesWritten(nandBytesWritten)
                .setEraseCount(eraseCount)
                .setRawAttributes(new TreeMap<>(rawAttributes))
                .build();
    }
}
