package dev.ssdpulse.producer.sim.config;

/**
 * What a power cut does to the drive (phase kind POWER_CUT). The write buffer ({@link CacheSpec}) is volatile: a unit
 * it accepted is on flash once its page is programmed. {@code powerLossProtection}: capacitors hold the controller up
 * long enough to program the buffer and checkpoint the mapping table, so nothing acknowledged is lost. Without it the
 * buffer's unprogrammed units are lost and the mapping table, kept in controller memory and checkpointed to flash
 * every {@code mapCheckpointIntervalNs}, rolls back to its last checkpoint. {@code mapCheckpointIntervalNs} 0: the
 * preset does not model a power cut (presets written before it), and a POWER_CUT phase is refused on it.
 */
public record PowerSpec(boolean powerLossProtection, long mapCheckpointIntervalNs) {
    /** A preset that does not say what a power cut does. */
    public static final PowerSpec UNMODELLED = new PowerSpec(false, 0);

    public boolean modelled() {
        return mapCheckpointIntervalNs > 0;
    }
}
