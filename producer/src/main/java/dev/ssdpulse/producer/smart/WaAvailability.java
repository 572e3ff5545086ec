package dev.ssdpulse.producer.smart;

/** Whether a run can report write amplification; {@code reason} says why not (null when available). */
public record WaAvailability(boolean available, String reason) {
    public static final WaAvailability AVAILABLE = new WaAvailability(true, null);

    public static WaAvailability unavailable(String reason) {
        return new WaAvailability(false, "WA unavailable: " + reason);
    }
}
