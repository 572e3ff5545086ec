package dev.ssdpulse.streams.topology;

import java.time.Duration;
import java.util.Optional;
import java.util.function.Supplier;
import org.apache.kafka.streams.errors.InvalidStateStoreException;

/** Polls a view of a running AnalyticsApp until it has a value, through rebalances and restores. */
final class ViewsAwait {
    private ViewsAwait() {
    }

    static <T> T await(Supplier<Optional<T>> query, Duration timeout) throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (true) {
            try {
                Optional<T> v = query.get();
                if (v.isPresent()) {
                    return v.get();
                }
            } catch (InvalidStateStoreException e) {
                // rebalancing or restoring: retry
            }
            if (System.nanoTime() > deadline) {
                throw new AssertionError("no result within " + timeout);
            }
            Thread.sleep(200);
        }
    }
}
