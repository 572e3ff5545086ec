package dev.ssdpulse.schemas.iobatch;

/** Bits of the {@code IoBatch.ioFlags} column, and the sequence value of an I/O that stamped nothing. */
public final class IoFlags {
    /** No flag. */
    public static final int NONE = 0;
    /** A write issued with RWF_DSYNC (NVMe/SCSI FUA where the device has it): durable when it completes. */
    public static final int FUA = 1;
    /** {@code writeSequence} of an I/O that carried no stamp (reads, TRIMs, FLUSHes, unstamped writes). */
    public static final long NO_SEQUENCE = -1;

    private IoFlags() {}

    public static boolean isFua(int flags) {
        return (flags & FUA) != 0;
    }
}
