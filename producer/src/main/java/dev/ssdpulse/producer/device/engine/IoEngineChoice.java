package dev.ssdpulse.producer.device.engine;

import java.util.function.Supplier;

/**
 * Which engine a run uses: the one asked for, or with {@code auto} the best this kernel allows (libaio, else
 * io_uring, else psync), with a note saying what was chosen and why anything better was not. An engine asked for by
 * name that the kernel refuses is an error carrying the kernel's reason, never a silent substitution.
 *
 * @param engine the engine, not yet open
 * @param note   what the user should read about the choice (null when there is nothing to say)
 */
public record IoEngineChoice(IoEngine engine, String note) {

    public static final String NAMES = "auto|io_uring|libaio|psync|null";

    /** With the kernel's real answers (a test io_uring_setup / io_setup). */
    public static IoEngineChoice choose(String requested, int maxQueueDepth) {
        return choose(requested, maxQueueDepth, IoUringIoEngine::unavailableReason, LibaioIoEngine::unavailableReason);
    }

    /**
     * @param ioUringUnavailable null when io_uring works here, else why not (asked only when needed)
     * @param libaioUnavailable  likewise for native AIO
     * @throws IllegalArgumentException for an unknown name or an engine this kernel refuses
     */
    public static IoEngineChoice choose(
            String requested,
            int maxQueueDepth,
            Supplier<String> ioUringUnavailable,
            Supplier<String> libaioUnavailable) {
        int depth = Math.max(1, maxQueueDepth);
        switch (requested) {
            case "io_uring" -> {
                String why = ioUringUnavailable.get();
                if (why != null) {
                    throw new IllegalArgumentException(
                            "--engine io_uring is not available here: " + why + "; use --engine libaio or psync");
                }
                return new IoEngineChoice(new IoUringIoEngine(depth), null);
            }
            case "libaio" -> {
                String why = libaioUnavailable.get();
                if (why != null) {
                    throw new IllegalArgumentException(
                            "--engine libaio is not available here: " + why + "; use --engine psync");
                }
                return new IoEngineChoice(new LibaioIoEngine(depth), null);
            }
            case "psync", "sync" -> {
                return new IoEngineChoice(new SyncDirectIoEngine(), null);
            }
            case "null" -> {
                return new IoEngineChoice(new NullIoEngine(), null);
            }
            case "auto" -> {
                // libaio first: the default seccomp profiles of container runtimes refuse io_uring's system calls,
                // and on a disk neither engine is consistently closer to fio than the other (side by side with fio,
                // each meets fio's IOPS and CPU per I/O in about three cases of four, and each falls short of fio at
                // QD1 now and then); io_uring stays one flag away.
                String aioWhy = libaioUnavailable.get();
                if (aioWhy == null) {
                    return new IoEngineChoice(new LibaioIoEngine(depth), null);
                }
                String uringWhy = ioUringUnavailable.get();
                if (uringWhy == null) {
                    return new IoEngineChoice(
                            new IoUringIoEngine(depth),
                            "engine io_uring: native AIO is not available here (" + aioWhy + ")");
                }
                return new IoEngineChoice(
                        new SyncDirectIoEngine(),
                        "engine psync (a thread per queue slot):" + " native AIO is not available (" + aioWhy
                                + "), nor io_uring (" + uringWhy + ")");
            }
            default ->
                throw new IllegalArgumentException("--engine must be one of " + NAMES + ", got '" + requested + "'");
        }
    }
}
