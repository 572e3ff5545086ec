package dev.ssdpulse.producer.fio;

/** Receives one fio log line; primitives only, so parsing a multi-GB log allocates nothing per line. */
@FunctionalInterface
public interface FioIoCallback {
    /**
     * @param timeMs      log time, ms since the job start (fio logs the completion time); Unix ms with
     *                    {@code log_unix_epoch=1}
     * @param latencyNs   the logged latency in ns (fio 3.x latency logs are in ns)
     * @param op          {@code IoOpCode}: 0 READ, 1 WRITE, 2 TRIM (fio's ddir)
     * @param sizeBytes   block size of the I/O
     * @param offsetBytes offset of the I/O in the file/device
     * @param prio        priority column: -1 when absent; 0/1 (high-priority flag) by default, the ioprio
     *                    value with {@code log_prio=1} (written in hex, "0x0000")
     */
    void onIo(long timeMs, long latencyNs, byte op, int sizeBytes, long offsetBytes, int prio);
}
