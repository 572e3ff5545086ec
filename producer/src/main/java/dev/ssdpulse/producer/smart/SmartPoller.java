package dev.ssdpulse.producer.smart;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;
import java.util.function.LongSupplier;

/**
 * Polls a drive's write-amplification counters at an interval, on one daemon thread so the I/O path is never
 * touched, with the commands a {@link SmartPlan} found (smartctl for ATA drives; nvme-cli's standard log and a NAND
 * log for NVMe drives). A failed poll is remembered ({@link #lastError()}) and skipped; it does not stop the run.
 * Without a tool, {@link #availability()} says "WA unavailable" and why, and nothing is polled.
 */
public final class SmartPoller implements AutoCloseable {
    private final Path device;
    private final Duration interval;
    private final LongSupplier timeNs;
    private final Consumer<SmartReading> sink;
    private final Optional<Path> nvmeTool;
    private final Optional<Path> smartctlTool;
    private final SmartPlan.CommandRunner runner;
    private SmartPlan plan;
    private volatile String lastError;
    private volatile SmartReading lastReading;
    private final AtomicLong delivered = new AtomicLong();
    private ScheduledExecutorService executor;

    /**
     * @param device   e.g. /dev/nvme0n1 or /dev/sda (a file target's disk: /dev/ + HostFacts.blockDevice())
     * @param interval between polls
     * @param timeNs   run clock (ns since run start) stamped on each reading
     * @param sink     receives readings on the poller thread (e.g. publisher.publishSmart(r.toAvro(runId)))
     */
    public SmartPoller(Path device, Duration interval, LongSupplier timeNs, Consumer<SmartReading> sink) {
        this(device, interval, timeNs, sink, findOnPath("nvme"), findOnPath("smartctl"), ToolProcess::run);
    }

    public SmartPoller(
            Path device,
            Duration interval,
            LongSupplier timeNs,
            Consumer<SmartReading> sink,
            Optional<Path> nvmeTool,
            Optional<Path> smartctlTool,
            SmartPlan.CommandRunner runner) {
        this.device = device;
        this.interval = interval;
        this.timeNs = timeNs;
        this.sink = sink;
        this.nvmeTool = nvmeTool;
        this.smartctlTool = smartctlTool;
        this.runner = runner;
    }

    /** How the drive is read, probing it on the first call (reading commands only). */
    public synchronized SmartPlan plan() {
        if (plan == null) {
            try {
                plan = SmartPlan.probe(device, nvmeTool, smartctlTool, runner);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return SmartPlan.unavailable(device, "interrupted while asking the drive which logs it has");
            }
        }
        return plan;
    }

    /** The plan's tool availability, refined by the latest reading (which may lack a NAND counter) or poll error. */
    public WaAvailability availability() {
        SmartPlan p = plan();
        if (!p.hasTool()) {
            return WaAvailability.unavailable(p.unavailableReason());
        }
        SmartReading r = lastReading;
        if (r != null) {
            return r.waAvailability();
        }
        String err = lastError;
        return err != null ? WaAvailability.unavailable("SMART poll failed: " + err) : WaAvailability.AVAILABLE;
    }

    public boolean hasTool() {
        return plan().hasTool();
    }

    public String lastError() {
        return lastError;
    }

    /** Polls now on the calling thread; empty when no tool or the poll failed ({@link #lastError()}). */
    public Optional<SmartReading> pollOnce() {
        SmartPlan p = plan();
        if (!p.hasTool()) {
            return Optional.empty();
        }
        try {
            SmartReading r = p.poll(timeNs.getAsLong(), runner);
            lastReading = r;
            return Optional.of(r);
        } catch (SmartParseException | IOException e) {
            lastError = e.getMessage();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        return Optional.empty();
    }

    /** Polls at once and then every interval until {@link #close()}. */
    public synchronized void start() {
        if (executor != null || !plan().hasTool()) {
            return;
        }
        executor = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "ssdpulse-smart-poller");
            t.setDaemon(true);
            return t;
        });
        executor.scheduleWithFixedDelay(
                () -> pollOnce().ifPresent(r -> {
                    sink.accept(r);
                    delivered.incrementAndGet();
                }),
                0,
                interval.toNanos(),
                TimeUnit.NANOSECONDS);
    }

    /** Readings the periodic polls handed to the sink so far. */
    public long readingsDelivered() {
        return delivered.get();
    }

    /** Stops polling; an in-flight poll is interrupted. Call {@link #pollOnce()} after for a final reading. */
    @Override
    public synchronized void close() {
        if (executor != null) {
            executor.shutdownNow();
            try {
                executor.awaitTermination(5, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            executor = null;
        }
    }

    /** The executable named {@code tool} in a PATH directory, if any. */
    public static Optional<Path> findOnPath(String tool) {
        return findOnPath(tool, System.getenv("PATH"));
    }

    static Optional<Path> findOnPath(String tool, String pathEnv) {
        if (pathEnv == null) {
            return Optional.empty();
        }
        List<String> dirs = new ArrayList<>(List.of(pathEnv.split(":")));
        dirs.add("/usr/sbin"); // smartctl and nvme live in sbin, often missing from a non-root PATH
        dirs.add("/sbin");
        for (String dir : dirs) {
            if (dir.isEmpty()) {
                continue;
            }
            Path p = Path.of(dir, tool);
            if (Files.isRegularFile(p) && Files.isExecutable(p)) {
                return Optional.of(p);
            }
        }
        return Optional.empty();
    }
}
