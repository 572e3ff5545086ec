package dev.ssdpulse.producer.sim.nand;

/**
 * Why a NAND page was programmed. Every program is counted under its cause so that write amplification
 * downstream is the plain ratio (sum of causes) / host bytes, and the GC share is visible on its own.
 */
public enum ProgramCause {
    HOST,
    GC,
    WEAR_LEVELLING,
    METADATA,
    PARITY
}
