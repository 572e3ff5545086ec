package dev.ssdpulse.producer.device;

import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * Ctrl-C (SIGINT) / SIGTERM handling for a device run. The JVM runs shutdown hooks and then exits, so the hook
 * installed here cancels the runner and then <em>waits</em> (up to {@code maxWait}) until the caller says the run
 * is fully wrapped up, i.e. outstanding I/Os completed, the publisher flushed and RunFinished(ABORTED) was
 * acknowledged. Usage:
 * <pre>{@code
 * try (ShutdownCancellation hook = ShutdownCancellation.install(runner, Duration.ofSeconds(30))) {
 *     DeviceRunResult r = runner.run(spec, publisher, listener);
 *     publisher.finish(r.status() == ABORTED ? RunStatus.ABORTED : ..., r.reason(), r.elapsedNs(), timeoutMs);
 * } // close(): lets a pending hook return, or removes the hook when no shutdown is in progress
 * }</pre>
 */
public final class ShutdownCancellation implements AutoCloseable {
    private final CountDownLatch done = new CountDownLatch(1);
    private final Thread hook;

    private ShutdownCancellation(Runnable cancel, Duration maxWait) {
        this.hook = new Thread(
                () -> {
                    cancel.run();
                    try {
                        done.await(maxWait.toMillis(), TimeUnit.MILLISECONDS);
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    }
                },
                "ssdpulse-shutdown-cancel");
    }

    public static ShutdownCancellation install(DeviceRunner runner, Duration maxWait) {
        return install(() -> runner.cancel("interrupted (SIGINT/SIGTERM)"), maxWait);
    }

    /** The same for any run that {@code cancel} can end (the simulator's, an import). */
    public static ShutdownCancellation install(Runnable cancel, Duration maxWait) {
        ShutdownCancellation c = new ShutdownCancellation(cancel, maxWait);
        Runtime.getRuntime().addShutdownHook(c.hook);
        return c;
    }

    /** The run is wrapped up: a pending shutdown may proceed; outside a shutdown the hook is removed. */
    @Override
    public void close() {
        done.countDown();
        try {
            Runtime.getRuntime().removeShutdownHook(hook);
        } catch (IllegalStateException shuttingDown) {
            // the JVM is already shutting down: the hook runs (or ran) and now returns at once
        }
    }
}
