package dev.ssdpulse.producer.smart;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Consumer;
import java.util.function.LongSupplier;

/**
 * Polls a device's SMART counters at an interval with {@code nvme smart-log DEV -o json} (for nvme* devices, when
 * nvme-cli is on the PATH) or {@code smartctl -j -a DEV} (smartmontools), on one daemon thread so the I/O path is
 * never touched. A failed poll is remembered ({@link #lastError()}) and skipped; it does not stop the run.
 * Without either tool, {@link #availability()} says "WA unavailable" and why, and nothing is polled.
 */
public final class SmartPoller implements AutoCloseable {
    /** Runs a command and returns its standard output (smartctl's exit code is a bit mask, so it is not checked). */
    @FunctionalInterface
    public interface CommandRunner {
        String run(List<String> command, Duration timeout) throws IOException, InterruptedException;
    }

    private static final Duration COMMAND_TIMEOUT = Duration.ofSeconds(30);
    private final List<String> command;
    private final SmartReading.Source source;
    private final String unavailableReason;
    private final Duration interval;
    private final LongSupplier timeNs;
    private final Consumer<SmartReading> sink;
    private final CommandRunner runner;
    private final SmartctlJsonParser smartctlParser = new SmartctlJsonParser();
    private final NvmeSmartLogParser nvmeParser = new NvmeSmartLogParser();
    private volatile String lastError;
    private volatile SmartReading lastReading;
    private ScheduledExecutorService executor;

    /**
     * @param device   e.g. /dev/nvme0n1 or /dev/sda (a file target's disk: /dev/ + HostFacts.blockDevice())
     * @param interval between polls
     * @param timeNs   run clock (ns since run start) stamped on each reading
     * @param sink     receives readings on the poller thread (e.g. publisher.publishSmart(r.toAvro(runId)))
     */
    public SmartPoller(Path device, Duration interval, LongSupplier timeNs, Consumer<SmartReading> sink) {
        this(device, interval, timeNs, sink, findOnPath("nvme"), findOnPath("smartctl"), SmartPoller::runProcess);
    }

    public SmartPoller(
            Path device,
            Duration interval,
            LongSupplier timeNs,
            Consumer<SmartReading> sink,
            Optional<Path> nvmeTool,
            Optional<Path> smartctlTool,
            CommandRunner runner) {
        this.interval = interval;
        this.timeNs = timeNs;
        this.sink = sink;
        this.runner = runner;
        String name = device.getFileName() == null ? "" : device.getFileName().toString();
        if (name.startsWith("nvme") && nvmeTool.isPresent()) {
            command = List.of(nvmeTool.get().toString(), "smart-log", device.toString(), "-o", "json");
            source = SmartReading.Source.NVME_SMART_LOG;
            unavailableReason = null;
        } else if (smartctlTool.isPresent()) {
            command = List.of(smartctlTool.get().toString(), "-j", "-a", device.toString());
            source = SmartReading.Source.SMARTCTL;
            unavailableReason = null;
        } else {
            command = List.of();
            source = null;
            unavailableReason = "neither smartctl (smartmontools) nor nvme (nvme-cli) is on the PATH";
        }
    }

    /** Tool availability, refined by the latest reading (which may lack a NAND counter) or poll error. */
    public WaAvailability availability() {
        if (unavailableReason != null) {
            return WaAvailability.unavailable(unavailableReason);
        }
        SmartReading r = lastReading;
        if (r != null) {
            return r.waAvailability();
        }
        String err = lastError;
        return err != null ? WaAvailability.unavailable("SMART poll failed: " + err) : WaAvailability.AVAILABLE;
    }

    public boolean hasTool() {
        return unavailableReason == null;
    }

    public String lastError() {
        return lastError;
    }

    /** Polls now on the calling thread; empty when no tool or the poll failed ({@link #lastError()}). */
    public Optional<SmartReading> pollOnce() {
        if (command.isEmpty()) {
            return Optional.empty();
        }
        try {
            long t = timeNs.getAsLong();
            String out = runner.run(command, COMMAND_TIMEOUT);
            SmartReading r = source == SmartReading.Source.NVME_SMART_LOG
                    ? nvmeParser.parseNvmeCli(out, t)
                    : smartctlParser.parse(out, t);
            lastReading = r;
            return Optional.of(r);
        } catch (SmartParseException | IOException e) {
            lastError = String.join(" ", command) + ": " + e.getMessage();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        return Optional.empty();
    }

    /** Polls at once and then every interval until {@link #close()}. */
    public synchronized void start() {
        if (executor != null || command.isEmpty()) {
            return;
        }
        executor = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "ssdpulse-smart-poller");
            t.setDaemon(true);
            return t;
        });
        executor.scheduleWithFixedDelay(() -> pollOnce().ifPresent(sink), 0, interval.toNanos(), TimeUnit.NANOSECONDS);
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

    static String runProcess(List<String> command, Duration timeout) throws IOException, InterruptedException {
        Process p = new ProcessBuilder(command)
                .redirectError(ProcessBuilder.Redirect.DISCARD)
                .start();
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        Thread reader = new Thread(
                () -> {
                    try (InputStream in = p.getInputStream()) {
                        in.transferTo(out);
                    } catch (IOException ignored) {
                        // the exit/timeout handling below reports the failure
                    }
                },
                "ssdpulse-smart-reader");
        reader.setDaemon(true);
        reader.start();
        try {
            if (!p.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
                destroyTree(p);
                throw new IOException("timed out after " + timeout.toSeconds() + " s");
            }
        } catch (InterruptedException e) {
            // close() interrupts a poll in flight: the tool (a wrapper script's children too) must not outlive it
            destroyTree(p);
            throw e;
        }
        reader.join(1000);
        String s = out.toString(StandardCharsets.UTF_8);
        if (s.isBlank()) {
            throw new IOException("no output (exit code " + p.exitValue() + ")");
        }
        return s;
    }

    /**
     * Kills the process and every process it started, and waits (up to 5 s, even if interrupted) until they are
     * gone, so nothing of a stopped poll runs after {@link #close()} returns. The descendants are listed first: once
     * the parent dies they are re-parented and no longer its descendants.
     */
    private static void destroyTree(Process p) {
        List<ProcessHandle> tree = new ArrayList<>(p.descendants().toList());
        tree.add(p.toHandle());
        tree.forEach(ProcessHandle::destroyForcibly);
        long deadlineNs = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
        boolean interrupted = false;
        for (ProcessHandle h : tree) {
            while (h.isAlive() && System.nanoTime() - deadlineNs < 0) {
                try {
                    h.onExit().get(Math.max(1, deadlineNs - System.nanoTime()), TimeUnit.NANOSECONDS);
                } catch (InterruptedException e) {
                    interrupted = true;
                } catch (ExecutionException | TimeoutException e) {
                    break;
                }
            }
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
    }
}
