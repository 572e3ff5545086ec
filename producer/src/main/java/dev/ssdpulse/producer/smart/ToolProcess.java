package dev.ssdpulse.producer.smart;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/** Runs smartctl and nvme: their standard output, or their own words (stderr's first line) when they print none. */
public final class ToolProcess {
    private ToolProcess() {}

    /** {@link SmartPlan.CommandRunner} over real processes. */
    public static String run(List<String> command, Duration timeout) throws IOException, InterruptedException {
        Process p = new ProcessBuilder(command).start();
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        Thread outReader = drain(p.getInputStream(), out, "ssdpulse-smart-reader");
        Thread errReader = drain(p.getErrorStream(), err, "ssdpulse-smart-stderr");
        try {
            if (!p.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
                destroyTree(p);
                throw new IOException("timed out after " + timeout.toSeconds() + " s");
            }
        } catch (InterruptedException e) {
            // SmartPoller.close() interrupts a poll in flight: the tool (a wrapper script's children too) must not
            // outlive it
            destroyTree(p);
            throw e;
        }
        outReader.join(1000);
        errReader.join(1000);
        String s = out.toString(StandardCharsets.UTF_8);
        if (s.isBlank()) {
            String said = ToolJson.firstLine(err.toString(StandardCharsets.UTF_8));
            throw new IOException("no output (exit code " + p.exitValue() + (said.isEmpty() ? "" : ": " + said) + ")");
        }
        return s;
    }

    private static Thread drain(InputStream in, ByteArrayOutputStream to, String name) {
        Thread t = new Thread(
                () -> {
                    try (in) {
                        in.transferTo(to);
                    } catch (IOException ignored) {
                        // the exit/timeout handling reports the failure
                    }
                },
                name);
        t.setDaemon(true);
        t.start();
        return t;
    }

    /**
     * Kills the process and every process it started, and waits (up to 5 s, even if interrupted) until they are
     * gone, so nothing of a stopped poll runs after the poller is closed. The descendants are listed first: once
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
