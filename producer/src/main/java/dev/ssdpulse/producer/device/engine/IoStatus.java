package dev.ssdpulse.producer.device.engine;

/** errno-style status codes of a completed I/O (Linux values, so they read like fio's and the kernel's). */
public final class IoStatus {
    public static final int OK = 0;
    /** I/O error reported by the OS, or a short read/write. */
    public static final int EIO = 5;
    /** No such device or address: the target went away (a detached or removed device). */
    public static final int ENXIO = 6;
    /** No such device: the target went away. */
    public static final int ENODEV = 19;
    /** No space left: a thin-provisioned or file-backed device ran out of backing space. */
    public static final int ENOSPC = 28;
    /** Offset or size outside the target, or not aligned for O_DIRECT. */
    public static final int EINVAL = 22;
    /** Operation not supported by the engine/target (TRIM on a file or through Java). */
    public static final int EOPNOTSUPP = 95;

    /**
     * Whether a status means the device failed the I/O (EIO, ENOSPC, ENODEV, ...), which ends the phase, as
     * opposed to a request the engine or target refused by design (EINVAL for an out-of-range or misaligned
     * request, EOPNOTSUPP for a TRIM the target cannot do), which is counted and the phase goes on.
     */
    public static boolean isDeviceError(int status) {
        return status != OK && status != EINVAL && status != EOPNOTSUPP;
    }

    private IoStatus() {}
}
