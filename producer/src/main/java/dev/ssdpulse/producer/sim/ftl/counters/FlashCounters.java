package dev.ssdpulse.producer.sim.ftl.counters;

import dev.ssdpulse.producer.sim.nand.ProgramCause;

/** Mutable cumulative counters of the drive since it was created (secure-erased). */
public final class FlashCounters {
    public long hostBytesWritten;
    public long hostBytesRead;
    public long hostBytesTrimmed;
    public final long[] nandBytesWritten = new long[ProgramCause.values().length];
    public long nandBytesRead;
    public long gcInvocations;
    public long forcedGcInvocations;
    public long idleGcInvocations;
}
