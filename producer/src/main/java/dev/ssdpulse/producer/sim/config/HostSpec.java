package dev.ssdpulse.producer.sim.config;

/** Host interface: payload rate in MB/s (10^6 B/s) and per-command controller/protocol overhead. */
public record HostSpec(double linkMBps, long commandOverheadNs) {}
