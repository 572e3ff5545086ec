/**
 * The device engine: runs a workload with real I/O against a file or block device.
 *
 * <ul>
 *   <li>{@link dev.ssdpulse.producer.device.engine.IoEngine}: fio-style narrow engine interface (submit / reap);
 *   {@link dev.ssdpulse.producer.device.engine.LibaioIoEngine} (Linux native AIO through JNA, one submitting
 *   thread per worker, completions read from the mapped AIO ring before {@code io_getevents} is called),
 *   {@link dev.ssdpulse.producer.device.engine.IoUringIoEngine} (io_uring through raw system calls, the ring flags
 *   fio uses, the target and the slots' buffers registered with the ring),
 *   {@link dev.ssdpulse.producer.device.engine.SyncDirectIoEngine} (psync: positional pread/pwrite, O_DIRECT through
 *   {@code ExtendedOpenOption.DIRECT}, a thread per queue slot),
 *   {@link dev.ssdpulse.producer.device.engine.NullIoEngine} (tool ceiling; synchronous or queued).</li>
 *   <li>{@link dev.ssdpulse.producer.device.DeviceRunner}: phases, a submit/reap loop per worker (asynchronous
 *   engines: each prepared I/O handed to the kernel at once or in batches of {@code --submit-batch}, completions
 *   recorded after their replacements are submitted, {@link dev.ssdpulse.producer.device.CompletionBacklog}) or
 *   workers x queue depth threads (psync), each I/O thread pinned to {@code --cpus-allowed} when given
 *   ({@link dev.ssdpulse.producer.device.engine.ThreadAffinity}), duration / byte budget / exhaustion stop, pacing by
 *   {@code delayNs}, IDLE, PURGE handling, progress, cancel -> ABORTED, device error -> FAILED.</li>
 *   <li>{@link dev.ssdpulse.producer.device.guard.TargetGuard}: file creation without growth, block-device safety
 *   checks; {@link dev.ssdpulse.producer.device.hostinfo.HostFactsCollector}: kernel, scheduler, model, ...</li>
 * </ul>
 *
 * <p><b>Queue depth.</b> Java has no portable asynchronous direct I/O (AsynchronousFileChannel on Linux is a
 * thread pool doing the same blocking pread/pwrite), so the asynchronous engines call the kernel's interfaces
 * through JNA direct mapping. The psync engine keeps QD n per worker with n threads sharing the worker's generator
 * under a lock: it matches fio's IOPS on a virtio disk but costs 1.3-1.9x fio's CPU per I/O at QD32, which is why
 * an asynchronous engine (libaio, see {@link dev.ssdpulse.producer.device.engine.IoEngineChoice}) is the default.
 *
 * <p><b>Timing.</b> {@link System#nanoTime()} around the system call (CLOCK_MONOTONIC). Measured on the reference VM
 * with {@code DeviceBench clock}: 67-92 ns per call, smallest observable step 20 ns; so a latency carries about
 * +0.1 us of timing overhead and +-20 ns of quantisation, plus the JNI transition, but none of ssdpulse's own
 * queueing. {@code submitTimeNs} is the moment the I/O was handed to the OS.
 *
 * <p><b>Limits.</b> TRIM is {@code ioctl(BLKDISCARD)} on a block device and {@code fallocate(PUNCH_HOLE)} on a
 * file (libc through JNA, {@link dev.ssdpulse.producer.device.engine.LinuxDiscard}); where neither works, TRIMs
 * complete with EOPNOTSUPP (95). A PURGE discards a whole block device as {@code blkdiscard} does; a secure erase
 * ({@code nvme format}, ATA secure erase) is not issued. Ramp I/Os are recorded like any other; consumers drop the
 * phase's first rampNs.
 */
package dev.ssdpulse.producer.device;
