package dev.ssdpulse.cli.command;

import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * How a long-running command ({@code stack}, {@code registry}, {@code streams}) waits: until Ctrl-C or SIGTERM,
 * or until {@code --exit-after} has passed. On a signal the JVM runs its shutdown hooks and then halts, racing the
 * command's own thread, so what must happen on the way out (stopping a broker child JVM or a registry's producer,
 * saying "stopped") happens in the hook itself, through {@code onSignal}; after a timeout the command goes on and
 * does it itself.
 */
public final class UntilStopped {
    private UntilStopped() {}

    /**
     * Blocks until a signal or until {@code exitAfter} (null = no limit) has passed, then {@code stop} has run once:
     * in the shutdown hook on a signal, on the caller's thread after a timeout.
     */
    public static void awaitThenStop(Duration exitAfter, Runnable stop, String threadName) throws InterruptedException {
        if (!await(exitAfter, stop, threadName)) {
            stop.run();
        }
    }

    /** @return true when a signal ended the wait (onSignal ran in the hook) */
    private static boolean await(Duration exitAfter, Runnable onSignal, String threadName) throws InterruptedException {
        CountDownLatch stopped = new CountDownLatch(1);
        Thread hook = new Thread(
                () -> {
                    onSignal.run();
                    stopped.countDown();
                },
                threadName);
        Runtime.getRuntime().addShutdownHook(hook);
        if (exitAfter == null) {
            stopped.await();
            return true;
        }
        if (stopped.await(exitAfter.toMillis(), TimeUnit.MILLISECONDS)) {
            return true;
        }
        try {
            Runtime.getRuntime().removeShutdownHook(hook);
        } catch (IllegalStateException shuttingDown) {
            // a signal arrived just now: the hook runs onSignal
            stopped.await();
            return true;
        }
        return false;
    }
}
