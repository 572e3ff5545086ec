package dev.ssdpulse.producer.device.engine;

/** errno-style status codes of a completed I/O (Linux values, so they read like fio's and the kernel's). */
public final class IoStatus {
    public static final int OK = 0;
    /** I/O error reported by the OS, or a short read/write. */
    public static final int EIO = 5;
    /** Offset or size outside the target, or not aligned for O_DIRECT. */
    public static final int EINVAL = 22;
    /** Operation not supported by the engine/target (TRIM on a file or through Java). */
    public static final int EOPNOTSUPP = 95;

    private IoStatus() {
    }
}
