package dev.ssdpulse.cli;

import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * How a long-running command ({@code stack}, {@code registry}) waits: until Ctrl-C or SIGTERM, or until
 * {@code --exit-after} has passed. On a signal the JVM runs its shutdown hooks and then halts without returning to
 * the command, so what must be stopped cleanly (a broker child JVM, a registry's producer) is stopped in the hook
 * itself, through {@code onSignal}; after a timeout the command returns and closes it as usual.
 */
public final class UntilStopped {
    private UntilStopped() {
    }

    /**
     * Blocks until a signal ({@code onSignal} then runs in the shutdown hook) or until {@code exitAfter} (null =
     * no limit) has passed.
     */
    public static void await(Duration exitAfter, Runnable onSignal, String threadName) throws InterruptedException {
        CountDownLatch stopped = new CountDownLatch(1);
        Thread hook = new Thread(() -> {
            onSignal.run();
            stopped.countDown();
        }, threadName);
        Runtime.getRuntime().addShutdownHook(hook);
        if (exitAfter == null) {
            stopped.await();
        } else if (!stopped.await(exitAfter.toMillis(), TimeUnit.MILLISECONDS)) {
            Runtime.getRuntime().removeShutdownHook(hook);
        }
    }
}
