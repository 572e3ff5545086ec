package dev.ssdpulse.producer.sim.config;

/**
 * Write buffer size. A few MiB models the SRAM page buffer of DRAM-less controllers; tens or hundreds
 * of MiB model a DRAM write cache that absorbs bursts before NAND speed shows. Reads are not served
 * from it.
 */
public record CacheSpec(long writeBufferBytes) {}
