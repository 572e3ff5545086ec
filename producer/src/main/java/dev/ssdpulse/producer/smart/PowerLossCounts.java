package dev.ssdpulse.producer.smart;

import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * A drive's own count of power losses, read from the SMART/health attributes ssdpulse already polls (a
 * {@link SmartReading}'s or a SmartSample's raw attributes): the NVMe SMART/health log's {@code unsafe_shutdowns}, or
 * the ATA attribute smartmontools' drive database names for unexpected power loss; and, where the drive has the OCP
 * Datacenter SMART extended log and it is polled, its PLP start count (how often the power-loss protection ran).
 *
 * @param unsafeShutdowns null when the attributes hold no such counter
 * @param plpStartCount   null when they hold no OCP PLP start count
 */
public record PowerLossCounts(Long unsafeShutdowns, Long plpStartCount) {
    /**
     * ATA attribute names (smartctl's "ID Name" keys) that count unexpected power losses, most specific first:
     * Intel's and others' Unsafe_Shutdown_Count, Crucial/Micron's 174 Unexpect_Power_Loss_Ct, Samsung's 235
     * POR_Recovery_Count (sudden power-off recoveries), and 192 under its generic name, which on an SSD counts
     * unexpected power-offs.
     */
    private static final List<String> ATA_NAMES = List.of(
            "unsafe_shutdown",
            "unexpect_power_loss",
            "unexpected_power_loss",
            "sudden_power",
            "por_recovery",
            "power-off_retract");

    public static PowerLossCounts of(Map<String, String> rawAttributes) {
        Long unsafe = number(rawAttributes.get("unsafe_shutdowns"));
        for (int i = 0; unsafe == null && i < ATA_NAMES.size(); i++) {
            for (Map.Entry<String, String> e : rawAttributes.entrySet()) {
                if (e.getKey().toLowerCase(Locale.ROOT).contains(ATA_NAMES.get(i))) {
                    unsafe = number(e.getValue());
                    if (unsafe != null) {
                        break;
                    }
                }
            }
        }
        Long plp = null;
        for (Map.Entry<String, String> e : rawAttributes.entrySet()) {
            String key = e.getKey().toLowerCase(Locale.ROOT).replaceAll("[^a-z0-9]+", "_");
            if (key.contains("plp_start_count")) {
                plp = number(e.getValue());
            }
        }
        return new PowerLossCounts(unsafe, plp);
    }

    /** The leading integer of a raw value ("12", "12 (0 0)"), null when there is none. */
    private static Long number(String raw) {
        if (raw == null) {
            return null;
        }
        String s = raw.trim().replace(",", "");
        int end = 0;
        while (end < s.length() && Character.isDigit(s.charAt(end))) {
            end++;
        }
        if (end == 0 || end > 18) {
            return null;
        }
        return Long.parseLong(s.substring(0, end));
    }
}
