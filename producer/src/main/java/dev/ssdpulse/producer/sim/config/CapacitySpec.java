package dev.ssdpulse.producer.sim.config;

/**
 * User-visible capacity and the flash withheld from it. {@code parityReserveBytes} models a RAISE-like
 * parity die or explicit factory over-provisioning (8 GB on the seed's 120 GB SandForce drives);
 * {@code badBlockReserveFraction} of all blocks is kept for bad-block replacement, the mapping-table
 * copy and firmware, and never holds user data.
 */
public record CapacitySpec(long userCapacityBytes, long parityReserveBytes, double badBlockReserveFraction) {}
