package dev.ssdpulse.producer.smart;

import java.math.BigInteger;
import java.util.Locale;
import java.util.Objects;

/**
 * One counter as a tool printed it: exact (up to 128 bits), with where it came from and its unit.
 *
 * @param role   what it counts
 * @param source tool, log and field, e.g. "nvme ocp smart-add-log: Physical media units written"
 * @param value  the raw count
 * @param unit   what one count is
 */
public record SmartCounter(CounterRole role, String source, BigInteger value, CounterUnit unit) {
    public SmartCounter {
        Objects.requireNonNull(role, "role");
        Objects.requireNonNull(source, "source");
        Objects.requireNonNull(value, "value");
        Objects.requireNonNull(unit, "unit");
    }

    /** The count in bytes, or null when the unit is not a byte size. */
    public BigInteger bytes() {
        return unit.bytes() == null ? null : value.multiply(BigInteger.valueOf(unit.bytes()));
    }

    /** "source = value unit", e.g. "smartctl: 249 NAND_Writes_1GiB = 6,160 x GiB". */
    public String describe() {
        return String.format(Locale.ROOT, "%s = %,d x %s", source, value, unit.name());
    }
}
