package dev.ssdpulse.producer.sim.config;

/** The victim selection strategies a preset can name ({@code ftl.victimSelector}); the FTL's GC builds them. */
public enum VictimPolicy {
    GREEDY,
    FIFO,
    D_CHOICES,
    COST_BENEFIT
}
