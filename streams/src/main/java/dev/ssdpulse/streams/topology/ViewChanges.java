package dev.ssdpulse.streams.topology;

import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * The processors announce, per run (or run group), that its views changed: a window closed, the open window grew,
 * a verdict, a status or a summary came. Live clients of the views (the HTTP API's event streams) listen here and
 * read the views at once instead of polling them, so a closed window reaches a dashboard within milliseconds of
 * its store write. Listeners run on the stream thread: they must only hand the work to another thread.
 *
 * <p>A change is announced after the store write it is about: a listener that reads the views then sees it (the
 * stores' interactive queries read through the record cache). Thread-safe.
 */
public final class ViewChanges {
    private static final ViewChanges NONE = new ViewChanges();

    private final Map<String, List<Runnable>> listeners = new ConcurrentHashMap<>();

    /** Announces to nobody: run-once applications (replay, re-analysis), which no client watches. */
    public static ViewChanges none() {
        return NONE;
    }

    /** Calls {@code listener} after every change of the run's views until the returned handle is closed. */
    public AutoCloseable listen(String runId, Runnable listener) {
        if (this == NONE) {
            return () -> {};
        }
        listeners.computeIfAbsent(runId, id -> new CopyOnWriteArrayList<>()).add(listener);
        return () -> listeners.computeIfPresent(runId, (id, list) -> {
            list.remove(listener);
            return list.isEmpty() ? null : list;
        });
    }

    /** Whether anyone listens to the run (the processors compute what only listeners read for those only). */
    public boolean watched(String runId) {
        return listeners.containsKey(runId);
    }

    /** The run's views changed. */
    public void changed(String runId) {
        List<Runnable> list = listeners.get(runId);
        if (list != null) {
            list.forEach(Runnable::run);
        }
    }
}
