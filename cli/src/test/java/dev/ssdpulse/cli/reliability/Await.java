package dev.ssdpulse.cli.reliability;

import java.time.Duration;
import java.util.Optional;
import java.util.function.Supplier;

/** Condition-based waiting: poll until a value is present, never a fixed sleep. */
final class Await {
    private Await() {
    }

    /**
     * Polls {@code query} every 200 ms until it gives a value; exceptions count as "not yet" (a view
     * rebalancing, a server not up). On timeout the message names {@code what} and the last exception.
     */
    static <T> T until(String what, Duration timeout, Supplier<Optional<T>> query) throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        RuntimeException last = null;
        while (true) {
            try {
                Optional<T> v = query.get();
                if (v.isPresent()) {
                    return v.get();
                }
            } catch (RuntimeException e) {
                last = e;
            }
            if (System.nanoTime() > deadline) {
                throw new AssertionError(what + ": not within " + timeout
                        + (last == null ? "" : " (last error: " + last + ")"), last);
            }
            Thread.sleep(200);
        }
    }

    static void untilTrue(String what, Duration timeout, Supplier<Boolean> condition) throws InterruptedException {
        until(what, timeout, () -> condition.get() ? Optional.of(Boolean.TRUE) : Optional.empty());
    }
}
